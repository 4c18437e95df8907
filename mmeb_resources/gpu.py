"""GPU resource: starts a managed vLLM server (subprocess), waits for health, tears it down.

`with gpu.serve(model, served_name=...) as server:` yields `server.base_url` (OpenAI-compatible,
ending in /v1) for the `openai` backend. The command is `vllm serve <model> --host --port
--dtype bfloat16 --served-model-name ...` by default; a command naming vLLM's
`entrypoints.openai.api_server` module (what `mmeb serve` and `vllm_local.server_resource` use,
from the `.venv-vllm` venv) gets the model as `--model <model>` instead. `command` can point at any
program that takes the same arguments (the tests use a fake OpenAI server script), so the start /
health / teardown logic is exercised for real without a GPU. `env` adds environment variables
(`VLLM_CPU_KVCACHE_SPACE` on a CPU); `gpu_memory_utilization` 0 leaves that flag out.
"""
from __future__ import annotations

import contextlib
import os
import shlex
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import httpx
from dagster import ConfigurableResource


class ServerStartError(RuntimeError):
    """The server exited or never became healthy; the message carries the end of its log."""


@dataclass
class ManagedServer:
    base_url: str
    served_name: str
    process: subprocess.Popen
    log_path: Path
    startup_s: float


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _log_tail(path: Path, chars: int = 2000) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[-chars:]
    except OSError:
        return ""


class GPUResource(ConfigurableResource):
    """Managed vLLM servers on this machine's GPU(s)."""

    command: str = "vllm serve"
    host: str = "127.0.0.1"
    port: int = 0
    dtype: str = "bfloat16"
    gpu_memory_utilization: float = 0.9
    extra_args: list[str] = []
    startup_timeout_s: float = 1800.0
    health_paths: list[str] = ["/health", "/v1/models"]
    shutdown_timeout_s: float = 30.0
    log_dir: str = ""
    env: dict[str, str] = {}

    def available(self) -> bool:
        try:
            import torch

            return bool(torch.cuda.is_available())
        except ImportError:
            return False

    def server_command(self, model: str, port: int, served_name: str, max_model_len: int | None = None) -> list[str]:
        program = shlex.split(self.command)
        model_args = ["--model", model] if "entrypoints.openai.api_server" in self.command else [model]
        args = [*program, *model_args, "--host", self.host, "--port", str(port), "--dtype", self.dtype,
                "--served-model-name", served_name]
        if self.gpu_memory_utilization > 0:
            args += ["--gpu-memory-utilization", str(self.gpu_memory_utilization)]
        if max_model_len:
            args += ["--max-model-len", str(max_model_len)]
        return args + list(self.extra_args)

    def _healthy(self, root: str, client: httpx.Client) -> bool:
        for path in self.health_paths:
            try:
                if client.get(root + path, timeout=2.0).status_code == 200:
                    return True
            except httpx.HTTPError:
                continue
        return False

    def wait_healthy(self, process: subprocess.Popen, root: str, log_path: Path) -> float:
        start = time.monotonic()
        with httpx.Client() as client:
            while time.monotonic() - start < self.startup_timeout_s:
                if process.poll() is not None:
                    raise ServerStartError(f"server exited with code {process.returncode} before it was healthy; "
                                           f"log {log_path}:\n{_log_tail(log_path)}")
                if self._healthy(root, client):
                    return time.monotonic() - start
                time.sleep(0.25)
        raise ServerStartError(f"server not healthy after {self.startup_timeout_s:.0f} s; log {log_path}:\n"
                               f"{_log_tail(log_path)}")

    def stop(self, process: subprocess.Popen) -> None:
        """SIGTERM to the server's process group, then SIGKILL after `shutdown_timeout_s`."""
        if process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=self.shutdown_timeout_s)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)

    @contextlib.contextmanager
    def serve(self, model: str, *, served_name: str | None = None,
              max_model_len: int | None = None) -> Iterator[ManagedServer]:
        port = self.port or free_port(self.host)
        name = served_name or model
        log_dir = Path(self.log_dir) if self.log_dir else Path(tempfile.gettempdir()) / "mmeb-vllm"
        log_dir.mkdir(parents=True, exist_ok=True)
        log_path = log_dir / f"server-{port}.log"
        with open(log_path, "wb") as log:
            process = subprocess.Popen(self.server_command(model, port, name, max_model_len), stdout=log,
                                       stderr=subprocess.STDOUT, start_new_session=True,
                                       env={**os.environ, **self.env} if self.env else None)
        try:
            root = f"http://{self.host}:{port}"
            startup = self.wait_healthy(process, root, log_path)
            yield ManagedServer(base_url=root + "/v1", served_name=name, process=process, log_path=log_path,
                                startup_s=startup)
        finally:
            self.stop(process)
