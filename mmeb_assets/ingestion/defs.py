"""Dagster definitions of the ingestion stage (assets, checks, jobs)."""
import dagster as dg

defs = dg.Definitions()
