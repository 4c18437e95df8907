"""One LLM resource for every LLM stage.

Backends: `rules` (no model: each stage runs its deterministic twin), `openai` (any
OpenAI-compatible endpoint: OpenAI, vLLM server, llama.cpp server, Ollama). Evaluation adds the
in-process backends. Stages call `generate_json`, which checks the output against a pydantic schema
and a stage validator and regenerates with the accumulated errors fed back, a bounded number of times.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Callable, Literal, TypeVar

from dagster import ConfigurableResource
from pydantic import BaseModel, PrivateAttr, ValidationError

from mmeb_assets.prompts import PromptTemplate

ModelT = TypeVar("ModelT", bound=BaseModel)
Validator = Callable[[BaseModel], list[str]]


class LLMOutputError(RuntimeError):
    """The model did not produce a valid output within the allowed tries."""

    def __init__(self, stage: str, errors: list[str]):
        super().__init__(f"{stage}: no valid output after {len(errors)} error(s): " + " | ".join(errors[-5:]))
        self.stage = stage
        self.errors = errors


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
    """`backend='rules'` runs offline; otherwise `base_url`, `model`, `api_key` (use `EnvVar`)."""

    backend: Literal["rules", "openai"] = "rules"
    model: str = ""
    base_url: str = ""
    api_key: str = ""
    temperature: float = 0.0
    max_tokens: int = 2048
    max_json_tries: int = 3
    timeout_s: float = 120.0

    _client: object = PrivateAttr(default=None)

    @property
    def offline(self) -> bool:
        return self.backend == "rules"

    @property
    def generator_name(self) -> str:
        return "rules" if self.offline else f"{self.backend}:{self.model}"

    def _openai(self):
        if self._client is None:
            from openai import OpenAI

            if not self.base_url and not self.api_key:
                raise ValueError("LLMResource(backend='openai') needs base_url or api_key")
            self._client = OpenAI(base_url=self.base_url or None, api_key=self.api_key or "not-needed",
                                  timeout=self.timeout_s, max_retries=3)
        return self._client

    def chat(self, messages: list[dict], *, stage: str, **params) -> str:
        if self.offline:
            raise RuntimeError(f"{stage}: LLMResource backend is 'rules'; call the deterministic twin instead")
        reply = self._openai().chat.completions.create(
            model=self.model, messages=messages,
            temperature=params.get("temperature", self.temperature),
            max_tokens=params.get("max_tokens", self.max_tokens),
        )
        return reply.choices[0].message.content or ""

    def generate_json(self, template: PromptTemplate, variables: dict, schema: type[ModelT], *,
                      stage: str, validate: Validator | None = None) -> JsonResult:
        """Render, call, parse, check; on failure re-ask with every error so far appended."""
        base = template.messages(**variables)
        errors: list[str] = []
        for attempt in range(1, self.max_json_tries + 1):
            messages = [dict(m) for m in base]
            if errors:
                messages[-1]["content"] += (
                    "\n\nYour previous output failed validation. Fix every problem listed and return the "
                    "whole JSON object again:\n- " + "\n- ".join(errors)
                )
            reply = self.chat(messages, stage=stage)
            try:
                value = schema.model_validate(extract_json_object(reply))
            except (ValueError, ValidationError) as exc:
                errors.append(f"try {attempt}: invalid JSON for {schema.__name__}: {str(exc)[:400]}")
                continue
            problems = validate(value) if validate else []
            if not problems:
                return JsonResult(value=value, tries=attempt, errors=errors,
                                  prompt_hash=template.hash, model=self.model)
            errors.extend(f"try {attempt}: {p}" for p in problems)
        raise LLMOutputError(stage, errors)
