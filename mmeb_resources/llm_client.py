"""The asynchronous core every LLM call goes through.

`LLMClient` = a backend + the response cache + the usage ledger + a concurrency limit.
`OpenAIBackend` speaks the OpenAI chat-completions protocol over HTTP (OpenAI, a vLLM server,
llama.cpp server, Ollama) and retries with exponential backoff on 429, 5xx, timeouts and dropped
connections, waiting at least the server's Retry-After when it sends one.
"""
from __future__ import annotations

import asyncio
import email.utils
import random
import threading
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Protocol, TypeVar

import httpx
from dagster import get_dagster_logger

from mmeb_resources.llm_cache import CachedReply, ResponseCache, cache_key
from mmeb_assets.operations.progress import Progress
from mmeb_resources.llm_ledger import UsageLedger, call_cost

T = TypeVar("T")
RETRY_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504})


class LLMRequestError(RuntimeError):
    """A request failed for good (a non-retryable status, or retries exhausted)."""

    def __init__(self, message: str, status: int | None = None, attempts: int = 1):
        super().__init__(message)
        self.status = status
        self.attempts = attempts


@dataclass
class Completion:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0
    cached: bool = False


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 6
    base_delay_s: float = 0.5
    max_delay_s: float = 30.0
    max_retry_after_s: float = 120.0

    def backoff(self, attempt: int) -> float:
        """Exponential with full jitter in [delay/2, delay]; attempt counts from 0."""
        delay = min(self.max_delay_s, self.base_delay_s * (2 ** attempt))
        return delay * (0.5 + random.random() / 2)

    def delay_for(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(self.max_retry_after_s, max(retry_after, 0.0))
        return self.backoff(attempt)


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header: delta-seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, moment.timestamp() - (time.time() if now is None else now))


class Backend(Protocol):
    name: str
    model: str

    async def acomplete(self, messages: list[dict], params: dict, http: httpx.AsyncClient | None) -> Completion:
        ...


class OpenAIBackend:
    """POST {base_url}/chat/completions with retries."""

    name = "openai"

    def __init__(self, base_url: str, model: str, api_key: str = "", timeout_s: float = 120.0,
                 retry: RetryPolicy = RetryPolicy(), sleep: Callable[[float], Awaitable[None]] = asyncio.sleep):
        if not base_url:
            raise ValueError("openai backend needs base_url (e.g. https://api.openai.com/v1 or a local server)")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key
        self.timeout_s = timeout_s
        self.retry = retry
        self.sleep = sleep

    def headers(self) -> dict:
        return {"Authorization": f"Bearer {self.api_key or 'not-needed'}", "Content-Type": "application/json"}

    def new_http(self, concurrency: int) -> httpx.AsyncClient:
        limits = httpx.Limits(max_connections=max(1, concurrency), max_keepalive_connections=max(1, concurrency))
        return httpx.AsyncClient(timeout=httpx.Timeout(self.timeout_s), limits=limits, headers=self.headers())

    async def acomplete(self, messages: list[dict], params: dict, http: httpx.AsyncClient | None) -> Completion:
        owned = http is None
        http = http or self.new_http(1)
        try:
            return await self._with_retries(http, {"model": self.model, "messages": messages, **params})
        finally:
            if owned:
                await http.aclose()

    async def _with_retries(self, http: httpx.AsyncClient, body: dict) -> Completion:
        url = f"{self.base_url}/chat/completions"
        last = ""
        for attempt in range(self.retry.max_retries + 1):
            retry_after = None
            try:
                response = await http.post(url, json=body)
            except (httpx.TimeoutException, httpx.TransportError) as exc:
                last = f"{type(exc).__name__}: {exc}"
            else:
                if response.status_code == 200:
                    return _parse_completion(response, retries=attempt)
                last = f"HTTP {response.status_code}: {response.text[:300]}"
                if response.status_code not in RETRY_STATUSES and response.status_code < 500:
                    raise LLMRequestError(f"{url}: {last}", status=response.status_code, attempts=attempt + 1)
                retry_after = parse_retry_after(response.headers.get("Retry-After"))
            if attempt < self.retry.max_retries:
                await self.sleep(self.retry.delay_for(attempt, retry_after))
        raise LLMRequestError(f"{url}: gave up after {self.retry.max_retries + 1} attempts; last error {last}",
                              attempts=self.retry.max_retries + 1)


def _parse_completion(response: httpx.Response, retries: int) -> Completion:
    try:
        data = response.json()
        text = data["choices"][0]["message"].get("content") or ""
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise LLMRequestError(f"malformed chat completion: {exc}: {response.text[:300]}") from exc
    usage = data.get("usage") or {}
    return Completion(text=text, prompt_tokens=int(usage.get("prompt_tokens") or 0),
                      completion_tokens=int(usage.get("completion_tokens") or 0), retries=retries)


