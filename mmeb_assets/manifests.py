"""Seed manifests: which seed documents the partitions are made of.

A manifest is YAML with a top-level `seeds:` list; each entry has `id`, `title`, `path` (relative to
the manifest file), `domain` and `license`. The active manifest is `MMEB_MANIFEST` (a path or the
name of a shipped manifest, `demo` or `paper`), default `demo`.
"""
from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import BaseModel, Field, ValidationError, field_validator

MANIFEST_DIR = Path(__file__).resolve().parents[1] / "manifests"
SEED_ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")


class ManifestError(ValueError):
    """A manifest that cannot be used; the message names the file and the field."""


class SeedEntry(BaseModel):
    id: str
    title: str
    path: str
    domain: str
    license: str
    archetype: str | None = Field(default=None, description="optional override: research_lab | analysis_firm")
    generator: str | None = Field(default=None, description="'demo': the project writes this PDF itself if missing")
    records_in_paper: int | None = None

    @field_validator("id")
    @classmethod
    def _valid_id(cls, value: str) -> str:
        if not SEED_ID_PATTERN.match(value):
            raise ValueError(f"seed id {value!r} must be lower-case letters, digits, '-' or '_'")
        return value


class Manifest(BaseModel):
    name: str
    file: Path
    seeds: list[SeedEntry]

    def seed(self, seed_id: str) -> SeedEntry:
        for entry in self.seeds:
            if entry.id == seed_id:
                return entry
        raise KeyError(f"seed {seed_id!r} is not in manifest {self.file}")

    def pdf_path(self, seed_id: str) -> Path:
        return (self.file.parent / self.seed(seed_id).path).resolve()

    @property
    def ids(self) -> list[str]:
        return [s.id for s in self.seeds]


def resolve_manifest_path(name_or_path: str | os.PathLike | None = None) -> Path:
    value = str(name_or_path or os.environ.get("MMEB_MANIFEST") or "demo")
    shipped = MANIFEST_DIR / f"{value}.yaml"
    if shipped.exists():
        return shipped
    path = Path(value).expanduser().resolve()
    if not path.exists():
        raise ManifestError(f"manifest not found: {path} (MMEB_MANIFEST or --manifest; shipped: demo, paper)")
    return path


def load_manifest(name_or_path: str | os.PathLike | None = None) -> Manifest:
    path = resolve_manifest_path(name_or_path)
    return _load_cached(path, path.stat().st_mtime)


@lru_cache(maxsize=16)
def _load_cached(path: Path, _mtime: float) -> Manifest:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise ManifestError(f"{path}: not valid YAML: {exc}") from exc
    if not isinstance(raw, dict) or not isinstance(raw.get("seeds"), list):
        raise ManifestError(f"{path}: expected a top-level 'seeds:' list")
    seeds = []
    for index, entry in enumerate(raw["seeds"]):
        try:
            seeds.append(SeedEntry.model_validate(entry))
        except ValidationError as exc:
            fields = ", ".join(".".join(str(p) for p in err["loc"]) + f": {err['msg']}" for err in exc.errors())
            raise ManifestError(f"{path}: seeds[{index}] invalid ({fields})") from exc
    duplicates = {s.id for s in seeds if [t.id for t in seeds].count(s.id) > 1}
    if duplicates:
        raise ManifestError(f"{path}: duplicate seed ids {sorted(duplicates)}")
    return Manifest(name=raw.get("name", path.stem), file=path, seeds=seeds)
