"""Schedules and sensors on toy assets partitioned like the real seed stages."""
from __future__ import annotations

import logging

import dagster as dg
from pydantic import BaseModel

from mmeb_assets.operations.automation import build_automation, changed_seeds, seed_file_fingerprints
from mmeb_assets.manifests import load_manifest
from mmeb_assets.partitions import seed_partitions_def
from mmeb_resources.io_manager import PydanticJsonIOManager


class _Value(BaseModel):
    n: int


@dg.asset(partitions_def=seed_partitions_def)
def toy_upstream(context) -> _Value:
    return _Value(n=len(context.partition_key))


@dg.asset(partitions_def=seed_partitions_def)
def toy_downstream(toy_upstream: _Value) -> _Value:
    return _Value(n=toy_upstream.n + 1)


def _write_manifest(tmp_path, names):
    lines = ["seeds:"]
    for name in names:
        lines += [f"  - id: {name}", f"    title: {name}", f"    path: pdfs/{name}.pdf", "    domain: d", "    license: l"]
    path = tmp_path / "m.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_seed_file_sensor_requests_exactly_the_new_or_changed_seed(tmp_path, monkeypatch):
    (tmp_path / "pdfs").mkdir()
    for name in ["alpha", "beta"]:
        (tmp_path / "pdfs" / f"{name}.pdf").write_bytes(b"%PDF-1.4 " + name.encode())
    manifest_path = _write_manifest(tmp_path, ["alpha", "beta", "gamma"])
    monkeypatch.setenv("MMEB_MANIFEST", str(manifest_path))
    first = seed_file_fingerprints(load_manifest(manifest_path))
    assert sorted(first) == ["alpha", "beta"]
    (tmp_path / "pdfs" / "gamma.pdf").write_bytes(b"%PDF-1.4 gamma")
    second = seed_file_fingerprints(load_manifest(manifest_path))
    assert changed_seeds(first, second) == ["gamma"]
    (tmp_path / "pdfs" / "alpha.pdf").write_bytes(b"%PDF-1.4 alpha v2")
    third = seed_file_fingerprints(load_manifest(manifest_path))
    assert changed_seeds(second, third) == ["alpha"]

    automation = build_automation([toy_upstream, toy_downstream])
    sensor = automation.resolve_sensor_def("seed_file_sensor")
    instance = dg.DagsterInstance.ephemeral()
    context = dg.build_sensor_context(instance=instance, cursor=None)
    requests = sensor(context)
    assert sorted(r.partition_key for r in requests) == ["alpha", "beta", "gamma"]
    cursor = context.cursor
    (tmp_path / "pdfs" / "beta.pdf").write_bytes(b"%PDF-1.4 beta v2")
    context = dg.build_sensor_context(instance=instance, cursor=cursor)
    assert [r.partition_key for r in sensor(context)] == ["beta"]


def test_backfill_schedule_requests_missing_and_stale_partitions(tmp_path):
    automation = build_automation([toy_upstream, toy_downstream])
    schedule = automation.resolve_schedule_def("backfill_stale_seeds")
    with dg.instance_for_test() as instance:
        _check_backfill(schedule, instance, {"io_manager": PydanticJsonIOManager(home=str(tmp_path))})


def _check_backfill(schedule, instance, io):
    seeds = seed_partitions_def.get_partition_keys()
    for seed in seeds[:2]:
        dg.materialize([toy_upstream, toy_downstream], partition_key=seed, instance=instance, resources=io)
    requests = schedule(dg.build_schedule_context(instance=instance))
    assert [r.partition_key for r in requests] == seeds[2:]
    dg.materialize([toy_upstream, toy_downstream], partition_key=seeds[2], instance=instance, resources=io)
    assert isinstance(schedule(dg.build_schedule_context(instance=instance)), dg.SkipReason)
    dg.materialize([toy_upstream], partition_key=seeds[0], instance=instance, resources=io)
    requests = schedule(dg.build_schedule_context(instance=instance))
    assert [r.partition_key for r in requests] == [seeds[0]]


def test_progress_reports_done_total_rate_and_time_left():
    from mmeb_assets.operations.progress import track

    lines: list[str] = []
    assert list(track(range(5), total=5, label="answers", log=lines.append)) == [0, 1, 2, 3, 4]
    assert lines[-1].startswith("answers: 5/5 (100%)") and "/s" in lines[-1] and "left" in lines[-1]


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def test_llm_client_logs_progress_of_a_batch(tmp_path):
    from openai_test_server import OpenAITestServer
    from mmeb_resources.llm import LLMResource

    collect, logger = _Collect(), logging.getLogger("dagster")
    logger.addHandler(collect)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        with OpenAITestServer(lambda payload: "ok") as server:
            llm = LLMResource(backend="openai", base_url=server.base_url, model="test-model",
                              cache_path=str(tmp_path / "c.sqlite"), ledger_path=str(tmp_path / "l.sqlite"))
            replies = llm.chat_batch([[{"role": "user", "content": f"q{i}"}] for i in range(4)], stage="unit")
    finally:
        logger.removeHandler(collect)
        logger.setLevel(level)
    assert [r.text for r in replies] == ["ok"] * 4
    assert any("unit (test-model): 4/4 (100%)" in m for m in collect.messages), collect.messages
