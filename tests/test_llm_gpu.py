"""The managed vLLM server logic of GPUResource, for real, with a fake `vllm serve` (the test server
script takes the same arguments): start, health wait, requests, teardown, and a failed start."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mmeb_assets.evaluation.answering import model_client
from mmeb_assets.evaluation.registry import ModelSpec
from mmeb_resources.gpu import GPUResource, ServerStartError
from mmeb_resources.llm import LLMResource

FAKE_VLLM = f"{sys.executable} {Path(__file__).with_name('openai_test_server.py')}"


def test_managed_server_starts_waits_for_health_serves_and_stops(tmp_path):
    gpu = GPUResource(command=FAKE_VLLM, extra_args=["--startup-delay", "0.5"], log_dir=str(tmp_path),
                      startup_timeout_s=60, shutdown_timeout_s=10)
    command = gpu.server_command("Qwen/Qwen3.5-2B", 8123, "qwen3.5-2b", max_model_len=8192)
    assert command[2:4] == ["Qwen/Qwen3.5-2B", "--host"] and command[-2:] == ["--startup-delay", "0.5"]
    for flag, value in (("--dtype", "bfloat16"), ("--port", "8123"), ("--served-model-name", "qwen3.5-2b"),
                        ("--max-model-len", "8192")):
        assert command[command.index(flag) + 1] == value
    with gpu.serve("Qwen/Qwen3.5-2B", served_name="qwen3.5-2b") as server:
        assert server.process.poll() is None and server.base_url.endswith("/v1")
        llm = LLMResource(backend="openai", base_url=server.base_url, model=server.served_name, home=str(tmp_path))
        assert llm.chat([{"role": "user", "content": "ping"}], stage="t") == "echo: ping"
        process = server.process
    assert process.poll() is not None, "the server must be gone after the block"
    assert "fake vllm server for Qwen/Qwen3.5-2B" in server.log_path.read_text()


def test_a_server_that_exits_raises_with_its_log(tmp_path):
    gpu = GPUResource(command=FAKE_VLLM, extra_args=["--fail-start"], log_dir=str(tmp_path), startup_timeout_s=30)
    with pytest.raises(ServerStartError, match="refusing to start"):
        with gpu.serve("some/model"):
            pass


def test_vllm_server_registry_entry_runs_through_the_managed_server(tmp_path):
    spec = ModelSpec(name="qwen3.5-2b", backend="vllm-server", model="Qwen/Qwen3.5-2B", vision=True, max_tokens=2048)
    gpu = GPUResource(command=FAKE_VLLM, log_dir=str(tmp_path), startup_timeout_s=60)
    with model_client(spec, tmp_path, gpu) as llm:
        assert llm.backend == "openai" and llm.max_tokens == 2048
        replies = llm.chat_batch([[{"role": "user", "content": f"q{i}"}] for i in range(3)], stage="t")
    assert [r.text for r in replies] == ["echo: q0", "echo: q1", "echo: q2"]
    with pytest.raises(RuntimeError, match="needs the `gpu` resource"):
        with model_client(spec, tmp_path, None):
            pass
