"""Dagster definitions of the operations stage (the lineage asset; jobs, schedules and sensors are
built from the assembled assets in `automation.py`)."""
import dagster as dg

from mmeb_assets.operations.assets import record_lineage

defs = dg.Definitions(assets=[record_lineage])
