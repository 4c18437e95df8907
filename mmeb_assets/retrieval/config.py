"""config/retrievers.yaml: the retrievers (partitions of `retrievals`) and how to build each embedder."""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import BaseModel

REPO_ROOT = Path(__file__).resolve().parents[2]
RETRIEVERS_FILE = REPO_ROOT / "config" / "retrievers.yaml"


class RetrieversConfig(BaseModel):
    file: Path
    default: str
    retrievers: dict[str, dict]

    @property
    def names(self) -> list[str]:
        return list(self.retrievers)

    def spec(self, name: str) -> dict:
        if name not in self.retrievers:
            raise KeyError(f"retriever {name!r} is not in {self.file} (known: {', '.join(self.retrievers)})")
        return self.retrievers[name]


@lru_cache(maxsize=4)
def _load(path: str) -> RetrieversConfig:
    file = Path(path)
    if not file.exists():
        raise FileNotFoundError(f"retriever config missing: {file}")
    raw = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
    retrievers = raw.get("retrievers")
    if not isinstance(retrievers, dict) or not retrievers:
        raise ValueError(f"{file}: 'retrievers' must be a non-empty mapping of name -> settings")
    for name, spec in retrievers.items():
        if not isinstance(spec, dict) or spec.get("kind") not in ("minilm", "qwen3_vl"):
            raise ValueError(f"{file}: retriever {name!r} needs kind: minilm | qwen3_vl")
    default = raw.get("default") or next(iter(retrievers))
    if default not in retrievers:
        raise ValueError(f"{file}: default {default!r} is not one of the retrievers")
    return RetrieversConfig(file=file, default=default, retrievers=retrievers)


def load_retrievers() -> RetrieversConfig:
    """`MMEB_RETRIEVERS_CONFIG` (a path), else config/retrievers.yaml of the repository."""
    return _load(os.environ.get("MMEB_RETRIEVERS_CONFIG") or str(RETRIEVERS_FILE))
