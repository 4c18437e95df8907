"""Dagster definitions of the facts stage (the `source_facts` asset and its check)."""
import dagster as dg

from mmeb_assets.facts.assets import source_facts
from mmeb_assets.facts.checks import facts_checks

defs = dg.Definitions(assets=[source_facts], asset_checks=facts_checks)
