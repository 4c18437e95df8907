"""The resources the project's Definitions are built with, chosen by environment variables.

Offline by default: `MMEB_LLM_BACKEND` unset or `rules` means no model is called anywhere.
"""
from __future__ import annotations

import os

from dagster import EnvVar

from mmeb_resources.embedder import embedder_from_env
from mmeb_resources.gpu import GPUResource
from mmeb_resources.io_manager import PydanticJsonIOManager
from mmeb_resources.lancedb import LanceDBResource
from mmeb_resources.llm import LLMResource
from mmeb_resources.storage import StorageResource


def llm_from_env() -> LLMResource:
    backend = os.environ.get("MMEB_LLM_BACKEND", "rules")
    if backend == "rules":
        return LLMResource(backend="rules")
    return LLMResource(
        backend=backend,
        model=EnvVar("MMEB_LLM_MODEL"),
        base_url=EnvVar("MMEB_LLM_BASE_URL"),
        api_key=EnvVar("MMEB_LLM_API_KEY") if os.environ.get("MMEB_LLM_API_KEY") else "not-needed",
    )


def default_resources() -> dict:
    """Resource key -> resource. Later stages add their keys here (embedder, lancedb, gpu)."""
    return {
        "storage": StorageResource(),
        "io_manager": PydanticJsonIOManager(),
        "llm": llm_from_env(),
        "embedder": embedder_from_env(), "lancedb": LanceDBResource(),
        "gpu": GPUResource(),
    }
