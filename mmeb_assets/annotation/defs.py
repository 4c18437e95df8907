"""Dagster definitions of the annotation stage (assets, checks, jobs)."""
import dagster as dg

defs = dg.Definitions()
