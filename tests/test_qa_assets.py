"""qa_items -> qa_validated -> benchmark -> qa_statistics materialized in process on fixture upstream."""
from __future__ import annotations

import json

import dagster as dg
import pytest

from mmeb_assets.partitions import seed_partitions_def
from mmeb_assets.qa.assets import benchmark, qa_items, qa_statistics, qa_validated
from mmeb_assets.qa.checks import QA_CHECKS
from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.stale_oracle import stale_gold_problems
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
    provenance = json.loads(row["provenance"])  # the Parquet rows keep the JSONL rows' provenance
    assert provenance["stage"] == "qa" and provenance["seed_id"] == row["project"]


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
        find_duplicates, find_gold_problems, find_leaks, find_missing_evidence, find_missing_tasks,
        find_unknown_evidence,
    )
    from mmeb_assets.qa.evidence_shows import evidence_problems
    from mmeb_resources.io_manager import _load

    for key in keys:
        qa_set = _load(home / "projects" / key / "qa_validated.json")
        records = _load(home / "projects" / key / "records.json")
        assert not find_leaks(qa_set.items) and not find_duplicates(qa_set.items)
        assert not find_missing_evidence(qa_set.items) and not find_missing_tasks(qa_set.items)
        assert not find_unknown_evidence(qa_set.items, {r.id for r in records.records})
        assert not find_gold_problems(qa_set.items)
        plan = _load(home / "projects" / key / "event_plan.json")
        org = _load(home / "projects" / key / "organization.json")
        index = ProjectIndex(plan=plan, org=org, records=records)
        assert not stale_gold_problems(index, qa_set.items)
        assert not evidence_problems(index, qa_set.items)
    assert len(QA_CHECKS) == 10


def test_same_inputs_give_byte_identical_question_files(tmp_path):
    key = seed_partitions_def.get_partition_keys()[0]
    outputs = []
    for run in ("a", "b"):
        home = tmp_path / run
        result = dg.materialize([organization_stub, event_plan_stub, records_stub, qa_items, qa_validated],
                                resources=resources(home), partition_key=key)
        assert result.success
        outputs.append((home / "projects" / key / "questions.jsonl").read_bytes())
    assert outputs[0] == outputs[1] and outputs[0]


def test_llm_validator_config_runs_all_stages_over_http(tmp_path):
    from openai_test_server import OpenAITestServer

    def handler(payload):
        system = payload["messages"][0]["content"]
        if "ONLY the records" in system:
            return json.dumps({"answer": "see records", "knowable": True, "reason": ""})
        if "grade one candidate" in system:
            return json.dumps({"asked_object": "x", "verdict": "match", "cause": "none", "reason": ""})
        return json.dumps({"verdict": "pass", "category": "none", "evidence_sufficient": True})

    key = seed_partitions_def.get_partition_keys()[0]
    with OpenAITestServer(handler) as server:
        llm = LLMResource(backend="openai", base_url=server.base_url, model="test-model", api_key="x",
                          use_cache=False, home=str(tmp_path))
        res = {**resources(tmp_path), "llm": llm}
        result = dg.materialize([organization_stub, event_plan_stub, records_stub, qa_items, qa_validated],
                                resources=res, partition_key=key,
                                run_config={"ops": {"qa_items": {"config": {"llm_generation": False}}}})
        assert result.success
        n_requests = len(server.requests)
    from mmeb_resources.io_manager import _load

    qa_set = _load(tmp_path / "projects" / key / "qa_validated.json")
    answerable = [i for i in qa_set.items + qa_set.dropped]
    assert n_requests >= 3 * len([i for i in answerable if i.validation.decision != "drop"]) > 0
    assert qa_set.provenance.generator == "openai:test-model"
    assert all({s.validator for s in i.validation.stages} == {"rules", "openai:test-model"} for i in qa_set.items)


def test_cli_prints_statistics(built, capsys):
    from mmeb_assets.cli import main

    home, keys = built
    assert main(["questions", "--file", str(home / "benchmark" / "questions.jsonl"), "--table", "table3c_questions",
                 "--csv"]) == 0
    out = [line for line in capsys.readouterr().out.splitlines() if line]
    assert out[0] == "Category,# Q,Share" and out[-1].startswith("Total,")


def test_a_project_under_the_answerable_floor_fails_in_one_line():
    from types import SimpleNamespace

    from mmeb_assets.qa.assets import MIN_ANSWERABLE, ProjectTooSmall, require_answerable_floor
    answerable = [SimpleNamespace(answer_status="answerable")] * (MIN_ANSWERABLE - 1)
    declined = [SimpleNamespace(answer_status="unanswerable")] * 5
    with pytest.raises(ProjectTooSmall) as caught:
        require_answerable_floor("tiny-seed", answerable + declined)
    assert str(caught.value).startswith(f"seed tiny-seed: {MIN_ANSWERABLE - 1} answerable") and "\n" not in str(caught.value)
    require_answerable_floor("enough", answerable + [SimpleNamespace(answer_status="answerable")])
