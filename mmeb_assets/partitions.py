"""Partitions: one per seed project of the active manifest; model x k for evaluation."""
from __future__ import annotations

from dagster import MultiPartitionsDefinition, StaticPartitionsDefinition

from mmeb_assets.manifests import load_manifest
from mmeb_resources.io_manager import register_seed_partitions

K_VALUES: tuple[str, ...] = ("10", "50", "100")


def seed_partitions() -> StaticPartitionsDefinition:
    return StaticPartitionsDefinition(load_manifest().ids)


seed_partitions_def = seed_partitions()
register_seed_partitions(seed_partitions_def)  # its outputs go under projects/<seed>/


def retriever_partitions() -> StaticPartitionsDefinition:
    """One partition per enabled retriever of config/retrievers.yaml (minilm; qwen3-vl-2b/-8b when
    their weights are present or MMEB_RETRIEVERS names them)."""
    from mmeb_resources.retrievers_config import load_retrievers

    return StaticPartitionsDefinition(load_retrievers().enabled_names())


retriever_partitions_def = retriever_partitions()


def eval_partitions() -> MultiPartitionsDefinition:
    """model x k, the models being the registry's enabled entries (config/models.yaml)."""
    from mmeb_resources.model_registry import enabled_model_names

    return MultiPartitionsDefinition({"model": StaticPartitionsDefinition(enabled_model_names()),
                                      "k": StaticPartitionsDefinition(list(K_VALUES))})


eval_partitions_def = eval_partitions()


def partition_values(value) -> list:
    """An input is one model, or (for a partitioned asset read by an unpartitioned check)
    {partition: model} of the run's partitions: always a list of models."""
    return list(value.values()) if isinstance(value, dict) else [value]


def partition_groups(*values) -> list[tuple]:
    """The inputs of one check, partition by partition. A per-seed check is not partitioned itself
    (Dagster's partitioned checks are a preview feature): in a seed's run each input is that seed's
    model, and a check run on its own gets {partition: model}; either way the check sees one tuple
    (first input, second input, ...) per seed that every input has."""
    spans = [v for v in values if isinstance(v, dict)]
    if not spans:
        return [values]
    keys = sorted(set(spans[0]).intersection(*spans[1:]))
    return [tuple(v[key] if isinstance(v, dict) else v for v in values) for key in keys]
