"""A local OpenAI-compatible HTTP server for tests: scripted replies and fault injection.

`OpenAITestServer(handler)` where handler(request_json) -> str reply text, or a
`Fault(status, headers, body)` to answer with an error, or `DropConnection()`.
"""
from __future__ import annotations

import json
import threading
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


class OpenAITestServer:
    def __init__(self, handler: Callable[[dict], object]):
        self.handler = handler
        self.requests: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                body = json.dumps({"data": [{"id": "test-model", "object": "model"}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                payload = json.loads(self.rfile.read(length) or b"{}")
                outer.requests.append(payload)
                result = outer.handler(payload)
                if isinstance(result, DropConnection):
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                if isinstance(result, Fault):
                    body = result.body.encode()
                    self.send_response(result.status)
                    for key, value in result.headers.items():
                        self.send_header(key, value)
                else:
                    body = json.dumps(_completion(payload, str(result))).encode()
                    self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> "OpenAITestServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _completion(payload: dict, text: str) -> dict:
    return {
        "id": "chatcmpl-test", "object": "chat.completion", "created": 0,
        "model": payload.get("model", "test-model"),
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": max(1, len(text) // 4), "total_tokens": 10 + len(text) // 4},
    }
