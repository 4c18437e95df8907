"""Dagster definitions of the records stage (assets, checks, jobs)."""
import dagster as dg

from mmeb_assets.records.assets import ASSETS, CHECKS

defs = dg.Definitions(assets=ASSETS, asset_checks=CHECKS)
