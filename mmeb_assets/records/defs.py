"""Dagster definitions of the records stage (assets, checks, jobs)."""
import dagster as dg

defs = dg.Definitions()
