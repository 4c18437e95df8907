"""A lean JSON POST over HTTP/1.1 for the LLM client, on httpcore (the connection layer httpx uses).

Why not `httpx.AsyncClient`: at concurrency 32 its client layer (request models, URL parsing,
cookie extraction, auth and redirect hooks, response wrappers) cost more CPU per request than the
whole rest of the client; the bench measured 1.7-2.0 ms of client CPU per request with it. The
connection pool, keep-alive, TLS and timeouts are the same httpcore code either way.
"""
from __future__ import annotations

import functools
import json
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpcore

# what a dropped, reset, hung or garbled connection raises (retried like a 5xx)
TRANSPORT_ERRORS = (httpcore.TimeoutException, httpcore.NetworkError, httpcore.ProtocolError, httpcore.ProxyError)


@functools.lru_cache(maxsize=1)
def default_ssl_context() -> ssl.SSLContext:
    """One TLS context per process: building one loads the CA bundle (~0.1 s), so every pool (one per
    concurrent worker, per batch) shares it instead of loading its own."""
    import certifi

    return ssl.create_default_context(cafile=certifi.where())


@dataclass(frozen=True)
class HttpReply:
    status: int
    headers: dict[str, str]  # lower-case names
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def json(self):
        return json.loads(self.body)


class JsonPoster:
    """POST JSON bodies through one small connection pool; `aclose()` when done."""

    def __init__(self, headers: dict[str, str], timeout_s: float, connections: int = 1):
        self._pool = httpcore.AsyncConnectionPool(ssl_context=default_ssl_context(), max_connections=connections,
                                                  max_keepalive_connections=connections)
        self._headers = [(k.encode(), v.encode()) for k, v in headers.items()]
        # the read timeout is the model's budget; connecting gets at least 5 s (a loaded machine's accept
        # queue is not a dead endpoint, and a request given up before it was sent would go uncounted)
        self._timeouts = {"connect": max(timeout_s, 5.0), "read": timeout_s, "write": timeout_s,
                          "pool": max(timeout_s, 5.0)}

    async def post(self, url: str, body: dict) -> HttpReply:
        data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        headers = [(b"Host", urlsplit(url).netloc.encode()), *self._headers,
                   (b"Content-Length", str(len(data)).encode())]
        response = await self._pool.request("POST", url, headers=headers, content=data,
                                            extensions={"timeout": self._timeouts})
        return HttpReply(response.status, {k.decode("latin-1").lower(): v.decode("latin-1")
                                            for k, v in response.headers}, response.content)

    async def aclose(self) -> None:
        await self._pool.aclose()
