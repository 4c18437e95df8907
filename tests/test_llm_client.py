"""The shared LLM client over real HTTP: retries, Retry-After, dropped connections, cache, ledger,
concurrency limit, and the lead's `generate_json` interface on top."""
from __future__ import annotations

import asyncio
import threading

import pytest
from pydantic import BaseModel

from mmeb_assets.prompts import PromptTemplate
from mmeb_resources.llm import LLMResource
from mmeb_resources.llm_cache import ResponseCache
from mmeb_resources.llm_client import LLMClient, LLMRequestError, OpenAIBackend, RetryPolicy, parse_retry_after
from mmeb_resources.llm_ledger import UsageLedger, call_cost
from openai_test_server import DropConnection, Fault, OpenAITestServer

MESSAGES = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hello"}]


class Script:
    """Replies from a list, one per request, then 'ok' forever."""

    def __init__(self, *steps):
        self.steps = list(steps)
        self.lock = threading.Lock()

    def __call__(self, payload):
        with self.lock:
            return self.steps.pop(0) if self.steps else "ok"


def recording_client(server: OpenAITestServer, tmp_path, **policy) -> tuple[LLMClient, list[float]]:
    delays: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        delays.append(seconds)

    backend = OpenAIBackend(server.base_url, "test-model", retry=RetryPolicy(**policy), sleep=fake_sleep, timeout_s=5)
    client = LLMClient(backend, ResponseCache(tmp_path / "cache.sqlite"), UsageLedger(tmp_path / "ledger.sqlite"))
    return client, delays


def test_429_waits_the_retry_after_seconds_then_succeeds(tmp_path):
    with OpenAITestServer(Script(Fault(429, {"Retry-After": "7"}), Fault(429, {"Retry-After": "3"}))) as server:
        client, delays = recording_client(server, tmp_path)
        reply = asyncio.run(client.achat(MESSAGES, {"temperature": 0, "max_tokens": 8}, stage="t"))
    assert reply.text == "ok" and reply.retries == 2
    assert delays == [7.0, 3.0]
    assert len(server.requests) == 3


def test_5xx_and_dropped_connection_are_retried_with_growing_backoff(tmp_path):
    with OpenAITestServer(Script(Fault(503), DropConnection(), Fault(500))) as server:
        client, delays = recording_client(server, tmp_path, base_delay_s=1.0, max_delay_s=60)
        reply = asyncio.run(client.achat(MESSAGES, {"max_tokens": 8}, stage="t"))
    assert reply.text == "ok" and reply.retries == 3
    assert len(delays) == 3
    # full jitter within [delay/2, delay] of 1, 2, 4 seconds
    for delay, nominal in zip(delays, (1, 2, 4)):
        assert nominal / 2 <= delay <= nominal


def test_dropped_connection_over_the_real_resource(tmp_path):
    with OpenAITestServer(Script(DropConnection(), Fault(429, {"Retry-After": "0"}))) as server:
        llm = LLMResource(backend="openai", base_url=server.base_url, model="test-model", home=str(tmp_path),
                          backoff_base_s=0.01)
        assert llm.chat(MESSAGES, stage="t") == "ok"
    assert len(server.requests) == 3
    assert llm.usage("t").retries == 2


def test_client_errors_are_not_retried_and_exhaustion_raises(tmp_path):
    with OpenAITestServer(Script(Fault(400, body='{"error": "bad request"}'))) as server:
        client, delays = recording_client(server, tmp_path)
        with pytest.raises(LLMRequestError) as info:
            asyncio.run(client.achat(MESSAGES, {}, stage="t"))
    assert info.value.status == 400 and len(server.requests) == 1 and delays == []
    with OpenAITestServer(lambda p: Fault(429, {"Retry-After": "1"})) as server:
        client, delays = recording_client(server, tmp_path, max_retries=3)
        with pytest.raises(LLMRequestError, match="gave up after 4 attempts"):
            asyncio.run(client.achat(MESSAGES, {"x": 1}, stage="t"))
    assert len(server.requests) == 4 and delays == [1.0, 1.0, 1.0]


def test_retry_after_http_date():
    assert parse_retry_after("Wed, 21 Oct 2026 07:28:10 GMT", now=0) > 1e9
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0
    assert parse_retry_after("2.5") == 2.5 and parse_retry_after(None) is None and parse_retry_after("soon") is None


