"""qa_items -> qa_validated -> benchmark -> qa_statistics materialized in process on fixture upstream."""
from __future__ import annotations

import json

import dagster as dg
import pytest

from mmeb_assets.partitions import seed_partitions_def
from mmeb_assets.qa.assets import benchmark, qa_items, qa_statistics, qa_validated
from mmeb_assets.qa.checks import QA_CHECKS
from mmeb_assets.qa.export import read_questions_jsonl
from mmeb_assets.qa.fixture import fixture_project
from mmeb_assets.schema import TASKS, EventPlan, Organization, RecordSet
from mmeb_resources.io_manager import PydanticJsonIOManager
from mmeb_resources.llm import LLMResource
from mmeb_resources.storage import StorageResource


@dg.asset(partitions_def=seed_partitions_def, name="organization")
def organization_stub(context) -> Organization:
    return fixture_project(context.partition_key)[0]


@dg.asset(partitions_def=seed_partitions_def, name="event_plan")
def event_plan_stub(context) -> EventPlan:
    return fixture_project(context.partition_key)[1]


@dg.asset(partitions_def=seed_partitions_def, name="records")
def records_stub(context) -> RecordSet:
    return fixture_project(context.partition_key)[2]


def resources(home):
    return {"storage": StorageResource(home=str(home)), "io_manager": PydanticJsonIOManager(home=str(home)),
            "llm": LLMResource(backend="rules")}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    home = tmp_path_factory.mktemp("qa_home")
    keys = seed_partitions_def.get_partition_keys()
    per_seed = [organization_stub, event_plan_stub, records_stub, qa_items, qa_validated]
    for key in keys:
        result = dg.materialize(per_seed, resources=resources(home), partition_key=key,
                                run_config={"ops": {"qa_validated": {"config": {"target_per_project": 40}}}})
        assert result.success
    result = dg.materialize([benchmark, qa_statistics, *per_seed], selection=[benchmark, qa_statistics],
                            resources=resources(home))
    assert result.success
    return home, keys


def test_questions_jsonl_per_project(built):
    home, keys = built
    for key in keys:
        path = home / "projects" / key / "questions.jsonl"
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        assert rows and {r["task"] for r in rows} == set(TASKS)
        for row in rows:
            assert {"id", "task", "q", "answer_status", "gold", "evidence", "solution", "validation", "category"} <= set(row)
        items = read_questions_jsonl(path)
        assert all(i.project == key for i in items)


def test_benchmark_parquet_loads_with_datasets(built):
    import datasets

    home, keys = built
    ds = datasets.load_dataset("parquet", data_files=str(home / "benchmark" / "questions.parquet"), split="train",
                               cache_dir=str(home / "hf_cache"))
    jsonl = (home / "benchmark" / "questions.jsonl").read_text().splitlines()
    assert len(ds) == len(jsonl) > 0
    assert set(ds["project"]) == set(keys)
    assert {"id", "task", "category", "q", "gold_answer", "evidence", "solution", "validation_decision"} <= set(ds.column_names)
    row = ds[0]
    assert isinstance(row["evidence"], list) and isinstance(row["solution"][0]["record_ids"], list)


def test_statistics_files_and_shapes(built):
    home, _ = built
    stats_dir = home / "benchmark" / "stats"
    for name in ("table3c_questions", "table3d_evidence", "table2_tasks", "table4_modality", "table5_temporal_span"):
        assert (stats_dir / f"{name}.md").read_text().startswith("**")
        assert (stats_dir / f"{name}.csv").read_text().count("\n") >= 3
    table3c = (stats_dir / "table3c_questions.csv").read_text().splitlines()
    assert table3c[0] == "Category,# Q,Share" and table3c[-1].startswith("Total")


def test_checks_pass_on_materialized_set(built):
    home, keys = built
    from mmeb_assets.qa.checks import (
        find_duplicates, find_leaks, find_missing_evidence, find_missing_tasks, find_unknown_evidence,
    )
    from mmeb_resources.io_manager import _load

    for key in keys:
        qa_set = _load(home / "projects" / key / "qa_validated.json")
        records = _load(home / "projects" / key / "records.json")
        assert not find_leaks(qa_set.items) and not find_duplicates(qa_set.items)
        assert not find_missing_evidence(qa_set.items) and not find_missing_tasks(qa_set.items)
        assert not find_unknown_evidence(qa_set.items, {r.id for r in records.records})
    assert len(QA_CHECKS) == 7
