"""Dagster definitions of the simulation stage (assets, checks, jobs)."""
import dagster as dg

defs = dg.Definitions()
