"""The one place the project's Definitions are assembled."""
from __future__ import annotations

import dagster as dg

from mmeb_assets.annotation.defs import defs as annotation_defs
from mmeb_assets.evaluation.defs import defs as evaluation_defs
from mmeb_assets.facts.defs import defs as facts_defs
from mmeb_assets.ingestion.defs import defs as ingestion_defs
from mmeb_assets.operations.automation import build_automation
from mmeb_assets.operations.defs import defs as operations_defs
from mmeb_assets.operations.executors import executor_from_env
from mmeb_assets.qa.defs import defs as qa_defs
from mmeb_assets.records.defs import defs as records_defs
from mmeb_assets.retrieval.defs import defs as retrieval_defs
from mmeb_assets.simulation.defs import defs as simulation_defs
from mmeb_assets.view.defs import defs as view_defs
from mmeb_resources.defaults import default_resources

STAGE_DEFS = (
    ingestion_defs, facts_defs, simulation_defs, records_defs, qa_defs, retrieval_defs, evaluation_defs,
    annotation_defs, operations_defs, view_defs,
)


@dg.definitions
def defs() -> dg.Definitions:
    stages = dg.Definitions.merge(*STAGE_DEFS)
    assets = [a for a in (stages.assets or []) if isinstance(a, dg.AssetsDefinition)]
    # MMEB_EXECUTOR (operations/executors.py): every job, the implicit asset job included, runs its
    # steps on that executor; unset, Dagster's default (in process / multiprocess) as on a laptop.
    deployment = dg.Definitions(resources=default_resources(), executor=executor_from_env())
    return dg.Definitions.merge(stages, build_automation(assets), deployment)
