"""Dagster definitions of the ingestion stage (assets, checks)."""
import dagster as dg

from mmeb_assets.ingestion.assets import seed_document, source_facts
from mmeb_assets.ingestion.checks import ingestion_checks

defs = dg.Definitions(assets=[seed_document, source_facts], asset_checks=ingestion_checks)
