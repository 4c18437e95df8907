"""Which runs a build is made of: phases of assets that share a partitioning, and their partitions.

The graph mixes partitionings (per seed, per retriever, per model x k, unpartitioned), and one run
can only target one partition key, so the assets are grouped into phases: a topological order that
keeps assets of the same partitioning together. Each (phase, partition) is one Dagster run. Runs of
one phase are independent, so they may run at once; a phase starts when the one before it ended.
"""
from __future__ import annotations

from dataclasses import dataclass

import dagster as dg
from dagster import AssetKey, MultiPartitionsDefinition, PartitionsDefinition


def load_definitions() -> dg.Definitions:
    from mmeb_assets.definitions import defs

    return defs() if callable(defs) else defs


def partitions_id(partitions_def: PartitionsDefinition | None) -> str:
    return "none" if partitions_def is None else repr(partitions_def)


def plan_phases(asset_graph) -> list[tuple[PartitionsDefinition | None, list[AssetKey]]]:
    """Kahn's algorithm that prefers, among ready assets, the partitioning of the current phase."""
    keys = list(asset_graph.materializable_asset_keys)
    parents = {k: {p for p in asset_graph.get(k).parent_keys if p in keys} for k in keys}
    done: set[AssetKey] = set()
    phases: list[tuple[PartitionsDefinition | None, list[AssetKey]]] = []
    while len(done) < len(keys):
        ready = sorted((k for k in keys if k not in done and parents[k] <= done), key=lambda k: k.to_user_string())
        current = partitions_id(phases[-1][0]) if phases else None
        same = [k for k in ready if partitions_id(asset_graph.get(k).partitions_def) == current]
        if same:
            phases[-1][1].extend(same)
            done.update(same)
            continue
        pdef = asset_graph.get(ready[0]).partitions_def
        group = [k for k in ready if partitions_id(asset_graph.get(k).partitions_def) == partitions_id(pdef)]
        phases.append((pdef, group))
        done.update(group)
    return phases


def is_seed_partitioning(pdef: PartitionsDefinition | None) -> bool:
    from mmeb_assets.partitions import seed_partitions_def

    return pdef is not None and partitions_id(pdef) == partitions_id(seed_partitions_def)


def partition_keys(pdef: PartitionsDefinition | None, only: list[str] | None, instance) -> list[str | None]:
    """Every key of the phase's partitioning; `only` narrows the seed partitions (unknown ids fail)."""
    if pdef is None:
        return [None]
    keys = list(pdef.get_partition_keys(dynamic_partitions_store=instance))
    if only and is_seed_partitioning(pdef):
        unknown = set(only) - set(keys)
        if unknown:
            raise ValueError(f"unknown seed partition(s) {sorted(unknown)}; manifest has {keys}")
        keys = [k for k in keys if k in only]
    return keys


@dataclass(frozen=True)
class RunTask:
    """Runs one worker executes in order: one per partition of `partitions`, the same assets each.

    A chain shares a process, so a model loaded by its first run (SmolLM2 at k=10) and the response
    cache it filled serve the next (k=50, k=100)."""

    phase: int
    assets: tuple[str, ...]
    partitions: tuple[str | None, ...]
    force: bool = False
    threads: int = 0  # torch threads of its runs; 0: the worker's default (cores // workers)
    left_out: tuple[str, ...] = ()  # partitions that failed earlier in the build: aggregates skip them


def chain_partitions(pdef: PartitionsDefinition | None, keys: list[str | None]) -> list[list[str | None]]:
    """Model x k cells of one model form one chain (first appearance order), model chains first; a
    diagnostic reader's cells and other keys run alone.

    A reader loads no model, so chaining its cells shares nothing and only unbalances the workers:
    3 readers x 3 k as 3 chains on 2 workers took 14 s, one worker running two chains."""
    if not isinstance(pdef, MultiPartitionsDefinition) or "model" not in pdef.partition_dimension_names:
        return [[key] for key in keys]
    names = pdef.partition_dimension_names
    chains: dict[str, list[str | None]] = {}
    alone: list[list[str | None]] = []
    for key in keys:
        model = str(key).split("|")[names.index("model")]
        if _is_reader(model):
            alone.append([key])
        else:
            chains.setdefault(model, []).append(key)
    return [*chains.values(), *alone]


def _is_reader(model: str) -> bool:
    try:
        from mmeb_resources.model_registry import load_registry

        return load_registry().get(model).backend == "reader"
    except Exception:  # noqa: BLE001 - unknown or unloadable registry: treat it as a model
        return False


def thread_budget(pdef, chains: list[list[str | None]], cores: int, workers: int) -> list[int]:
    """Torch threads per chain: the cores shared by the chains that run at once. A phase of one run
    (an aggregate, the retrievals) gets every core; in the model x k phase the diagnostic readers
    use no torch, so the model chains share the cores between them."""
    if not chains:
        return []
    if len(chains) == 1 and len(chains[0]) == 1:
        return [cores]
    if isinstance(pdef, MultiPartitionsDefinition) and "model" in pdef.partition_dimension_names:
        index = pdef.partition_dimension_names.index("model")
        readers = [_is_reader(str(chain[0]).split("|")[index]) for chain in chains]
        heavy = max(1, min(workers, readers.count(False)))
        return [1 if reader else max(1, cores // heavy) for reader in readers]
    return [max(1, cores // min(workers, len(chains)))] * len(chains)


def plan_tasks(definitions: dg.Definitions, partitions: list[str] | None, selection: list[str] | None,
               instance, force: bool = False, cores: int = 1, workers: int = 1) -> list[list[RunTask]]:
    """Phases as lists of tasks; empty phases (everything deselected, or no partition) are left out."""
    planned = []
    for index, (pdef, keys) in enumerate(plan_phases(definitions.resolve_asset_graph()), start=1):
        if selection:
            keys = [k for k in keys if k.path[-1] in selection]
        if not keys:
            continue
        names = tuple(k.to_user_string() for k in keys)
        chains = chain_partitions(pdef, partition_keys(pdef, partitions, instance))
        if not chains:  # a partitioning without keys (a manifest without a partition): nothing to run
            continue
        budget = thread_budget(pdef, chains, cores, workers)
        planned.append([RunTask(index, names, tuple(chain), force, threads)
                        for chain, threads in zip(chains, budget)])
    return planned
