"""Partitions: one per seed project of the active manifest; model x k for evaluation."""
from __future__ import annotations

from dagster import MultiPartitionsDefinition, StaticPartitionsDefinition

from mmeb_assets.manifests import load_manifest

K_VALUES: tuple[str, ...] = ("10", "50", "100")


def seed_partitions() -> StaticPartitionsDefinition:
    return StaticPartitionsDefinition(load_manifest().ids)


seed_partitions_def = seed_partitions()
