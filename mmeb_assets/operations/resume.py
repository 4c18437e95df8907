"""Resume: which assets of one (phase, partition) run of `mmeb build` still need materializing.

A killed or failed build leaves some partitions finished and some not. Rerunning `mmeb build` should
only redo the unfinished ones, so before each run the build asks `plan_partition`. An asset
partition is up to date, and skipped, when all of these hold:

- Dagster's staleness says FRESH: it has a materialization, its code version is the current one,
  and the data versions of its inputs are those it was computed from (per-seed assets content-hash
  their data versions, see `versioning.py`, so an upstream rerun with identical content is no cause);
- the file the IO manager writes for it still exists under the current data home;
- every blocking check of it passed on that materialization (a run killed between an asset and its
  checks left the gate unevaluated, so the asset runs again and its checks with it).

An asset that runs takes all its descendants in the same run along, since their inputs may change.
Later phases are planned after earlier ones ran, so they see those new materializations. (This
module is part of the `operations` stage, whose code version `record_lineage` carries: editing it
marks that one asset stale.)
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from dagster import AssetKey, DagsterInstance
from dagster._core.definitions.data_version import CachingStaleStatusResolver, StaleStatus
from dagster._core.event_api import AssetRecordsFilter, PartitionKeyFilter
from dagster._core.storage.asset_check_execution_record import AssetCheckExecutionRecordStatus

__all__ = ["PartitionPlan", "keys_to_run", "plan_partition"]

CHECK_HISTORY = 500  # evaluations looked through per check to find the materialization's run


@dataclass
class PartitionPlan:
    """The keys of one run to materialize (with why) and those left alone because they are up to date."""

    run: list[AssetKey] = field(default_factory=list)
    skip: list[AssetKey] = field(default_factory=list)
    reasons: dict[str, str] = field(default_factory=dict)

    @property
    def up_to_date(self) -> bool:
        return not self.run

    def describe(self) -> str:
        if not self.run:
            return f"up to date, skipped ({len(self.skip)} assets)"
        why = "; ".join(f"{k.to_user_string()}: {self.reasons[k.to_user_string()]}" for k in self.run)
        return f"running {len(self.run)}, skipping {len(self.skip)} up to date ({why})"


def _resolver(instance: DagsterInstance, asset_graph) -> CachingStaleStatusResolver:
    from dagster._core.asset_graph_view.asset_graph_view import AssetGraphView, TemporalContext
    from dagster._time import get_current_datetime

    view = AssetGraphView(temporal_context=TemporalContext(effective_dt=get_current_datetime(), last_event_id=None),
                          instance=instance, asset_graph=asset_graph)
    return CachingStaleStatusResolver(instance=instance, asset_graph=asset_graph, loading_context=view)


def _latest_materialization(instance: DagsterInstance, key: AssetKey, partition: str | None):
    records = instance.fetch_materializations(
        AssetRecordsFilter(asset_key=key, asset_partitions=[partition] if partition is not None else None), limit=1)
    return records.records[0] if records.records else None


def _missing_file(asset_graph, key: AssetKey, partition: str | None, record) -> str:
    """The IO manager's file for this asset partition under the current data home, when it is absent.

    Computed from the IO manager rather than read from the materialization's `path` metadata, so a
    data home copied or moved elsewhere is judged by its own files."""
    from mmeb_resources.io_manager import PydanticJsonIOManager, _as_key

    materialization = record.asset_materialization
    if materialization is None or "path" not in materialization.metadata:
        return ""  # not stored by the IO manager (an asset that returns nothing)
    pdef = asset_graph.get(key).partitions_def
    path = PydanticJsonIOManager()._path(key.path[-1], _as_key(pdef, partition) if partition else None, pdef)
    return "" if path.exists() else str(path)


def _unpassed_check(instance: DagsterInstance, asset_graph, key: AssetKey, partition: str | None, record) -> str:
    """The first blocking check of `key` that has not passed on its latest materialization: in the
    same run (how `mmeb build` runs checks), or for a partitioned check, evaluated on this partition
    after it. Unpartitioned checks of partitioned assets are stored without a partition, so the run
    id is what ties an evaluation to this partition's materialization."""
    storage = instance.event_log_storage
    for check_key in sorted(asset_graph.get(key).check_keys, key=lambda c: c.name):
        node = asset_graph.get(check_key)
        if not node.blocking:
            continue
        own = PartitionKeyFilter(key=partition) if partition is not None and node.partitions_def else None
        history = storage.get_asset_check_execution_history(check_key, limit=CHECK_HISTORY, partition_filter=own)
        same_run = [h for h in history if h.run_id == record.run_id]
        later = [h for h in history if own is not None and h.event is not None and h.event.timestamp >= record.timestamp]
        latest = (same_run or later or [None])[0]
        if latest is None or latest.status != AssetCheckExecutionRecordStatus.SUCCEEDED:
            return check_key.name
    return ""


