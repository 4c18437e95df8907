"""Hashes and code versions that make every artifact traceable and every rerun selective."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from mmeb_assets.schema.common import Provenance

PACKAGE_ROOT = Path(__file__).resolve().parent


def content_hash(payload: Any, length: int = 16) -> str:
    """Stable hash of bytes, text, a pydantic model, or JSON-able data."""
    if isinstance(payload, BaseModel):
        payload = payload.model_dump(mode="json")
    if isinstance(payload, bytes):
        data = payload
    elif isinstance(payload, str):
        data = payload.encode("utf-8")
    else:
        data = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:length]


def file_hash(path: Path, length: int = 64) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()[:length]


def code_version(*modules: str) -> str:
    """Hash of the source files of the named stage packages/modules (relative to mmeb_assets).

    Used as the Dagster asset code_version, so changing a stage's code marks it stale.
    """
    digest = hashlib.sha256()
    for name in modules:
        target = PACKAGE_ROOT / name
        files = sorted(target.rglob("*.py")) if target.is_dir() else [target.with_suffix(".py")]
        for file in files:
            digest.update(file.relative_to(PACKAGE_ROOT).as_posix().encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()[:12]


def make_provenance(seed_id: str, stage: str, generator: str, *, model: str = "", prompt_hash: str = "",
                    code: str = "", random_seed: int | None = None, inputs: Any = None,
                    fallbacks: list[str] | None = None, repairs: list[str] | None = None) -> Provenance:
    return Provenance(
        seed_id=seed_id, stage=stage, generator=generator, model=model, prompt_hash=prompt_hash,
        code_version=code, random_seed=random_seed,
        inputs_hash=content_hash(inputs) if inputs is not None else "", fallbacks=list(fallbacks or []),
        repairs=list(repairs or []),
    )
