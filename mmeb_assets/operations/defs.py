"""Dagster definitions of the operations stage (assets, checks, jobs)."""
import dagster as dg

defs = dg.Definitions()
