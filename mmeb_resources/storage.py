"""The data home: one folder per seed project, written atomically."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable

from dagster import ConfigurableResource
from pydantic import BaseModel

from mmeb_resources.faults import crash_point

REPO_ROOT = Path(__file__).resolve().parents[1]


def default_home() -> Path:
    """`MMEB_HOME`, else `data/` in the repository's working folder (git-ignored)."""
    return Path(os.environ.get("MMEB_HOME") or REPO_ROOT / "data").resolve()


def atomic_write_bytes(path: Path, data: bytes) -> Path:
    """Write to a temp file in the same folder, then rename: readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        crash_point(f"write:{path.name}")  # tests: killed with the temp file written, before the rename
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def atomic_write_text(path: Path, text: str) -> Path:
    return atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: Path, payload: Any) -> Path:
    if isinstance(payload, BaseModel):
        text = payload.model_dump_json(indent=1)
    else:
        text = json.dumps(payload, indent=1, ensure_ascii=False, sort_keys=False, default=str)
    return atomic_write_text(path, text + "\n")


def atomic_write_jsonl(path: Path, rows: Iterable[BaseModel | dict]) -> Path:
    lines = [r.model_dump_json() if isinstance(r, BaseModel) else json.dumps(r, ensure_ascii=False, default=str)
             for r in rows]
    return atomic_write_text(path, "".join(line + "\n" for line in lines))


class StorageResource(ConfigurableResource):
    """Where every stage keeps its files. `home` empty means `MMEB_HOME` or `./data`."""

    home: str = ""

    @property
    def root(self) -> Path:
        return Path(self.home).resolve() if self.home else default_home()

    def project_dir(self, seed_id: str) -> Path:
        path = self.root / "projects" / seed_id
        path.mkdir(parents=True, exist_ok=True)
        return path

    def benchmark_dir(self) -> Path:
        path = self.root / "benchmark"
        path.mkdir(parents=True, exist_ok=True)
        return path

    def evaluation_dir(self, *parts: str) -> Path:
        path = self.root.joinpath("evaluation", *parts)
        path.mkdir(parents=True, exist_ok=True)
        return path

    def cache_dir(self) -> Path:
        path = self.root / "cache"
        path.mkdir(parents=True, exist_ok=True)
        return path
