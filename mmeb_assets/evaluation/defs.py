"""Dagster definitions of the evaluation stage (assets, checks, jobs)."""
import dagster as dg

defs = dg.Definitions()
