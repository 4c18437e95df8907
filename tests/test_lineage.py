"""Staleness and lineage on a copy of the materialized demo instance: regenerating one project's
week (another random seed for one partition) changes that partition's data versions and marks
exactly its downstream stale; the other projects stay fresh."""
from __future__ import annotations

import shutil

import dagster as dg
import pytest
from dagster._core.definitions.data_version import CachingStaleStatusResolver, StaleStatus
from dagster._core.loader import LoadingContextForTest

from mmeb_assets.build import load_definitions
from mmeb_assets.manifests import load_manifest

pytestmark = pytest.mark.slow
SEEDS = load_manifest("demo").ids
DOWNSTREAM_OF_RECORDS = ("qa_items", "qa_validated", "lance_index", "workspace_stats")


def _data_version(instance, asset: str, partition: str) -> str | None:
    records = instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=dg.AssetKey(asset), asset_partitions=[partition]), limit=1).records
    return records[0].asset_materialization.tags.get("dagster/data_version") if records else None


@pytest.fixture()
def copied_home(demo_home, tmp_path, monkeypatch):
    home = tmp_path / "home"
    shutil.copytree(demo_home, home)
    monkeypatch.setenv("MMEB_HOME", str(home))
    monkeypatch.setenv("DAGSTER_HOME", str(home / "dagster"))
    return home


def test_regenerating_one_project_marks_only_its_downstream_stale(copied_home):
    target, others = SEEDS[0], SEEDS[1:]
    definitions = load_definitions()
    graph = definitions.resolve_asset_graph()
    with dg.DagsterInstance.get() as instance:
        before = {(a, s): _data_version(instance, a, s) for a in ("records",) + DOWNSTREAM_OF_RECORDS for s in SEEDS}
        job = definitions.resolve_implicit_global_asset_job_def()
        result = job.execute_in_process(
            instance=instance, partition_key=target,
            asset_selection=[dg.AssetKey("event_plan"), dg.AssetKey("records")],
            run_config={"ops": {"event_plan": {"config": {"random_seed": 424242}}}})
        assert result.success
        assert _data_version(instance, "records", target) != before[("records", target)]
        resolver = CachingStaleStatusResolver(instance, graph, LoadingContextForTest(instance))
        for asset in DOWNSTREAM_OF_RECORDS:
            assert resolver.get_status(dg.AssetKey(asset), target) == StaleStatus.STALE, asset
            for other in others:
                assert resolver.get_status(dg.AssetKey(asset), other) == StaleStatus.FRESH, (asset, other)

        result = job.execute_in_process(instance=instance, partition_key=target,
                                        asset_selection=[dg.AssetKey(a) for a in DOWNSTREAM_OF_RECORDS])
        assert result.success
        after = {(a, s): _data_version(instance, a, s) for a in DOWNSTREAM_OF_RECORDS for s in SEEDS}
    for asset in DOWNSTREAM_OF_RECORDS:
        assert after[(asset, target)] != before[(asset, target)], asset
        for other in others:
            assert after[(asset, other)] == before[(asset, other)], (asset, other)
