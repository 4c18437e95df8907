"""Dagster definitions of the qa stage (assets, checks, jobs)."""
import dagster as dg

defs = dg.Definitions()
