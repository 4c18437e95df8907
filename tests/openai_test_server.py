"""A local OpenAI-compatible HTTP server for tests: scripted replies and fault injection.

`OpenAITestServer(handler)` where handler(request_json) -> str reply text, or a
`Fault(status, headers, body)` to answer with an error, `DropConnection()`, `ResetConnection()`
(a TCP RST), `Hang(seconds)` (answer nothing, then close), `RawBody(text)` (a 200 whose body is
not a valid completion) or `Reply(content, refusal)` (full control of the message).
`FaultSchedule(handler, fault, times)` puts a named fault of `FAULTS` in front of a handler: the
first `times` requests (all when None) get the fault, the rest the handler's replies.
`latency_s` delays every POST by a fixed time (for benchmarks of the client's concurrency).

Run as a script it is a stand-in for `vllm serve`: it takes the same arguments
(`<model> --host H --port P [...]`), serves /health, /v1/models and echoing chat completions, and
exits on SIGTERM, so the managed-server logic of `mmeb_resources.gpu` can be tested for real.
"""
from __future__ import annotations

import json
import os
import socket
import struct
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable


@dataclass
class Fault:
    status: int
    headers: dict = field(default_factory=dict)
    body: str = '{"error": {"message": "injected fault"}}'


class DropConnection:
    """Close the socket without answering."""


class ResetConnection:
    """Abort the connection with a TCP RST (SO_LINGER 0), as a crashed proxy does."""


@dataclass
class Hang:
    """Answer nothing for `seconds` (longer than the client's timeout), then close."""

    seconds: float


@dataclass
class RawBody:
    """A response whose body is sent as given: a truncated or malformed completion."""

    body: str
    status: int = 200


@dataclass
class Reply:
    """A completion with explicit content / refusal (content None is sent as JSON null)."""

    content: str | None
    refusal: str | None = None
    finish_reason: str = "stop"


REFUSAL_TEXT = "I'm sorry, but I can't help with that request."
SCHEMA_BREAK = '{"status": "ok", "note": "this object has none of the fields that were asked for"}'
FAULTS: dict[str, Callable[[], object]] = {
    "429 Retry-After": lambda: Fault(429, {"Retry-After": "0"}),
    "500": lambda: Fault(500),
    "503": lambda: Fault(503, {"Retry-After": "0"}),
    "connection reset": ResetConnection,
    "hang past timeout": lambda: Hang(3.0),
    "truncated JSON body": lambda: RawBody('{"id": "chatcmpl-test", "object": "chat.completion", "choices": [{"ind'),
    "schema-breaking JSON": lambda: SCHEMA_BREAK,
    "empty completion": lambda: Reply(""),
    "refusal": lambda: Reply(None, refusal=REFUSAL_TEXT),
}
TRANSPORT_FAULTS = ("429 Retry-After", "500", "503", "connection reset", "hang past timeout", "truncated JSON body")
CONTENT_FAULTS = ("schema-breaking JSON", "empty completion", "refusal")


class FaultSchedule:
    """The first `times` requests (every request when None) get `FAULTS[fault]`; the rest go to
    `handler`. `faulted` counts the requests answered with the fault."""

    def __init__(self, handler: Callable[[dict], object], fault: str, times: int | None = 1):
        if fault not in FAULTS:
            raise KeyError(f"unknown fault {fault!r}; known: {sorted(FAULTS)}")
        self.handler, self.fault, self.times = handler, fault, times
        self.faulted = 0
        self.lock = threading.Lock()

    def __call__(self, payload: dict) -> object:
        with self.lock:
            hit = self.times is None or self.faulted < self.times
            if hit:
                self.faulted += 1
        return FAULTS[self.fault]() if hit else self.handler(payload)