def why_outdated(instance: DagsterInstance, asset_graph, resolver, key: AssetKey, partition: str | None) -> str:
    """'' when the asset partition is up to date, else the reason it must run."""
    status = resolver.get_status(key, partition)
    if status == StaleStatus.MISSING:
        return "never materialized"
    if status == StaleStatus.STALE:
        causes = resolver.get_stale_causes(key, partition)
        return "stale (" + ", ".join(sorted({c.reason for c in causes})[:3]) + ")" if causes else "stale"
    record = _latest_materialization(instance, key, partition)
    if record is None:
        return "never materialized"
    missing = _missing_file(asset_graph, key, partition, record)
    if missing:
        return f"its file is gone: {missing}"
    check = _unpassed_check(instance, asset_graph, key, partition, record)
    return f"blocking check {check} has not passed since it was materialized" if check else ""


def plan_partition(instance: DagsterInstance, asset_graph, keys: list[AssetKey], partition: str | None
                   ) -> PartitionPlan:
    """Split `keys` (one run's selection, any order) into those to run and those up to date."""
    resolver = _resolver(instance, asset_graph)
    selected = set(keys)
    plan = PartitionPlan()
    running: set[AssetKey] = set()
    for key in _topological(asset_graph, keys):
        upstream = sorted(p.to_user_string() for p in asset_graph.get(key).parent_keys if p in running)
        reason = f"upstream {', '.join(upstream)} runs" if upstream else \
            why_outdated(instance, asset_graph, resolver, key, partition)
        if reason:
            running.add(key)
            plan.reasons[key.to_user_string()] = reason
    plan.run = [k for k in keys if k in running]
    plan.skip = [k for k in keys if k in selected - running]
    return plan


def _topological(asset_graph, keys: list[AssetKey]) -> list[AssetKey]:
    pending, order, done = list(keys), [], set()
    members = set(keys)
    while pending:
        ready = [k for k in pending if not ({p for p in asset_graph.get(k).parent_keys if p in members} - done)]
        if not ready:
            raise ValueError(f"cycle among {sorted(k.to_user_string() for k in pending)}")
        for key in ready:
            order.append(key)
            done.add(key)
            pending.remove(key)
    return order


def keys_to_run(instance: DagsterInstance, asset_graph, keys: list[AssetKey], partition: str | None,
                log=print) -> list[AssetKey]:
    """The hook `mmeb build` calls before each run: the keys still to materialize ([] = skip the run).
    `MMEB_BUILD_FORCE=1` (`mmeb build --force`) runs everything."""
    if os.environ.get("MMEB_BUILD_FORCE") == "1":
        return list(keys)
    plan = plan_partition(instance, asset_graph, keys, partition)
    if plan.skip:
        log(f"  resume [{partition or '(unpartitioned)'}]: {plan.describe()}")
    return plan.run
