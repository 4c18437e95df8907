"""The one place a stage's pydantic model becomes the JSON schema a model decodes under.

Why: a small model asked for JSON in the prompt alone rarely returns it (SmolLM2-135M: 0 of 20
on a vLLM server); constrained decoding under the stage's schema makes every reply parse. The
same schema goes to an OpenAI-compatible server as `response_format` (json_schema, strict) and
to the in-process backends' grammar decoder, so every backend is held to one contract.

Strict mode needs: every property required, `additionalProperties: false`, no `default`.
Bounds are added because a constrained weak model otherwise keeps writing inside a string or
an array until `max_tokens` cuts the JSON: every string gets a `maxLength` and every array a
`maxItems` (a field's own `max_length` / `json_schema_extra` bound wins when it is set; a string
with a `pattern` is bounded by it).
"""
from __future__ import annotations

import copy
import functools
import re

from pydantic import BaseModel

MAX_STRING = 200   # characters, for a string field without its own bound
MAX_ITEMS = 8      # entries, for an array field without its own bound
_DROP = ("default", "title", "examples")


def _bound(node: dict, max_string: int, max_items: int) -> dict:
    """One schema node made strict and bounded, recursing into every sub-schema."""
    node = {k: v for k, v in node.items() if k not in _DROP}
    kinds = node.get("type")
    kinds = set(kinds) if isinstance(kinds, list) else {kinds}
    if "string" in kinds and not {"enum", "const", "format", "pattern"} & set(node):
        node.setdefault("maxLength", max_string)  # a pattern bounds its own length
    if "array" in kinds:
        node.setdefault("maxItems", max(max_items, node.get("minItems", 0)))
    if "object" in kinds or "properties" in node:
        props = node.get("properties", {})
        node["properties"] = {k: _bound(v, max_string, max_items) for k, v in props.items()}
        node["required"] = list(props)
        node["additionalProperties"] = False
    for key in ("items", "additionalItems", "not"):
        if isinstance(node.get(key), dict):
            node[key] = _bound(node[key], max_string, max_items)
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        if isinstance(node.get(key), list):
            node[key] = [_bound(v, max_string, max_items) for v in node[key]]
    if "$defs" in node:
        node["$defs"] = {k: _bound(v, max_string, max_items) for k, v in node["$defs"].items()}
    return node


@functools.lru_cache(maxsize=256)
def _cached(model: type[BaseModel], max_string: int, max_items: int) -> dict:
    return _bound(model.model_json_schema(mode="validation"), max_string, max_items)


def strict_schema(model: type[BaseModel], *, max_string: int = MAX_STRING, max_items: int = MAX_ITEMS) -> dict:
    """The model's JSON schema, strict and bounded (a fresh copy: callers may change it)."""
    return copy.deepcopy(_cached(model, max_string, max_items))


def schema_name(model: type[BaseModel]) -> str:
    """OpenAI requires ^[a-zA-Z0-9_-]{1,64}$ for json_schema.name."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", model.__name__)[:64] or "reply"


def response_format(model: type[BaseModel], **bounds) -> dict:
    """The OpenAI chat-completions `response_format` for a stage's reply model."""
    return {"type": "json_schema",
            "json_schema": {"name": schema_name(model), "strict": True, "schema": strict_schema(model, **bounds)}}


def schema_of(params: dict) -> dict | None:
    """The JSON schema a request's `response_format` asks for, or None (free text)."""
    fmt = params.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return (fmt.get("json_schema") or {}).get("schema")
    return None
