"""The ingestion asset and the facts asset it feeds, in process: one demo partition end to end; a missing
PDF fails only its partition."""
from __future__ import annotations

import json

import dagster as dg
import pytest
from PIL import Image

from mmeb_assets.facts.assets import source_facts
from mmeb_assets.facts.checks import facts_checks
from mmeb_assets.facts.defs import defs as facts_defs
from mmeb_assets.ingestion.assets import seed_document
from mmeb_assets.ingestion.checks import ingestion_checks
from mmeb_assets.ingestion.defs import defs
from mmeb_assets.seedgen.demo_seeds import demo_seed_spec
from mmeb_resources.io_manager import PydanticJsonIOManager
from mmeb_resources.llm import LLMResource
from mmeb_resources.storage import StorageResource


def _resources() -> dict:
    return {"storage": StorageResource(), "io_manager": PydanticJsonIOManager(), "llm": LLMResource()}


def test_materialize_one_demo_partition(mmeb_home):
    result = dg.materialize([seed_document, source_facts, *ingestion_checks, *facts_checks], partition_key="aurora-retrieval",
                            resources=_resources())
    assert result.success
    checks = {e.check_name: e.passed for e in result.get_asset_check_evaluations()}
    assert checks == {"tables_well_formed": True, "figure_images_open": True, "claims_verbatim": True}
    project = mmeb_home / "projects" / "aurora-retrieval"
    document = json.loads((project / "source_document.json").read_text())
    spec = demo_seed_spec("aurora-retrieval")
    assert [t["caption"] for t in document["tables"]] == [t.caption for t in spec.tables]
    assert document["path"] == "demo_pdfs/aurora-retrieval.pdf"
    stored = json.loads((project / "seed_document.json").read_text())
    assert stored["data"]["tables"] == document["tables"]
    facts = json.loads((project / "source_facts.json").read_text())["data"]
    assert facts["textual"]["method_name"] == "Aurora" and facts["provenance"]["generator"] == "rules"
    assert facts["visual"][0]["key_numbers"] == spec.figures[0].key_numbers
    with Image.open(project / document["figures"][0]["image_path"]) as image:
        assert image.format == "PNG"
    materialization = result.asset_materializations_for_node("seed_document")[0]
    meta = materialization.metadata
    assert meta["tables"].value == 2 and meta["figures"].value == 2 and meta["pages"].value >= 2
    assert "| Run | System | Recall@10 | MRR | Latency (ms) |" in meta["table_preview"].value
    assert meta["figure_thumbnail"].value.endswith("figures/figure_1.png")


def test_missing_pdf_fails_only_its_partition(mmeb_home, tmp_path, monkeypatch):
    manifest = tmp_path / "mixed.yaml"
    manifest.write_text(
        "seeds:\n"
        "  - {id: aurora-retrieval, title: Aurora, path: pdfs/aurora.pdf, domain: IR, license: CC0, generator: demo}\n"
        "  - {id: harbor-emissions, title: Harbor, path: pdfs/missing-harbor.pdf, domain: Ports, license: CC0}\n"
    )
    monkeypatch.setenv("MMEB_MANIFEST", str(manifest))
    good = dg.materialize([seed_document, source_facts], partition_key="aurora-retrieval", resources=_resources())
    assert good.success and (tmp_path / "pdfs" / "aurora.pdf").exists()
    bad = dg.materialize([seed_document, source_facts], partition_key="harbor-emissions", resources=_resources(),
                         raise_on_error=False)
    assert not bad.success
    failure = next(e for e in bad.all_events if e.is_step_failure)
    message = failure.step_failure_data.error.cause.message if failure.step_failure_data.error.cause else \
        failure.step_failure_data.error.message
    assert str(tmp_path / "pdfs" / "missing-harbor.pdf") in message and "file not found" in message
    assert (mmeb_home / "projects" / "aurora-retrieval" / "source_facts.json").exists()
    assert not (mmeb_home / "projects" / "harbor-emissions" / "source_document.json").exists()


def _keys_and_checks(stage_defs) -> tuple[set[str], set[str]]:
    keys = {key.to_user_string() for asset in stage_defs.assets for key in asset.keys}
    return keys, {c.name for c in stage_defs.asset_checks for c in c.check_specs}


def test_defs_hold_assets_and_checks():
    assert _keys_and_checks(defs) == ({"seed_document"}, {"tables_well_formed", "figure_images_open"})
    # source_facts moved to the facts stage with its key, group and partitions unchanged
    assert _keys_and_checks(facts_defs) == ({"source_facts"}, {"claims_verbatim"})
    key = dg.AssetKey("source_facts")
    assert source_facts.group_names_by_key[key] == "ingestion"
    assert source_facts.partitions_def == seed_document.partitions_def
    assert seed_document.code_versions_by_key[dg.AssetKey("seed_document")]
    assert source_facts.code_versions_by_key[key]
    with pytest.raises(Exception):
        dg.materialize([seed_document], partition_key="not-a-seed", resources=_resources())