class OpenAITestServer:
    def __init__(self, handler: Callable[[dict], object], latency_s: float = 0.0, host: str = "127.0.0.1",
                 port: int = 0, model_name: str = "test-model"):
        self.handler = handler
        self.latency_s = latency_s
        self.requests: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body go out at once (no 40 ms delayed-ACK stall)

            def log_message(self, *args):
                pass

            def do_GET(self):
                if self.path.rstrip("/").endswith("/stats"):
                    body = json.dumps({"requests": len(outer.requests)}).encode()
                else:
                    body = json.dumps({"data": [{"id": model_name, "object": "model"}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                payload = json.loads(self.rfile.read(length) or b"{}")
                outer.requests.append(payload)
                if outer.latency_s:
                    time.sleep(outer.latency_s)
                result = outer.handler(payload)
                if isinstance(result, (DropConnection, ResetConnection, Hang)):
                    self._abort(result)
                    return
                if isinstance(result, Fault):
                    body = result.body.encode()
                    self.send_response(result.status)
                    for key, value in result.headers.items():
                        self.send_header(key, value)
                elif isinstance(result, RawBody):
                    body = result.body.encode()
                    self.send_response(result.status)
                elif isinstance(result, Reply):
                    body = json.dumps(_completion(payload, result.content, result.refusal,
                                                  result.finish_reason)).encode()
                    self.send_response(200)
                else:
                    body = json.dumps(_completion(payload, str(result))).encode()
                    self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                try:
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
                    self.close_connection = True

            def _abort(self, result) -> None:
                self.close_connection = True
                if isinstance(result, Hang):
                    time.sleep(result.seconds)
                if isinstance(result, ResetConnection):
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.connection.close()
                    return
                try:
                    self.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        class Server(ThreadingHTTPServer):
            daemon_threads = True
            request_queue_size = 256

        self.httpd = Server((host, port), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> "OpenAITestServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _completion(payload: dict, text: str | None, refusal: str | None = None, finish_reason: str = "stop") -> dict:
    message: dict = {"role": "assistant", "content": text}
    if refusal is not None:
        message["refusal"] = refusal
    n = len(text or refusal or "") // 4
    return {
        "id": "chatcmpl-test", "object": "chat.completion", "created": 0,
        "model": payload.get("model", "test-model"),
        "choices": [{"index": 0, "finish_reason": finish_reason, "message": message}],
        "usage": {"prompt_tokens": 10, "completion_tokens": max(1, n), "total_tokens": 10 + n},
    }


def _echo(payload: dict) -> str:
    messages = payload.get("messages") or [{}]
    content = messages[-1].get("content", "")
    if isinstance(content, list):
        content = " ".join(p.get("text", "") for p in content if isinstance(p, dict))
    return f"echo: {str(content)[-80:]}"


async def serve_asyncio(host: str, port: int, latency_s: float, model_name: str,
                        handler: Callable[[dict], object] | None = None) -> None:
    """The same endpoints on asyncio streams: one event loop, no thread per connection, so the fixed
    latency (an `asyncio.sleep`) costs no CPU and 32 concurrent requests do not contend for the GIL
    in 32 handler threads. Real HTTP/1.1 with keep-alive (Content-Length bodies; what clients send)."""
    import asyncio
    import signal

    handler = handler or _echo
    state = {"requests": 0}

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
                method, path = head[0].split(" ")[:2]
                headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in head[1:] if h)}
                body = await reader.readexactly(int(headers.get("content-length") or 0))
                if method == "POST":
                    state["requests"] += 1
                    payload = json.loads(body or b"{}")
                    if latency_s:
                        await asyncio.sleep(latency_s)
                    out = _completion(payload, str(handler(payload)))
                elif path.rstrip("/").endswith("/stats"):
                    out = {"requests": state["requests"]}
                else:
                    out = {"data": [{"id": model_name, "object": "model"}]}
                data = json.dumps(out).encode()
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                             % (len(data), data))
                await writer.drain()
                if headers.get("connection", "").lower() == "close":
                    break
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError, ValueError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(connection, host, port, backlog=512)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with server:
        await stop.wait()


def main(argv: list[str]) -> int:
    """`python tests/openai_test_server.py <model> --host H --port P [--startup-delay S] [--latency S]
    [--asyncio] [...]`; GET /stats answers {"requests": n}; `--asyncio` serves from one event loop."""
    import signal

    model, host, port, delay, served = (argv[0] if argv else "test-model"), "127.0.0.1", 8000, 0.0, None
    latency = 0.0
    for index, arg in enumerate(argv):
        following = argv[index + 1] if index + 1 < len(argv) else ""
        if arg == "--host":
            host = following
        elif arg == "--port":
            port = int(following)
        elif arg == "--startup-delay":
            delay = float(following)
        elif arg == "--latency":
            latency = float(following)
        elif arg == "--served-model-name":
            served = following
        elif arg == "--model":  # vLLM's api_server module takes the model as a flag
            model = following
        elif arg == "--fail-start":
            print("fake server: refusing to start", flush=True)
            return 3
    time.sleep(delay)
    if "--asyncio" in argv:
        import asyncio

        print(f"fake vllm server (asyncio) for {model} on {host}:{port}", flush=True)
        asyncio.run(serve_asyncio(host, port, latency, served or model))
        return 0
    server = OpenAITestServer(_echo, latency_s=latency, host=host, port=port, model_name=served or model)
    if os.environ.get("VLLM_CPU_KVCACHE_SPACE"):
        print(f"fake server: VLLM_CPU_KVCACHE_SPACE={os.environ['VLLM_CPU_KVCACHE_SPACE']}", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    print(f"fake vllm server for {model} on {host}:{port}", flush=True)
    try:
        server.httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
