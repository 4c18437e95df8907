"""Materialize the whole graph in process, partition by partition, on the persistent instance.

The graph mixes partitionings (per seed, per retriever, per model x k, unpartitioned), and one run
can only target one partition key, so the assets are grouped into phases: a topological order that
keeps assets of the same partitioning together. Each (phase, partition) is one Dagster run, visible
in the UI. A failing seed fails its own runs; later phases still run over what was built.
"""
from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field

import dagster as dg
from dagster import AssetKey, DagsterInstance, PartitionsDefinition


@dataclass
class RunOutcome:
    phase: int
    assets: list[str]
    partition: str | None
    ok: bool
    seconds: float
    error: str = ""


@dataclass
class BuildReport:
    outcomes: list[RunOutcome] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(o.ok for o in self.outcomes)

    @property
    def failed(self) -> list[RunOutcome]:
        return [o for o in self.outcomes if not o.ok]

    def summary(self) -> str:
        lines = [f"{len(self.outcomes)} runs, {len(self.failed)} failed"]
        for o in self.failed:
            lines.append(f"  FAILED phase {o.phase} [{o.partition or '-'}] {', '.join(o.assets)}: {o.error}")
        return "\n".join(lines)


def load_definitions() -> dg.Definitions:
    from mmeb_assets.definitions import defs

    return defs() if callable(defs) else defs


def _partitions_id(partitions_def: PartitionsDefinition | None) -> str:
    return "none" if partitions_def is None else repr(partitions_def)


def plan_phases(asset_graph) -> list[tuple[PartitionsDefinition | None, list[AssetKey]]]:
    """Kahn's algorithm that prefers, among ready assets, the partitioning of the current phase."""
    keys = [k for k in asset_graph.materializable_asset_keys]
    parents = {k: {p for p in asset_graph.get(k).parent_keys if p in keys} for k in keys}
    done: set[AssetKey] = set()
    phases: list[tuple[PartitionsDefinition | None, list[AssetKey]]] = []
    while len(done) < len(keys):
        ready = sorted((k for k in keys if k not in done and parents[k] <= done), key=lambda k: k.to_user_string())
        current = _partitions_id(phases[-1][0]) if phases else None
        same = [k for k in ready if _partitions_id(asset_graph.get(k).partitions_def) == current]
        if same:
            phases[-1][1].extend(same)
            done.update(same)
            continue
        first = ready[0]
        pdef = asset_graph.get(first).partitions_def
        group = [k for k in ready if _partitions_id(asset_graph.get(k).partitions_def) == _partitions_id(pdef)]
        phases.append((pdef, group))
        done.update(group)
    return phases


def _partition_keys(pdef: PartitionsDefinition | None, only: list[str] | None, instance) -> list[str | None]:
    if pdef is None:
        return [None]
    keys = list(pdef.get_partition_keys(dynamic_partitions_store=instance))
    from mmeb_assets.partitions import seed_partitions_def

    if only and _partitions_id(pdef) == _partitions_id(seed_partitions_def):
        unknown = set(only) - set(keys)
        if unknown:
            raise ValueError(f"unknown seed partition(s) {sorted(unknown)}; manifest has {keys}")
        keys = [k for k in keys if k in only]
    return keys


def build_all(partitions: list[str] | None = None, selection: list[str] | None = None,
              instance: DagsterInstance | None = None, log=print) -> BuildReport:
    definitions = load_definitions()
    instance = instance or DagsterInstance.get()
    job = definitions.resolve_implicit_global_asset_job_def()
    report = BuildReport()
    for index, (pdef, keys) in enumerate(plan_phases(definitions.resolve_asset_graph()), start=1):
        if selection:
            keys = [k for k in keys if k.path[-1] in selection]
        if not keys:
            continue
        names = [k.to_user_string() for k in keys]
        for partition in _partition_keys(pdef, partitions, instance):
            report.outcomes.append(_run_one(job, instance, index, keys, names, partition, log))
    return report


def _run_one(job, instance, phase, keys, names, partition, log) -> RunOutcome:
    started = time.monotonic()
    log(f"[phase {phase}] {partition or '(unpartitioned)'}: {', '.join(names)} ...")
    try:
        result = job.execute_in_process(instance=instance, partition_key=partition, asset_selection=keys,
                                        raise_on_error=False, tags={"mmeb/launched_by": "mmeb build"})
        ok = result.success
        error = "" if ok else _first_failure(result)
    except Exception as exc:  # a definition-level error for this partition: report, go on
        ok, error = False, f"{type(exc).__name__}: {exc}"
        traceback.print_exc()
    seconds = time.monotonic() - started
    log(f"[phase {phase}] {partition or '(unpartitioned)'}: {'ok' if ok else 'FAILED'} in {seconds:.1f}s")
    return RunOutcome(phase, names, partition, ok, seconds, error)


def _first_failure(result) -> str:
    for event in result.all_events:
        if event.is_step_failure and event.step_failure_data and event.step_failure_data.error:
            err = event.step_failure_data.error
            cause = err.cause or err
            return f"{event.step_key}: {cause.message.strip().splitlines()[-1] if cause.message else ''}"
    return "run failed"