def run_sync(coro_factory: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine from sync code, also when the caller already sits inside an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro_factory())
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coro_factory())
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


class LLMClient:
    """Cache -> backend (bounded concurrency) -> cache + ledger, for one backend and model.

    A batch looks all its keys up in one query, sends only the misses, and writes the new replies
    (every `WRITE_EVERY` completions and at the end, also on failure) in single transactions.
    """

    WRITE_EVERY = 64

    def __init__(self, backend: Backend, cache: ResponseCache, ledger: UsageLedger, *, concurrency: int = 8,
                 price_in: float = 0.0, price_out: float = 0.0):
        self.backend = backend
        self.cache = cache
        self.ledger = ledger
        self.concurrency = max(1, concurrency)
        self.price_in = price_in
        self.price_out = price_out
        self._progress: Progress | None = None

    def key(self, messages: list[dict], params: dict) -> str:
        return cache_key(self.backend.name, self.backend.model, messages, params)

    def _hits(self, requests: list[tuple[list[dict], dict]], stage: str) -> tuple[list[str], list[Completion | None]]:
        keys = [self.key(m, p) for m, p in requests]
        found = self.cache.get_many(keys)
        results: list[Completion | None] = []
        for key in keys:
            hit = found.get(key)
            if hit is None:
                results.append(None)
                continue
            results.append(Completion(hit.text, hit.prompt_tokens, hit.completion_tokens, cached=True))
            self.ledger.record(stage=stage, backend=self.backend.name, model=self.backend.model, cached=True,
                               prompt_tokens=hit.prompt_tokens, completion_tokens=hit.completion_tokens, cost_usd=0.0)
        return keys, results

    def _account(self, done: Completion, stage: str) -> None:
        if self._progress is not None:
            self._progress.advance()
        self.ledger.record(stage=stage, backend=self.backend.name, model=self.backend.model, cached=False,
                           prompt_tokens=done.prompt_tokens, completion_tokens=done.completion_tokens,
                           cost_usd=call_cost(done.prompt_tokens, done.completion_tokens, self.price_in,
                                              self.price_out), retries=done.retries)

    def _write(self, pending: list[tuple[str, str, CachedReply]]) -> None:
        rows, pending[:] = list(pending), []
        self.cache.put_many(rows)

    async def abatch(self, requests: list[tuple[list[dict], dict]], *, stage: str) -> list[Completion]:
        """All requests concurrently (at most `concurrency` in flight); results in input order."""
        keys, results = self._hits(requests, stage)
        misses = [i for i, r in enumerate(results) if r is None]
        pending: list[tuple[str, str, CachedReply]] = []
        self._progress = Progress(f"{stage} ({self.backend.model})", len(misses),
                                  log=get_dagster_logger("mmeb").info) if misses else None
        try:
            if misses and hasattr(self.backend, "complete_many") and len(misses) > 1:
                done = await asyncio.to_thread(self.backend.complete_many, [requests[i] for i in misses])
                for index, completion in zip(misses, done):
                    results[index] = completion
                    pending.append((keys[index], self.backend.model, _reply(completion)))
                    self._account(completion, stage)
            elif misses:
                await self._concurrent(requests, keys, misses, results, pending, stage)
        finally:
            self._write(pending)
            self.ledger.flush()
            if self._progress is not None:
                self._progress.close()
                self._progress = None
        return results  # type: ignore[return-value]

    async def _concurrent(self, requests, keys, misses, results, pending, stage) -> None:
        gate = asyncio.Semaphore(self.concurrency)
        new_http = getattr(self.backend, "new_http", None)
        http = new_http(self.concurrency) if new_http else None

        async def one(index: int) -> None:
            messages, params = requests[index]
            async with gate:
                completion = await self.backend.acomplete(messages, params, http)
            results[index] = completion
            pending.append((keys[index], self.backend.model, _reply(completion)))
            self._account(completion, stage)
            if len(pending) >= self.WRITE_EVERY:
                self._write(pending)

        try:
            await asyncio.gather(*(one(i) for i in misses))
        finally:
            if http is not None:
                await http.aclose()

    async def achat(self, messages: list[dict], params: dict, *, stage: str) -> Completion:
        return (await self.abatch([(messages, params)], stage=stage))[0]


def _reply(done: Completion) -> CachedReply:
    return CachedReply(done.text, done.prompt_tokens, done.completion_tokens)
