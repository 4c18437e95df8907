"""The model registry (`config/models.yaml`): which models answer, how, and with which limits.

A resource-level config reader, free of heavy imports: `mmeb_assets.partitions` reads it to build the
model x k partitions without loading the evaluation stage.
"""
from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, Field, ValidationError

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CONFIG = REPO_ROOT / "config" / "models.yaml"
ENV_PATTERN = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
Backend = Literal["openai", "transformers", "vllm", "vllm-server", "reader"]


class RegistryError(ValueError):
    """A registry that cannot be used; the message names the file and the entry."""


class ModelSpec(BaseModel):
    name: str = Field(pattern=r"^[a-z0-9][a-z0-9._-]{0,62}$")
    group: Literal["proprietary", "open-source", "offline", "diagnostic"] = "open-source"
    backend: Backend
    model: str = ""
    model_path: str = ""
    endpoint: str = ""
    api_key_env: str = ""
    vision: bool = False
    max_tokens: int = 8192
    temperature: float = 0.0
    enabled: bool | Literal["auto"] = "auto"
    sample_size: int | None = None
    max_prompt_tokens: int | None = None
    max_context_tokens: int = 8192
    concurrency: int = 8
    price_prompt_per_mtok: float = 0.0
    price_completion_per_mtok: float = 0.0
    reader: Literal["latest", "first"] | None = None
    evidence: Literal["retrieved", "gold"] = "retrieved"

    @property
    def resolved_endpoint(self) -> str:
        return ENV_PATTERN.sub(lambda m: os.environ.get(m.group(1), ""), self.endpoint).strip()

    @property
    def is_enabled(self) -> bool:
        if self.enabled != "auto":
            return bool(self.enabled)
        if self.resolved_endpoint:
            return True
        if self.backend in ("vllm", "vllm-server"):
            return os.environ.get("MMEB_GPU", "") not in ("", "0", "false")
        return self.backend in ("transformers", "reader")

    @property
    def effective_sample_size(self) -> int | None:
        override = os.environ.get("MMEB_SAMPLE_SIZE")
        if self.sample_size is not None and override:
            return int(override) if int(override) > 0 else None
        return self.sample_size


class JudgeConfig(BaseModel):
    llm: str | None = None


class Registry(BaseModel):
    file: Path
    retriever: str = "default"
    judge: JudgeConfig = JudgeConfig()
    models: list[ModelSpec]

    def get(self, name: str) -> ModelSpec:
        for spec in self.models:
            if spec.name == name:
                return spec
        raise KeyError(f"model {name!r} is not in the registry {self.file}")

    @property
    def enabled(self) -> list[ModelSpec]:
        wanted = [n.strip() for n in os.environ.get("MMEB_EVAL_MODELS", "").split(",") if n.strip()]
        if wanted:
            return [self.get(name) for name in wanted]
        return [spec for spec in self.models if spec.is_enabled]

    @property
    def active_retriever(self) -> str:
        """`MMEB_EVAL_RETRIEVER`, else the registry's `retriever`, where `default` means the
        retrieval stage's answering retriever (config/retrievers.yaml `answering`), and `minilm`
        when that is absent."""
        if os.environ.get("MMEB_EVAL_RETRIEVER"):
            return os.environ["MMEB_EVAL_RETRIEVER"]
        if self.retriever != "default":
            return self.retriever
        try:
            from mmeb_resources.retrievers_config import load_retrievers

            return load_retrievers().answering
        except (ImportError, FileNotFoundError, ValueError):
            return "minilm"

    def judge_model(self) -> ModelSpec | None:
        """The LLM judge entry when it is configured and reachable, else None (deterministic only)."""
        if not self.judge.llm:
            return None
        spec = self.get(self.judge.llm)
        return spec if spec.is_enabled and spec.backend != "reader" else None


def _config_path() -> Path:
    return Path(os.environ.get("MMEB_MODELS_CONFIG") or DEFAULT_CONFIG).resolve()


@lru_cache(maxsize=8)
def _load(path: Path, mtime: float) -> Registry:
    raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    defaults = raw.get("defaults") or {}
    entries = raw.get("models") or []
    if not entries:
        raise RegistryError(f"{path}: no `models:` entries")
    models = []
    for index, entry in enumerate(entries):
        try:
            models.append(ModelSpec.model_validate({**defaults, **entry}))
        except ValidationError as exc:
            raise RegistryError(f"{path}: models[{index}] ({entry.get('name', '?')}): {exc}") from exc
    names = [m.name for m in models]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise RegistryError(f"{path}: duplicate model names {duplicates}")
    try:
        return Registry(file=path, retriever=raw.get("retriever") or "default",
                        judge=JudgeConfig.model_validate(raw.get("judge") or {}), models=models)
    except ValidationError as exc:
        raise RegistryError(f"{path}: {exc}") from exc


def load_registry(path: Path | None = None) -> Registry:
    path = Path(path).resolve() if path else _config_path()
    if not path.exists():
        raise RegistryError(f"model registry not found: {path}")
    return _load(path, path.stat().st_mtime)


def enabled_model_names() -> list[str]:
    return [spec.name for spec in load_registry().enabled]
