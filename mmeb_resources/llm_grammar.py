"""Decoding under a JSON schema in process (the transformers backend), with lm-format-enforcer.

Why: an OpenAI-compatible server (vLLM) decodes under `response_format`; the in-process backend
must hold the model to the same contract, else the embedded model would be judged by a looser
rule than the served one. lm-format-enforcer is pure Python (no compiler, no triton), so it
installs in seconds on a CPU machine; its transformers glue does not import under transformers 5,
so the few lines that join its `TokenEnforcer` to `generate` are here.

A schema the enforcer cannot parse, or the package missing, is reported once and the request is
decoded without constraint (the stage still validates the reply and falls back as before).
"""
from __future__ import annotations

import functools
import logging
import threading
from typing import Any

log = logging.getLogger("mmeb.llm")
_DATA: dict[int, Any] = {}
_DATA_LOCK = threading.Lock()
MISSING = ("lm-format-enforcer is not installed: in-process generation runs without the stage's schema "
           "(pip install lm-format-enforcer)")


def available() -> bool:
    try:
        import lmformatenforcer  # noqa: F401
    except ImportError:
        return False
    return True


@functools.lru_cache(maxsize=1)
def _warn_missing() -> None:
    log.warning(MISSING)


def _regular_tokens(tokenizer, vocab_size: int) -> list[tuple[int, str, bool]]:
    """(id, text, starts a word) for every non-special token: decoded after a '0' token so that
    a leading space survives (the enforcer matches characters, not ids)."""
    zero = tokenizer.encode("0", add_special_tokens=False)[-1]
    special = set(tokenizer.all_special_ids)
    out = []
    for token in range(vocab_size):
        if token in special:
            continue
        after_zero = tokenizer.decode([zero, token])[1:]
        alone = tokenizer.decode([token])
        out.append((token, after_zero, len(after_zero) > len(alone)))
    return out


def tokenizer_data(tokenizer, vocab_size: int):
    """The enforcer's per-tokenizer prefix tree (a few seconds to build), once per process."""
    from lmformatenforcer import TokenEnforcerTokenizerData

    key = id(tokenizer)
    with _DATA_LOCK:
        if key not in _DATA:
            decode = lambda ids: tokenizer.decode(ids).rstrip("\ufffd")  # noqa: E731
            _DATA[key] = TokenEnforcerTokenizerData(_regular_tokens(tokenizer, vocab_size), decode,
                                                    tokenizer.eos_token_id, False, vocab_size)
        return _DATA[key]


class SchemaLogitsProcessor:
    """A transformers logits processor: every token the schema does not allow next gets -inf."""

    def __init__(self, enforcer):
        self.enforcer = enforcer

    def __call__(self, input_ids, scores):
        import torch

        mask = torch.full_like(scores, float("-inf"))
        for row, sequence in enumerate(input_ids.tolist()):
            allowed = self.enforcer.get_allowed_tokens(sequence)
            allowed = getattr(allowed, "allowed_tokens", allowed)  # a TokenList in 0.11, a list before
            ids = [t for t in allowed if t < scores.shape[-1]]
            mask[row, torch.tensor(ids, dtype=torch.long)] = 0.0
        return scores + mask


def schema_processor(tokenizer, schema: dict, vocab_size: int) -> SchemaLogitsProcessor | None:
    """A processor that holds generation to `schema`, or None (reported) when that cannot be done."""
    if not available():
        _warn_missing()
        return None
    from lmformatenforcer import JsonSchemaParser, TokenEnforcer

    try:
        parser = JsonSchemaParser(schema)
        return SchemaLogitsProcessor(TokenEnforcer(tokenizer_data(tokenizer, vocab_size), parser))
    except Exception as exc:  # the enforcer rejects some schema features; decode free, validate after
        log.warning("schema not enforceable in process (%s: %s); decoding without it", type(exc).__name__, exc)
        return None
