"""Dagster definitions of the ingestion stage (`seed_document` and its checks; `source_facts` is in facts)."""
import dagster as dg

from mmeb_assets.ingestion.assets import seed_document
from mmeb_assets.ingestion.checks import ingestion_checks

defs = dg.Definitions(assets=[seed_document], asset_checks=ingestion_checks)
