"""Data versions from content hashes, so staleness follows what actually changed.

An asset that returns `versioned(value, metadata)` (annotated `-> dg.MaterializeResult[Model]`) gets a data
version equal to the hash of its content minus provenance-free noise: regenerating one project's
records with another seed changes that partition's version, and Dagster marks exactly its
downstream partitions stale.
"""
from __future__ import annotations

from typing import Any, TypeVar

import dagster as dg
from pydantic import BaseModel

from mmeb_assets.provenance import content_hash

ModelT = TypeVar("ModelT", bound=BaseModel)

# An external source (a plain AssetSpec, such as the annotators' judgments) changes outside any run;
# its data version is reported as a runless materialization carrying this tag (the tag Dagster's own
# report-materialization endpoint sets), by a sensor tagged SOURCE_SENSOR_TAG that `mmeb build` also
# runs once before it plans (build/observe.py).
DATA_VERSION_TAG = "dagster/data_version"
SOURCE_SENSOR_TAG = "mmeb/source_version"


def versioned(value: ModelT, metadata: dict[str, Any] | None = None) -> dg.MaterializeResult[ModelT]:
    """The value (stored by the IO manager) with its content hash as data version. A MaterializeResult
    rather than an Output: `Output(data_version=...)` is a beta parameter of Dagster's, and the same
    field of MaterializeResult is stable."""
    version = content_hash(value, length=24)
    meta = dict(metadata or {})
    meta.setdefault("content_hash", version)
    return dg.MaterializeResult(value=value, data_version=dg.DataVersion(version), metadata=meta)
