"""Benchmark: the shared LLM client against a local OpenAI-compatible server with a fixed latency.

1,000 requests at concurrency 32: wall time against the ideal (1000 / 32 x latency), with a
sequential baseline measured in the same run; then the same 1,000 again, which must make zero
requests (all from the SQLite response cache). The server (tests/openai_test_server.py) runs in its
own process, so it does not share the client's interpreter lock; it counts the requests it gets.

Two servers, both real HTTP/1.1 with keep-alive and the same fixed latency: `asyncio` (one event
loop; the default, the measured figure) and `threaded` (http.server's ThreadingHTTPServer, a thread
per connection, which at concurrency 32 spends its own CPU on 32 threads contending for the GIL).
`--server both` measures the two in one run, so their difference is the server's, not the client's.

    .venv/bin/python bench/bench_llm_client.py [--requests 1000] [--concurrency 32] [--latency 0.05]
                                               [--server asyncio|threaded|both]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mmeb_resources.gpu import free_port  # noqa: E402
from mmeb_resources.llm import LLMResource  # noqa: E402

SERVER = ROOT / "tests" / "openai_test_server.py"


def served_requests(root: str) -> int:
    return int(httpx.get(f"{root}/stats", timeout=10).json()["requests"])


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process so far (Linux /proc), for the server's share."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def run(llm: LLMResource, n: int, tag: str) -> float:
    batch = [[{"role": "user", "content": f"{tag} request {i}"}] for i in range(n)]
    started = time.perf_counter()
    replies = llm.chat_batch(batch, stage="bench")
    elapsed = time.perf_counter() - started
    assert len(replies) == n and all(r.text.startswith("echo:") for r in replies)
    return elapsed


def start_server(latency: float, kind: str = "asyncio") -> tuple[subprocess.Popen, str]:
    port = free_port()
    extra = ["--asyncio"] if kind == "asyncio" else []
    process = subprocess.Popen([sys.executable, str(SERVER), "bench-model", "--host", "127.0.0.1", "--port",
                                str(port), "--latency", str(latency), *extra], stdout=subprocess.DEVNULL)
    root = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if httpx.get(root + "/health", timeout=1).status_code == 200:
                return process, root
        except httpx.HTTPError:
            time.sleep(0.05)
    process.terminate()
    raise RuntimeError("test server did not start")


def measure(args, kind: str) -> bool:
    process, root = start_server(args.latency, kind)
    try:
        with tempfile.TemporaryDirectory() as home:
            def client(concurrency: int, sub: str) -> LLMResource:
                return LLMResource(backend="openai", base_url=root + "/v1", model="bench-model",
                                   home=str(Path(home) / sub), concurrency=concurrency)

            base_s = run(client(1, "baseline"), args.baseline, "baseline")
            before = served_requests(root)
            llm = client(args.concurrency, "main")
            cpu0, server0 = time.process_time(), cpu_seconds(process.pid)
            first_s = run(llm, args.requests, "main")
            client_cpu, server_cpu = time.process_time() - cpu0, cpu_seconds(process.pid) - server0
            sent = served_requests(root) - before
            second_s = run(client(args.concurrency, "main"), args.requests, "main")
            second_sent = served_requests(root) - before - sent
    finally:
        process.terminate()
        process.wait(timeout=10)
    ideal = max(1e-9, args.requests / args.concurrency * args.latency)
    per_seq = base_s / args.baseline
    per_conc = first_s / args.requests
    print(f"LLM client bench: {args.requests} requests, concurrency {args.concurrency}, "
          f"server latency {args.latency * 1000:.0f} ms ({kind} server in its own process)")
    print(f"  sequential baseline : {args.baseline} requests in {base_s:.2f} s = {per_seq * 1000:.1f} ms/request")
    print(f"  concurrent run      : {first_s:.2f} s, ideal {ideal:.2f} s -> {first_s / ideal:.2f}x ideal (goal <= 1.3x); "
          f"{args.requests / first_s:.0f} req/s; {per_seq / per_conc:.1f}x the sequential throughput; "
          f"requests received by the server {sent}")
    print(f"  CPU of the run      : client {client_cpu:.2f} s ({client_cpu / args.requests * 1e3:.2f} ms/request), "
          f"server {server_cpu:.2f} s; machine load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"  cached rerun        : {second_s:.2f} s, requests received by the server {second_sent} (must be 0); "
          f"{second_s / args.requests * 1e6:.0f} us/request from the cache")
    usage = llm.usage("bench")
    print(f"  ledger (first run)  : requests {usage.requests}, cache hits {usage.cache_hits}, "
          f"prompt tokens {usage.prompt_tokens}, completion tokens {usage.completion_tokens}, retries {usage.retries}")
    return second_sent == 0 and sent == args.requests


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--latency", type=float, default=0.05, help="server latency per request, seconds")
    parser.add_argument("--baseline", type=int, default=40, help="requests for the sequential baseline")
    parser.add_argument("--server", choices=["asyncio", "threaded", "both"], default="asyncio")
    args = parser.parse_args()
    kinds = ["asyncio", "threaded"] if args.server == "both" else [args.server]
    return 0 if all([measure(args, kind) for kind in kinds]) else 1


if __name__ == "__main__":
    sys.exit(main())
