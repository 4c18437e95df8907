"""The `organization` and `event_plan` assets materialized by Dagster on a demo seed, with their checks."""
from __future__ import annotations

import json

import dagster as dg

from mmeb_assets.facts.assets import source_facts
from mmeb_assets.ingestion.assets import seed_document
from mmeb_assets.simulation.asset_checks import ASSET_CHECKS
from mmeb_assets.simulation.assets import event_plan, organization
from mmeb_resources.io_manager import PydanticJsonIOManager
from mmeb_resources.llm import LLMResource
from mmeb_resources.storage import StorageResource


def _resources():
    return {"io_manager": PydanticJsonIOManager(), "storage": StorageResource(), "llm": LLMResource(backend="rules")}


def _run(seed: str, config: dict | None = None):
    run_config = {"ops": {"organization": {"config": config or {}}, "event_plan": {"config": config or {}}}}
    return dg.materialize([seed_document, source_facts, organization, event_plan, *ASSET_CHECKS],
                          resources=_resources(), partition_key=seed, run_config=run_config)


def test_assets_materialize_with_passing_checks_and_metadata(mmeb_home):
    result = _run("harbor-emissions")
    assert result.success
    checks = result.get_asset_check_evaluations()
    assert len(checks) == len(ASSET_CHECKS)
    assert all(c.passed for c in checks), [(c.check_name, c.metadata) for c in checks if not c.passed]
    project = mmeb_home / "projects" / "harbor-emissions"
    org = json.loads((project / "organization.json").read_text())["data"]
    plan_text = (project / "event_plan.json").read_text()
    plan = json.loads(plan_text)["data"]
    assert org["archetype"] == "analysis_firm"          # the manifest entry says so
    assert len(plan["events"]) >= 180 and plan["errors"] and plan["documents"]
    meta = result.asset_materializations_for_node("event_plan")[0].metadata
    assert meta["events"].value == len(plan["events"]) and "Timeline excerpt" in meta["preview"].value
    org_meta = result.asset_materializations_for_node("organization")[0].metadata
    assert org_meta["people"].value == len(org["people"])

    again = _run("harbor-emissions")
    assert again.success and (project / "event_plan.json").read_text() == plan_text
    other = _run("harbor-emissions", {"random_seed": 99})
    assert other.success and (project / "event_plan.json").read_text() != plan_text
