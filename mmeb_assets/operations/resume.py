"""Resume: which assets of one (phase, partition) run of `mmeb build` still need materializing.

A killed or failed build leaves some partitions finished and some not. Rerunning `mmeb build` should
only redo the unfinished ones, so before each run the build asks `plan_partition`. An asset
partition is up to date, and skipped, when all of these hold:

- Dagster's staleness says FRESH: it has a materialization, its code version is the current one,
  and the data versions of its inputs are those it was computed from (per-seed assets content-hash
  their data versions, see `versioning.py`, so an upstream rerun with identical content is no cause);
- the file the IO manager writes for it still exists under the current data home;
- no blocking check of it failed on that materialization.

A run killed between an asset and its checks leaves the gate unevaluated: the asset is not
recomputed, its unevaluated blocking checks run alone (a checks-only selection of the same run),
and a failure there stops the assets after it as it would have in the killed run.

An asset that runs takes all its descendants in the same run along, since their inputs may change.
Later phases are planned after earlier ones ran, so they see those new materializations. (This
module is part of the `operations` stage, whose code version `record_lineage` carries: editing it
marks that one asset stale.)
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from dagster import AssetCheckKey, AssetKey, DagsterInstance
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
    checks: list[AssetCheckKey] = field(default_factory=list)  # of skipped assets, evaluated alone

    @property
    def up_to_date(self) -> bool:
        return not self.run and not self.checks

    def describe(self) -> str:
        if self.up_to_date:
            return f"up to date, skipped ({len(self.skip)} assets)"
        why = "; ".join(f"{k.to_user_string()}: {self.reasons[k.to_user_string()]}" for k in self.run)
        pending = f"; checks never evaluated, run alone: {', '.join(c.name for c in self.checks)}" \
            if self.checks else ""
        return f"running {len(self.run)}, skipping {len(self.skip)} up to date ({why}{pending})"


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


def _check_state(instance: DagsterInstance, check_key, node, partition: str | None, record) -> str:
    """'passed', 'failed' or 'unevaluated' for one blocking check on the asset's latest materialization.

    An evaluation counts when it is in the materialization's run (how `mmeb build` runs checks), or
    came after it for this partition: a partitioned check carries the partition; an unpartitioned
    check of a partitioned asset is tied to it by its run's partition tag (a checks-only resume run)."""
    storage = instance.event_log_storage
    own = PartitionKeyFilter(key=partition) if partition is not None and node.partitions_def else None
    history = storage.get_asset_check_execution_history(check_key, limit=CHECK_HISTORY, partition_filter=own)
    # PLANNED: the run meant to evaluate it and did not (killed, or it is still going)
    history = [h for h in history if h.status != AssetCheckExecutionRecordStatus.PLANNED]
    latest = next((h for h in history if h.run_id == record.run_id), None)
    if latest is None:
        later = [h for h in history if h.event is not None and h.event.timestamp >= record.timestamp]
        latest = next((h for h in later if own is not None or _run_partition(instance, h.run_id) == partition),
                      None)
    if latest is None:
        return "unevaluated"
    return "passed" if latest.status == AssetCheckExecutionRecordStatus.SUCCEEDED else "failed"


def _run_partition(instance: DagsterInstance, run_id: str) -> str | None:
    run = instance.get_run_by_id(run_id)
    return run.tags.get("dagster/partition") if run is not None else None


def _blocking_checks(instance: DagsterInstance, asset_graph, key: AssetKey, partition: str | None, record
                     ) -> tuple[str, list[AssetCheckKey]]:
    """(why the asset must run again: a blocking check failed on its latest materialization, or one
    that only the asset can produce was never evaluated; '' if neither. And the blocking checks a
    killed run never got to evaluate, which can run alone)."""
    unevaluated = []
    for check_key in sorted(asset_graph.get(key).check_keys, key=lambda c: c.name):
        node = asset_graph.get(check_key)
        if not node.blocking:
            continue
        state = _check_state(instance, check_key, node, partition, record)
        if state == "failed":
            return f"blocking check {check_key.name} failed on its latest materialization", []
        if state == "unevaluated":
            if _computed_with_asset(asset_graph, key, check_key):  # a check spec: only the asset yields it
                return f"blocking check {check_key.name} never evaluated (it comes with the asset)", []
            unevaluated.append(check_key)
    return "", unevaluated


def _computed_with_asset(asset_graph, key: AssetKey, check_key: AssetCheckKey) -> bool:
    assets_def = getattr(asset_graph, "assets_def_for_key", lambda _: None)(key)
    return assets_def is not None and check_key in assets_def.check_keys


def assess(instance: DagsterInstance, asset_graph, resolver, key: AssetKey, partition: str | None
           ) -> tuple[str, list[AssetCheckKey]]:
    """(why the asset partition must run, '' when it need not; blocking checks to run on their own:
    the asset is stored and current, only its gate was never evaluated)."""
    status = resolver.get_status(key, partition)
    if status == StaleStatus.MISSING:
        return "never materialized", []
    if status == StaleStatus.STALE:
        causes = resolver.get_stale_causes(key, partition)
        return ("stale (" + ", ".join(sorted({c.reason for c in causes})[:3]) + ")" if causes else "stale"), []
    record = _latest_materialization(instance, key, partition)
    if record is None:
        return "never materialized", []
    missing = _missing_file(asset_graph, key, partition, record)
    if missing:
        return f"its file is gone: {missing}", []
    return _blocking_checks(instance, asset_graph, key, partition, record)


def plan_partition(instance: DagsterInstance, asset_graph, keys: list[AssetKey], partition: str | None
                   ) -> PartitionPlan:
    """Split `keys` (one run's selection, any order) into those to run, those up to date, and the
    blocking checks to evaluate on materializations a killed run left unchecked."""
    resolver = _resolver(instance, asset_graph)
    selected = set(keys)
    plan = PartitionPlan()
    running: set[AssetKey] = set()
    for key in _topological(asset_graph, keys):
        upstream = sorted(p.to_user_string() for p in asset_graph.get(key).parent_keys if p in running)
        reason, pending = (f"upstream {', '.join(upstream)} runs", []) if upstream else \
            assess(instance, asset_graph, resolver, key, partition)
        if reason:
            running.add(key)
            plan.reasons[key.to_user_string()] = reason
        plan.checks.extend(pending)
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
                log=print) -> tuple[list[AssetKey], list[AssetCheckKey]]:
    """The hook `mmeb build` calls before each run: the keys still to materialize and the blocking
    checks to evaluate alone (both empty: skip the run). `MMEB_BUILD_FORCE=1` (`mmeb build --force`)
    runs everything."""
    if os.environ.get("MMEB_BUILD_FORCE") == "1":
        return list(keys), []
    plan = plan_partition(instance, asset_graph, keys, partition)
    if plan.skip:
        log(f"  resume [{partition or '(unpartitioned)'}]: {plan.describe()}")
    return plan.run, plan.checks
