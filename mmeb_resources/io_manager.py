"""Stores each asset's pydantic output as JSON at a path that includes its partition key.

Per-seed assets land in `projects/<seed>/<asset>.json`; other single-dimension partitions (retrievers)
in `evaluation/<asset>/<key>/<asset>.json`; model x k assets in
`evaluation/<model>/k<k>/<asset>.json`; unpartitioned ones in `benchmark/<asset>.json`.
"""
from __future__ import annotations

import importlib
import json
import re
from pathlib import Path
from typing import Any

from dagster import ConfigurableIOManager, InputContext, MultiPartitionKey, MultiPartitionsDefinition, OutputContext
from pydantic import BaseModel, ValidationError, create_model

from mmeb_resources.storage import atomic_write_text, default_home


def _partition_folder(root: Path, key: str | MultiPartitionKey | None, asset_name: str = "",
                      per_seed: bool = True) -> Path:
    if key is None:
        return root / "benchmark"
    if not per_seed and not isinstance(key, MultiPartitionKey) and "|" not in str(key):
        return root / "evaluation" / asset_name / str(key)
    if not isinstance(key, MultiPartitionKey) and "|" in str(key):
        raise ValueError(f"multi-partition key {key!r} given as a plain string")
    if isinstance(key, MultiPartitionKey):
        dims = key.keys_by_dimension
        if set(dims) == {"model", "k"}:
            return root / "evaluation" / dims["model"] / f"k{dims['k']}"
        return root / "evaluation" / "_".join(f"{d}={v}" for d, v in sorted(dims.items()))
    return root / "projects" / str(key)


_MODEL_HEAD = re.compile(r'\A\{\s*"model":\s*"([\w.]+)",\s*"data":')
_ENVELOPES: dict[type, type] = {}


def _model_class(name: str) -> type:
    module_name, _, class_name = name.rpartition(".")
    return getattr(importlib.import_module(module_name), class_name)


def _envelope_of(model_cls: type) -> type:
    """A pydantic model of the whole file (`model`, `data`), made once per class."""
    if model_cls not in _ENVELOPES:
        _ENVELOPES[model_cls] = create_model(f"{model_cls.__name__}Envelope", model=(str, ...), data=(model_cls, ...))
    return _ENVELOPES[model_cls]


def _load(path: Path) -> Any:
    """The stored model. The file is parsed and validated by pydantic's own JSON parser in one pass
    (json.loads then model_validate built every object twice: py-spy put 50 of the QA-only rebuild's
    CPU seconds in these loads; this takes about half the time on the corpus and answer files); a
    file whose head is not the envelope this manager writes takes the two-step path."""
    if not path.exists():
        raise FileNotFoundError(f"upstream output missing: {path} (materialize it first)")
    text = path.read_text(encoding="utf-8")
    head = _MODEL_HEAD.match(text[:400])
    if head is not None:
        model_cls = _model_class(head.group(1))
        try:
            return _envelope_of(model_cls).model_validate_json(text).data
        except ValidationError:
            pass  # the two-step path below says what is wrong, as it did before
    envelope = json.loads(text)
    return _model_class(envelope["model"]).model_validate(envelope["data"])


def envelope_text(obj: BaseModel) -> str:
    """The stored file format ({"model": class path, "data": ...}), which `_load` reads back; one writer,
    so files written outside an asset run (a kept `mmeb score`) read like the assets' own."""
    envelope = {"model": f"{type(obj).__module__}.{type(obj).__qualname__}", "data": obj.model_dump(mode="json")}
    return json.dumps(envelope, ensure_ascii=False, indent=1) + "\n"


_SEED_PARTITIONINGS: list = []  # registered by mmeb_assets.partitions (mmeb_resources imports no mmeb_assets)


def register_seed_partitions(partitions_def) -> None:
    """Name the partitioning whose keys are seed projects (files under `projects/<seed>/`); the
    project's partitions module registers its own when it is imported."""
    if not any(partitions_def == known for known in _SEED_PARTITIONINGS):
        _SEED_PARTITIONINGS.append(partitions_def)