def test_second_run_makes_zero_requests_even_from_a_new_resource(tmp_path):
    with OpenAITestServer(lambda p: "answer " + p["messages"][-1]["content"]) as server:
        first = LLMResource(backend="openai", base_url=server.base_url, model="test-model", home=str(tmp_path))
        batch = [[{"role": "user", "content": f"q{i}"}] for i in range(5)]
        texts = [c.text for c in first.chat_batch(batch, stage="answers")]
        assert len(server.requests) == 5
        again = LLMResource(backend="openai", base_url=server.base_url, model="test-model", home=str(tmp_path))
        replies = again.chat_batch(batch, stage="answers")
        assert len(server.requests) == 5, "the cache must answer an unchanged request"
        assert [c.text for c in replies] == texts and all(c.cached for c in replies)
        assert again.usage("answers").requests == 0 and again.usage("answers").cache_hits == 5
        again.chat(batch[0], stage="answers", max_tokens=17)  # other parameters: a new request
        assert len(server.requests) == 6
        other_model = LLMResource(backend="openai", base_url=server.base_url, model="model-b", home=str(tmp_path))
        other_model.chat(batch[0], stage="answers")
        assert len(server.requests) == 7


def test_ledger_counts_tokens_and_cost_per_stage_and_model(tmp_path):
    with OpenAITestServer(lambda p: "x" * 40) as server:
        llm = LLMResource(backend="openai", base_url=server.base_url, model="test-model", home=str(tmp_path),
                          price_prompt_per_mtok=2.0, price_completion_per_mtok=8.0)
        llm.chat([{"role": "user", "content": "a"}], stage="qa")
        llm.chat([{"role": "user", "content": "b"}], stage="judge")
        llm.chat([{"role": "user", "content": "b"}], stage="judge")  # cached
    qa, judge = llm.usage("qa"), llm.usage("judge")
    assert (qa.requests, qa.prompt_tokens, qa.completion_tokens) == (1, 10, 10)
    assert qa.cost_usd == pytest.approx(call_cost(10, 10, 2.0, 8.0)) == pytest.approx(1e-4)
    assert (judge.requests, judge.cache_hits) == (1, 1)
    rows = {(r["stage"], r["model"]): r for r in llm.ledger_rows()}
    assert rows[("judge", "test-model")]["cache_hits"] == 1 and rows[("qa", "test-model")]["prompt_tokens"] == 10


def test_concurrency_limit_is_respected(tmp_path):
    state = {"now": 0, "peak": 0}
    lock = threading.Lock()

    def handler(payload):
        with lock:
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
        threading.Event().wait(0.05)
        with lock:
            state["now"] -= 1
        return "ok"

    with OpenAITestServer(handler) as server:
        llm = LLMResource(backend="openai", base_url=server.base_url, model="test-model", home=str(tmp_path),
                          concurrency=4, use_cache=False)
        llm.chat_batch([[{"role": "user", "content": str(i)}] for i in range(24)], stage="t")
    assert len(server.requests) == 24
    assert 1 < state["peak"] <= 4


class Pick(BaseModel):
    choice: str


def test_generate_json_still_validates_and_reasks_through_the_client(tmp_path):
    template = PromptTemplate(stage="t", name="pick", system="Return JSON.", user="Pick one of {{options}}.")
    with OpenAITestServer(Script("not json", '{"choice": "z"}', '```json\n{"choice": "b"}\n```')) as server:
        llm = LLMResource(backend="openai", base_url=server.base_url, model="test-model", home=str(tmp_path))
        result = llm.generate_json(template, {"options": "a, b"}, Pick, stage="t",
                                   validate=lambda v: [] if v.choice in "ab" else [f"{v.choice} is not an option"])
    assert result.value.choice == "b" and result.tries == 3
    assert "z is not an option" in server.requests[-1]["messages"][-1]["content"]
    assert llm.generator_name == "openai:test-model" and not llm.offline
    assert LLMResource().offline


def test_a_timed_out_request_is_retried(tmp_path):
    slow_first = {"n": 0}

    def handler(payload):
        slow_first["n"] += 1
        if slow_first["n"] == 1:
            threading.Event().wait(1.5)  # longer than the client's timeout
        return "ok"

    with OpenAITestServer(handler) as server:
        llm = LLMResource(backend="openai", base_url=server.base_url, model="test-model", home=str(tmp_path),
                          timeout_s=0.3, backoff_base_s=0.01)
        reply = llm.complete(MESSAGES, stage="t")
    assert reply.text == "ok" and reply.retries >= 1 and len(server.requests) >= 2
