"""The asynchronous core every LLM call goes through.

`LLMClient` = a backend + the response cache + the usage ledger + a concurrency limit.
`OpenAIBackend` speaks the OpenAI chat-completions protocol over HTTP (llm_http.py; OpenAI, a vLLM server,
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

from dagster import get_dagster_logger

from mmeb_resources.llm_cache import CachedReply, ResponseCache, cache_key
from mmeb_resources.llm_http import TRANSPORT_ERRORS, HttpReply, JsonPoster
from mmeb_resources.progress import Progress
from mmeb_resources.llm_ledger import UsageLedger, call_cost

T = TypeVar("T")
RETRY_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504})


class LLMError(RuntimeError):
    """Base of every LLM failure a stage can fall back from (a request or an output)."""


class LLMRequestError(LLMError):
    """A request failed for good (a non-retryable status, or retries exhausted)."""

    def __init__(self, message: str, status: int | None = None, attempts: int = 1):
        super().__init__(message)
        self.status = status
        self.attempts = attempts


@dataclass
class Completion:
    """One reply. `error` is set (and `text` empty) when a batch item failed for good;
    `refusal` carries the model's refusal message when the server reported one."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0
    cached: bool = False
    refusal: str = ""
    error: str = ""

    @property
    def cacheable(self) -> bool:
        """Only real answers are kept: an empty reply, a refusal or a failure is asked again next time."""
        return not self.error and not self.refusal and bool(self.text.strip())


class _Retryable(Exception):
    """A 200 whose body is not a chat completion (truncated or malformed): retried like a 5xx."""


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

    async def acomplete(self, messages: list[dict], params: dict, http: JsonPoster | None) -> Completion:
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

    def new_http(self, concurrency: int) -> JsonPoster:
        return JsonPoster(self.headers(), self.timeout_s, connections=max(1, concurrency))

    async def acomplete(self, messages: list[dict], params: dict, http: JsonPoster | None) -> Completion:
        owned = http is None
        http = http or self.new_http(1)
        try:
            return await self._with_retries(http, {"model": self.model, "messages": messages, **params})
        finally:
            if owned:
                await http.aclose()

    async def _with_retries(self, http: JsonPoster, body: dict) -> Completion:
        url = f"{self.base_url}/chat/completions"
        last = ""
        for attempt in range(self.retry.max_retries + 1):
            retry_after = None
            try:
                response = await http.post(url, body)
            except TRANSPORT_ERRORS as exc:
                last = f"{type(exc).__name__}: {exc}"
            else:
                if response.status == 200:
                    try:
                        return _parse_completion(response, retries=attempt)
                    except _Retryable as exc:
                        last = str(exc)
                else:
                    last = f"HTTP {response.status}: {response.text[:300]}"
                    if response.status not in RETRY_STATUSES and response.status < 500:
                        raise LLMRequestError(f"{url}: {last}", status=response.status, attempts=attempt + 1)
                    retry_after = parse_retry_after(response.headers.get("retry-after"))
            if attempt < self.retry.max_retries:
                await self.sleep(self.retry.delay_for(attempt, retry_after))
        raise LLMRequestError(f"{url}: gave up after {self.retry.max_retries + 1} attempts; last error {last}",
                              attempts=self.retry.max_retries + 1)


def _parse_completion(response: HttpReply, retries: int) -> Completion:
    try:
        data = response.json()
        message = data["choices"][0]["message"]
        text = message.get("content") or ""
        refusal = message.get("refusal") or ""
        usage = data.get("usage") or {}
        prompt_tokens, completion_tokens = int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
        raise _Retryable(f"malformed chat completion ({type(exc).__name__}: {exc}): {response.text[:200]}") from exc
    if not isinstance(text, str) or not isinstance(refusal, str):
        raise _Retryable(f"malformed chat completion: content is {type(text).__name__}")
    return Completion(text=text, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, retries=retries,
                      refusal=refusal)


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
                                              self.price_out), retries=done.retries, failed=bool(done.error))

    def _write(self, pending: list[tuple[str, str, CachedReply]]) -> None:
        rows, pending[:] = list(pending), []
        self.cache.put_many(rows)

    def forget(self, messages: list[dict], params: dict) -> None:
        """Drop a cached reply (one that failed a stage's validation), so a rerun asks again."""
        self.cache.delete_many([self.key(messages, params)])

    async def abatch(self, requests: list[tuple[list[dict], dict]], *, stage: str,
                     keep_going: bool = False) -> list[Completion]:
        """All requests concurrently (at most `concurrency` in flight); results in input order.

        A request that fails for good raises `LLMRequestError` once the requests already in flight
        have finished (so the ledger counts every request sent); with `keep_going` it becomes a
        `Completion` with `error` set instead and the rest of the batch carries on.
        """
        keys, results = self._hits(requests, stage)
        misses = [i for i, r in enumerate(results) if r is None]
        pending: list[tuple[str, str, CachedReply]] = []
        self._progress = Progress(f"{stage} ({self.backend.model})", len(misses),
                                  log=get_dagster_logger("mmeb").info) if misses else None
        try:
            if misses and hasattr(self.backend, "complete_many") and len(misses) > 1:
                done = await asyncio.to_thread(self.backend.complete_many, [requests[i] for i in misses])
                for index, completion in zip(misses, done):
                    self._store(index, completion, keys, results, pending, stage)
            elif misses:
                await self._concurrent(requests, keys, misses, results, pending, stage, keep_going)
        finally:
            self._write(pending)
            self.ledger.flush()
            if self._progress is not None:
                self._progress.close()
                self._progress = None
        return results  # type: ignore[return-value]

    def _store(self, index, completion: Completion, keys, results, pending, stage) -> None:
        results[index] = completion
        if completion.cacheable:
            pending.append((keys[index], self.backend.model, _reply(completion)))
        self._account(completion, stage)
        if len(pending) >= self.WRITE_EVERY:
            self._write(pending)

    async def _concurrent(self, requests, keys, misses, results, pending, stage, keep_going: bool) -> None:
        """`concurrency` workers, each with its own one-connection HTTP client, drain a shared queue.

        One pool of N connections shared by all tasks costs O(N) bookkeeping per request in httpcore
        (every idle connection is polled on each assignment); N pools of one connection do not.
        """
        queue: asyncio.Queue[int] = asyncio.Queue()
        for index in misses:
            queue.put_nowait(index)
        new_http = getattr(self.backend, "new_http", None)
        failures: list[LLMRequestError] = []

        async def worker() -> None:
            http = new_http(1) if new_http else None
            try:
                while not failures or keep_going:
                    try:
                        index = queue.get_nowait()
                    except asyncio.QueueEmpty:
                        return
                    messages, params = requests[index]
                    try:
                        completion = await self.backend.acomplete(messages, params, http)
                    except LLMRequestError as exc:
                        completion = Completion(text="", retries=max(0, exc.attempts - 1), error=str(exc)[:500])
                        if not keep_going:
                            failures.append(exc)
                    self._store(index, completion, keys, results, pending, stage)
            finally:
                if http is not None:
                    await http.aclose()

        tasks = [asyncio.ensure_future(worker()) for _ in range(min(self.concurrency, len(misses)))]
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        if failures:
            raise failures[0]

    async def achat(self, messages: list[dict], params: dict, *, stage: str) -> Completion:
        return (await self.abatch([(messages, params)], stage=stage))[0]


def _reply(done: Completion) -> CachedReply:
    return CachedReply(done.text, done.prompt_tokens, done.completion_tokens)
