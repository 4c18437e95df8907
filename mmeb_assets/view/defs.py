"""Dagster definitions of the view stage: the results browser."""
import dagster as dg

from mmeb_assets.view.assets import results_view

defs = dg.Definitions(assets=[results_view])
