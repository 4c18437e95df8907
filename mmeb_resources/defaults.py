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


BACKENDS = ("rules", "openai", "transformers", "vllm")


def llm_from_env() -> LLMResource:
    """The construction stages' LLM: `MMEB_LLM_BACKEND` = rules (default) | openai | transformers | vllm.

    openai reads `MMEB_LLM_BASE_URL`, `MMEB_LLM_MODEL`, `MMEB_LLM_API_KEY` (hidden in the UI);
    the in-process backends read `MMEB_LLM_MODEL` and `MMEB_LLM_MODEL_PATH` (a folder, a GGUF file,
    or `pkg:<package>/<file>`). `MMEB_LLM_STRUCTURED=0` stops sending the stages' schemas as
    `response_format` (on by default). `MMEB_LLM_CONTEXT_TOKENS` is the endpoint's context (default
    131072); prompts that carry many records (QA validation's full-project stage) are cut to fit it.
    """
    backend = os.environ.get("MMEB_LLM_BACKEND", "rules")
    if backend not in BACKENDS:
        raise ValueError(f"MMEB_LLM_BACKEND={backend!r}: expected one of {', '.join(BACKENDS)}")
    if backend == "rules":
        return LLMResource(backend="rules")
    structured = os.environ.get("MMEB_LLM_STRUCTURED", "1").strip().lower() not in ("0", "false", "no", "off")
    if backend in ("transformers", "vllm"):
        return LLMResource(backend=backend, model=os.environ.get("MMEB_LLM_MODEL", ""),
                           model_path=EnvVar("MMEB_LLM_MODEL_PATH"), structured_outputs=structured)
    return LLMResource(
        backend="openai", structured_outputs=structured,
        max_context_tokens=int(os.environ.get("MMEB_LLM_CONTEXT_TOKENS") or 131072),
        model=EnvVar("MMEB_LLM_MODEL"),
        base_url=EnvVar("MMEB_LLM_BASE_URL"),
        api_key=EnvVar("MMEB_LLM_API_KEY") if os.environ.get("MMEB_LLM_API_KEY") else "not-needed",
    )


def gpu_from_env() -> GPUResource:
    """The managed-server resource: vLLM's api_server from `.venv-vllm` when `make vllm GPU=1` (or
    `mmeb serve --gpu`) set that venv up, else the `vllm serve` on PATH."""
    from mmeb_resources import vllm_local

    if vllm_local.installed():
        return GPUResource(command=vllm_local.api_server_command())
    return GPUResource()


def default_resources() -> dict:
    """Resource key -> resource, one obvious place for the whole project."""
    return {
        "storage": StorageResource(),
        "io_manager": PydanticJsonIOManager(),
        "llm": llm_from_env(),
        "embedder": embedder_from_env(), "lancedb": LanceDBResource(),
        "gpu": gpu_from_env(),
    }
