"""Dagster definitions of the qa stage (assets, checks, jobs)."""
import dagster as dg

from mmeb_assets.qa.assets import benchmark, qa_items, qa_statistics, qa_validated
from mmeb_assets.qa.checks import QA_CHECKS

defs = dg.Definitions(assets=[qa_items, qa_validated, benchmark, qa_statistics], asset_checks=QA_CHECKS)