def _is_seed_partitioned(partitions_def) -> bool:
    if partitions_def is None:
        return True
    return any(partitions_def == known for known in _SEED_PARTITIONINGS)


def _partitions_def(context):
    """The asset's partitions definition; None for hand-built contexts that name only a key."""
    try:
        return context.asset_partitions_def
    except Exception:  # noqa: BLE001 - build_output_context() without an asset definition
        return None


def _as_key(partitions_def, key):
    """Plain 'a|b' strings of a multi-partitioned asset back to MultiPartitionKey."""
    if isinstance(partitions_def, MultiPartitionsDefinition) and not isinstance(key, MultiPartitionKey):
        return partitions_def.get_partition_key_from_str(str(key))
    return key


LEFT_OUT_TAG = "mmeb/left_out"


def _left_out_by_run(context: InputContext) -> set[str]:
    try:
        tags = context.step_context.dagster_run.tags
    except Exception:  # noqa: BLE001 - hand-built contexts have no run
        return set()
    return {key for key in (tags.get(LEFT_OUT_TAG) or "").split(",") if key}


class PydanticJsonIOManager(ConfigurableIOManager):
    """Atomic JSON files; loads a dict partition->object when an input spans partitions."""

    home: str = ""

    @property
    def root(self) -> Path:
        return Path(self.home).resolve() if self.home else default_home()

    def _path(self, asset_name: str, key: str | MultiPartitionKey | None, partitions_def=None) -> Path:
        return _partition_folder(self.root, key, asset_name, _is_seed_partitioned(partitions_def)) / f"{asset_name}.json"

    def handle_output(self, context: OutputContext, obj: Any) -> None:
        if obj is None:
            return
        if not isinstance(obj, BaseModel):
            raise TypeError(f"{context.asset_key.to_user_string()} must return a pydantic model, got {type(obj)}")
        key = context.partition_key if context.has_asset_partitions else None
        pdef = _partitions_def(context) if key else None
        path = self._path(context.asset_key.path[-1], _as_key(pdef, key) if key else None, pdef)
        atomic_write_text(path, envelope_text(obj))
        context.add_output_metadata({"path": str(path)})

    def load_input(self, context: InputContext) -> Any:
        name = context.upstream_output.asset_key.path[-1] if context.upstream_output else context.asset_key.path[-1]
        if not context.has_asset_partitions:
            return _load(self._path(name, None))
        keys = context.asset_partition_keys
        pdef = _partitions_def(context)
        own_key = context.partition_key if context.has_partition_key else None
        if own_key is not None and own_key in keys:
            # Same partitioning: the step (an asset, or a check in this partition's run) reads its own part.
            return _load(self._path(name, _as_key(pdef, own_key), pdef))
        return self._load_many(context, name, [_as_key(pdef, k) for k in keys], pdef)

    def _load_many(self, context: InputContext, name: str, keys, pdef) -> dict[str, Any]:
        """Aggregates read what exists: a failed seed is left out (and logged), not fatal. So is a
        partition the build names in the run's `mmeb/left_out` tag (it failed in this build: its
        file may be stale, or written before a blocking check failed)."""
        loaded, missing = {}, []
        excluded = _left_out_by_run(context)
        for key in keys:
            path = self._path(name, key, pdef)
            if str(key) not in excluded and path.exists():
                loaded[str(key)] = _load(path)
            else:
                missing.append(str(key))
        if missing:
            context.log.warning(f"{name}: {len(missing)} partition(s) not materialized, left out: {missing}")
            try:  # on the LOADED_INPUT event (and an observation of the upstream), visible in the UI
                context.add_input_metadata({"partitions_loaded": len(loaded), "partitions_left_out": ", ".join(missing)},
                                           description=f"{len(missing)} partition(s) not materialized, left out")
            except Exception:  # noqa: BLE001 - hand-built contexts without an asset key
                pass
        if not loaded:
            raise FileNotFoundError(f"{name}: no partition materialized under {self.root} (missing {missing})")
        return loaded
