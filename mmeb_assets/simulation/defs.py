"""Dagster definitions of the simulation stage (assets, checks, jobs)."""
import dagster as dg

from mmeb_assets.simulation.asset_checks import ASSET_CHECKS
from mmeb_assets.simulation.assets import event_plan, organization

defs = dg.Definitions(assets=[organization, event_plan], asset_checks=ASSET_CHECKS)
