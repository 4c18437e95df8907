"""One LLM resource for every LLM stage.

Backends: `rules` (no model: each stage runs its deterministic twin), `openai` (any
OpenAI-compatible endpoint: OpenAI, vLLM server, llama.cpp server, Ollama), `transformers`
(in-process, CPU or GPU) and `vllm` (in-process, GPU). Stages call `generate_json`, which checks the
output against a pydantic schema and a stage validator and regenerates with the accumulated errors
fed back, a bounded number of times; `chat` / `achat` / `chat_batch` give plain text.

Every call goes through `LLMClient` (mmeb_resources/llm_client.py): a persistent SQLite response
cache (an unchanged request makes no call), a concurrency limit, retries with backoff honouring
Retry-After, and a token/cost ledger per stage and model (`usage()`, `ledger_rows()`).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from dataclasses import dataclass, field
from typing import Callable, Literal, TypeVar

from dagster import ConfigurableResource
from pydantic import BaseModel, PrivateAttr, ValidationError

from mmeb_resources.prompts import PromptTemplate
from mmeb_resources.llm_cache import ResponseCache
from mmeb_resources.llm_client import Completion, LLMClient, LLMError, OpenAIBackend, RetryPolicy, run_sync
from mmeb_resources.llm_ledger import Usage, UsageLedger
from mmeb_resources.llm_schema import response_format
from mmeb_resources.storage import default_home

ModelT = TypeVar("ModelT", bound=BaseModel)
Validator = Callable[[BaseModel], list[str]]


class LLMOutputError(LLMError):
    """The model did not produce a valid output within the allowed tries."""

    def __init__(self, stage: str, errors: list[str]):
        super().__init__(f"{stage}: no valid output after {len(errors)} error(s): " + " | ".join(errors[-5:]))
        self.stage = stage
        self.errors = errors


def failure_reason(exc: BaseException, limit: int = 240) -> str:
    """One line for provenance and logs: what failed and why (a stage then uses its rules twin)."""
    kind = "no valid output" if isinstance(exc, LLMOutputError) else "request failed"
    text = " ".join(str(exc).split())
    return f"{kind}: {text[:limit]}"


@dataclass
class JsonResult:
    value: BaseModel
    tries: int
    errors: list[str] = field(default_factory=list)
    prompt_hash: str = ""
    model: str = ""


def extract_json_object(text: str) -> dict:
    """The first JSON object in a reply, tolerating code fences and chatter around it."""
    cleaned = re.sub(r"^```(?:json)?|```$", "", text.strip(), flags=re.MULTILINE).strip()
    try:
        value = json.loads(cleaned)
    except json.JSONDecodeError:
        start = cleaned.find("{")
        if start < 0:
            raise ValueError("reply contains no JSON object") from None
        value, _ = json.JSONDecoder().raw_decode(cleaned[start:])
    if not isinstance(value, dict):
        raise ValueError(f"expected a JSON object, got {type(value).__name__}")
    return value


class LLMResource(ConfigurableResource):
    """`backend='rules'` runs offline; otherwise `base_url`, `model`, `api_key` (use `EnvVar`).

    `model_path` is a local folder, a GGUF file or `pkg:<package>/<file>` for in-process backends.
    `model_cache_dir` (default `<home>/cache`) keeps converted GGUF weights under `models/`.
    `structured_outputs` (default on) sends each stage's reply schema as `response_format` (strict
    json_schema with length bounds, mmeb_resources/llm_schema.py) and the in-process backends decode
    under it; off, the schema is only described in the prompt (the bench's baseline).
    `cache_path` / `ledger_path` empty means `<home>/cache/llm_responses.sqlite` and
    `<home>/cache/llm_ledger.sqlite`; `use_cache=False` turns the response cache off.
    """

    backend: Literal["rules", "openai", "transformers", "vllm"] = "rules"
    model: str = ""
    base_url: str = ""
    api_key: str = ""
    model_path: str = ""
    device: str = "auto"
    temperature: float = 0.0
    max_tokens: int = 2048
    max_context_tokens: int = 8192
    max_json_tries: int = 3
    timeout_s: float = 120.0
    concurrency: int = 8
    max_retries: int = 6
    backoff_base_s: float = 0.5
    backoff_max_s: float = 30.0
    use_cache: bool = True
    cache_path: str = ""
    ledger_path: str = ""
    home: str = ""
    model_cache_dir: str = ""
    price_prompt_per_mtok: float = 0.0
    price_completion_per_mtok: float = 0.0
    structured_outputs: bool = True

    _client: object = PrivateAttr(default=None)

    @property
    def offline(self) -> bool:
        return self.backend == "rules"

    @property
    def generator_name(self) -> str:
        return "rules" if self.offline else f"{self.backend}:{self.model}"

    def _home(self) -> Path:
        return Path(self.home).resolve() if self.home else default_home()

    def _make_backend(self):
        if self.backend == "openai":
            if not self.base_url and not self.api_key:
                raise ValueError("LLMResource(backend='openai') needs base_url or api_key")
            retry = RetryPolicy(max_retries=self.max_retries, base_delay_s=self.backoff_base_s,
                                max_delay_s=self.backoff_max_s)
            return OpenAIBackend(self.base_url or "https://api.openai.com/v1", self.model, self.api_key,
                                 self.timeout_s, retry)
        from mmeb_resources.llm_backends import TransformersBackend, VLLMBackend

        if self.backend == "transformers":
            cache_root = Path(self.model_cache_dir) if self.model_cache_dir else self._home() / "cache"
            return TransformersBackend(self.model, self.model_path, self.device, cache_root, self.max_context_tokens)
        if self.backend == "vllm":
            return VLLMBackend(self.model, self.model_path, max_model_len=self.max_context_tokens)
        raise ValueError(f"unknown LLM backend {self.backend!r}")

    def client(self) -> LLMClient:
        """The cache + ledger + backend stack, built on first use."""
        if self.offline:
            raise RuntimeError("LLMResource backend is 'rules'; call the deterministic twin instead")
        if self._client is None:
            cache_root = self._home() / "cache"
            cache = ResponseCache(Path(self.cache_path) if self.cache_path else cache_root / "llm_responses.sqlite"
                                  ) if self.use_cache else ResponseCache(None)
            ledger = UsageLedger(Path(self.ledger_path) if self.ledger_path else cache_root / "llm_ledger.sqlite")
            self._client = LLMClient(self._make_backend(), cache, ledger, concurrency=self.concurrency,
                                     price_in=self.price_prompt_per_mtok, price_out=self.price_completion_per_mtok)
        return self._client  # type: ignore[return-value]

    def _params(self, params: dict) -> dict:
        out = {"temperature": params.get("temperature", self.temperature),
               "max_tokens": params.get("max_tokens", self.max_tokens)}
        if params.get("response_format"):
            out["response_format"] = params["response_format"]
        return out

    def json_params(self, schema: type[BaseModel]) -> dict:
        """`response_format` for a reply model, or nothing when structured outputs are off.
        Part of the request (and so of its cache key): a reply made under no schema is not
        served to a request made under one."""
        return {"response_format": response_format(schema)} if self.structured_outputs else {}

    async def achat(self, messages: list[dict], *, stage: str, **params) -> Completion:
        return await self.client().achat(messages, self._params(params), stage=stage)

    async def achat_batch(self, batch: list[list[dict]], *, stage: str, **params) -> list[Completion]:
        return await self.client().abatch([(m, self._params(params)) for m in batch], stage=stage)

    def chat_batch(self, batch: list[list[dict]], *, stage: str, keep_going: bool = False,
                   **params) -> list[Completion]:
        """Many conversations at once, at most `concurrency` in flight; results in input order.
        With `keep_going`, an item whose request fails for good comes back with `error` set."""
        pairs = [(m, self._params(params)) for m in batch]
        return run_sync(lambda: self.client().abatch(pairs, stage=stage, keep_going=keep_going))

    def forget(self, messages: list[dict], **params) -> None:
        """Evict a reply that failed validation from the response cache (a rerun asks again)."""
        if not self.offline:
            self.client().forget(messages, self._params(params))

    def complete(self, messages: list[dict], *, stage: str, **params) -> Completion:
        return run_sync(lambda: self.achat(messages, stage=stage, **params))

    def chat(self, messages: list[dict], *, stage: str, **params) -> str:
        if self.offline:
            raise RuntimeError(f"{stage}: LLMResource backend is 'rules'; call the deterministic twin instead")
        return self.complete(messages, stage=stage, **params).text

    def usage(self, stage: str | None = None) -> Usage:
        """What this resource instance spent (requests, cache hits, tokens, cost) for a stage."""
        if self._client is None:
            return Usage()
        return self._client.ledger.session_usage(stage=stage, model=self.model)  # type: ignore[attr-defined]

    def ledger_rows(self) -> list[dict]:
        """All-time totals per stage and model from the ledger file."""
        if self.offline:
            return []
        return self.client().ledger.by_stage_and_model()

    def generate_json(self, template: PromptTemplate, variables: dict, schema: type[ModelT], *,
                      stage: str, validate: Validator | None = None) -> JsonResult:
        """Render, call (under `schema` as response_format unless structured outputs are off), parse,
        check; on failure re-ask with every error so far appended."""
        base = template.messages(**variables)
        errors: list[str] = []
        for attempt in range(1, self.max_json_tries + 1):
            messages = [dict(m) for m in base]
            if errors:
                messages[-1]["content"] += (
                    "\n\nYour previous output failed validation. Fix every problem listed and return the "
                    "whole JSON object again:\n- " + "\n- ".join(errors)
                )
            if self.offline:
                raise RuntimeError(f"{stage}: LLMResource backend is 'rules'; call the deterministic twin instead")
            fmt = self.json_params(schema)
            reply = self.complete(messages, stage=stage, **fmt)
            problems = _reply_problems(reply, schema, validate)
            if isinstance(problems, BaseModel):
                return JsonResult(value=problems, tries=attempt, errors=errors,
                                  prompt_hash=template.hash, model=self.model)
            self.forget(messages, **fmt)  # an invalid reply is never served from the cache again
            errors.extend(f"try {attempt}: {p}" for p in problems)
        raise LLMOutputError(stage, errors)


def _reply_problems(reply: Completion, schema: type[ModelT], validate: Validator | None) -> BaseModel | list[str]:
    """The parsed value, or what is wrong with the reply (refusal, empty, bad JSON, failed checks)."""
    if reply.refusal:
        return [f"the model refused: {reply.refusal[:200]}"]
    if not reply.text.strip():
        return ["the reply was empty"]
    try:
        value = schema.model_validate(extract_json_object(reply.text))
    except (ValueError, ValidationError) as exc:
        return [f"invalid JSON for {schema.__name__}: {str(exc)[:400]}"]
    problems = validate(value) if validate else []
    return problems or value
