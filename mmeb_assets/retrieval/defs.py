"""Dagster definitions of the retrieval stage (assets, checks, jobs)."""
import dagster as dg

defs = dg.Definitions()
