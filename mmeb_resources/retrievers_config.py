"""config/retrievers.yaml: the retrievers (partitions of `retrievals`) and how to build each embedder."""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import BaseModel

REPO_ROOT = Path(__file__).resolve().parents[1]
RETRIEVERS_FILE = REPO_ROOT / "config" / "retrievers.yaml"


EMBEDDING_KINDS = ("minilm", "qwen3_vl")
KINDS = (*EMBEDDING_KINDS, "bm25", "hybrid")
BEST = "best"  # `answering: best`: the answers read whichever materialized retriever has the best Recall@10


class RetrieversConfig(BaseModel):
    file: Path
    default: str
    answering: str
    retrievers: dict[str, dict]

    @property
    def names(self) -> list[str]:
        return list(self.retrievers)

    def enabled_names(self) -> list[str]:
        """The retrievers that become partitions: `MMEB_RETRIEVERS` ('all' or a comma list) when set,
        else each entry's `enabled` (true | false | auto; auto = its weights are present locally).
        The default (embedding) retriever and the answering retriever are always included, with
        what they are built on (a hybrid's dense and sparse retrievers)."""
        wanted = os.environ.get("MMEB_RETRIEVERS", "").strip()
        if wanted:
            names = self.names if wanted == "all" else [n.strip() for n in wanted.split(",") if n.strip()]
            for name in names:
                self.spec(name)
        else:
            names = [n for n in self.names if _enabled(self.retrievers[n])]
        keep = set(names) | {self.default} | ({self.answering} - {BEST})
        for name in list(keep):
            keep |= set(self.parts(name))
        return [n for n in self.names if n in keep]

    def parts(self, name: str) -> list[str]:
        """The retrievers a fused retriever is built on (none for the others)."""
        spec = self.spec(name)
        return [spec["dense"], spec["sparse"]] if spec.get("kind") == "hybrid" else []

    def index_of(self, name: str) -> str:
        """The embedding retriever whose LanceDB table a retriever searches (its own for an embedder;
        a BM25 retriever's `index`; a hybrid's dense retriever)."""
        spec = self.spec(name)
        kind = spec.get("kind")
        if kind in EMBEDDING_KINDS:
            return name
        return self.index_of(spec["dense"] if kind == "hybrid" else spec.get("index") or self.default)

    def spec(self, name: str) -> dict:
        if name not in self.retrievers:
            raise KeyError(f"retriever {name!r} is not in {self.file} (known: {', '.join(self.retrievers)})")
        return self.retrievers[name]


def weights_present(spec: dict) -> bool:
    """Whether a retriever's weights are on this machine (no download, no torch import)."""
    if spec.get("kind") in ("minilm", "bm25", "hybrid"):
        return True
    model = os.environ.get(spec.get("path_env") or "", "") or str(spec.get("model") or "")
    if not model:
        return False
    if Path(model).expanduser().exists():
        return (Path(model).expanduser() / "config.json").exists()
    try:
        from huggingface_hub import try_to_load_from_cache

        return isinstance(try_to_load_from_cache(model, "config.json"), str)
    except Exception:  # noqa: BLE001 - an unusable cache means: not present
        return False


def _enabled(spec: dict) -> bool:
    flag = spec.get("enabled", True)
    return weights_present(spec) if flag == "auto" else bool(flag)


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
        if not isinstance(spec, dict) or spec.get("kind") not in KINDS:
            raise ValueError(f"{file}: retriever {name!r} needs kind: {' | '.join(KINDS)}")
        _check_references(file, name, spec, retrievers)
    default = raw.get("default") or next(iter(retrievers))
    if default not in retrievers or retrievers[default]["kind"] not in EMBEDDING_KINDS:
        raise ValueError(f"{file}: default {default!r} is not one of the embedding retrievers")
    answering = raw.get("answering") or default
    if answering != BEST and answering not in retrievers:
        raise ValueError(f"{file}: answering {answering!r} is neither {BEST!r} nor one of the retrievers")
    return RetrieversConfig(file=file, default=default, answering=answering, retrievers=retrievers)


def _check_references(file: Path, name: str, spec: dict, retrievers: dict) -> None:
    """A BM25 entry's `index` names an embedding retriever; a hybrid's `dense` one too, its `sparse` a BM25 one."""
    wanted = {"bm25": {"index": EMBEDDING_KINDS}, "hybrid": {"dense": EMBEDDING_KINDS, "sparse": ("bm25",)}}
    for field, kinds in wanted.get(spec["kind"], {}).items():
        target = spec.get(field)
        if field == "index" and target is None:
            continue
        if target not in retrievers or retrievers[target].get("kind") not in kinds:
            raise ValueError(f"{file}: retriever {name!r}: {field} {target!r} must name a retriever of kind "
                             f"{' | '.join(kinds)}")


def load_retrievers() -> RetrieversConfig:
    """`MMEB_RETRIEVERS_CONFIG` (a path), else config/retrievers.yaml of the repository."""
    return _load(os.environ.get("MMEB_RETRIEVERS_CONFIG") or str(RETRIEVERS_FILE))
