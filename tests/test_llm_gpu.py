"""The managed vLLM server logic of GPUResource, for real, with a fake `vllm serve` (the test server
script takes the same arguments): start, health wait, requests, teardown, and a failed start."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mmeb_assets.evaluation.answering import model_client
from mmeb_resources.model_registry import ModelSpec
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


def fake_vllm_venv(tmp_path: Path) -> Path:
    """A venv whose python runs a `vllm.entrypoints.openai.api_server` module that is the fake server."""
    package = tmp_path / "fakepkg" / "vllm" / "entrypoints" / "openai"
    package.mkdir(parents=True)
    for folder in (package.parents[1], package.parent, package):
        (folder / "__init__.py").write_text("")
    tests = Path(__file__).resolve().parent
    (package / "api_server.py").write_text(f"import sys\nsys.path.insert(0, {str(tests)!r})\n"
                                           "import openai_test_server\nsys.exit(openai_test_server.main(sys.argv[1:]))\n")
    python = tmp_path / "venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f"#!/bin/sh\nPYTHONPATH={tmp_path / 'fakepkg'} exec {sys.executable} \"$@\"\n")
    python.chmod(0o755)
    return python.parents[1]


def test_local_vllm_server_runs_the_api_server_module_with_the_model_flag_and_cpu_settings(tmp_path):
    from mmeb_resources import vllm_local

    cpu = vllm_local.server_resource(fake_vllm_venv(tmp_path), log_dir=str(tmp_path))
    command = cpu.server_command("/models/smol", 8124, "smollm2-135m", max_model_len=8192)
    assert command[1:4] == ["-m", "vllm.entrypoints.openai.api_server", "--model"] and command[4] == "/models/smol"
    assert "--gpu-memory-utilization" not in command and command[command.index("--max-model-len") + 1] == "8192"
    with cpu.serve("/models/smol", served_name="smollm2-135m", max_model_len=8192) as server:
        llm = LLMResource(backend="openai", base_url=server.base_url, model=server.served_name, home=str(tmp_path))
        assert llm.chat([{"role": "user", "content": "ping"}], stage="t") == "echo: ping"
    log = server.log_path.read_text()
    assert "fake vllm server for /models/smol" in log and "VLLM_CPU_KVCACHE_SPACE=2" in log
    gpu = vllm_local.server_resource(tmp_path / "venv", gpu=True)
    assert "--gpu-memory-utilization" in gpu.server_command("m", 1, "m") and not gpu.env


def test_the_gpu_resource_uses_the_vllm_venv_once_it_is_set_up(tmp_path, monkeypatch):
    from mmeb_resources.defaults import gpu_from_env

    venv = fake_vllm_venv(tmp_path)
    monkeypatch.setenv("MMEB_VLLM_VENV", str(venv))
    assert gpu_from_env().command == "vllm serve", "a venv without the setup stamp is not used"
    (venv / ".installed").write_text("0.32.0\n")
    command = gpu_from_env().server_command("Qwen/Qwen3.5-2B", 8125, "qwen3.5-2b")
    assert command[:4] == [str(venv / "bin" / "python"), "-m", "vllm.entrypoints.openai.api_server", "--model"]
    assert "--gpu-memory-utilization" in command
