"""Judges: the strict rules judge for offline runs (rules_judge.py), and LLM-as-judge through the shared client.

The rules judge gives every verdict a reason code (see rules_judge.py for the rules). The LLM judge
gets question, reference and candidate as JSON-encoded strings (untrusted data) and must reply with
exactly {"correct": bool, "reason": str}.
"""
from __future__ import annotations

import json

from pydantic import BaseModel, ValidationError

from mmeb_assets.judge.answer_text import abstains, normalize
from mmeb_assets.judge.rules import Verdict, judge_rules, question_options, question_precision
from mmeb_assets.prompts import PromptTemplate, load_prompt
from mmeb_assets.schema.qa import QAItem
from mmeb_resources.llm import LLMError, LLMResource, extract_json_object, failure_reason

RULES_JUDGE = "rules"
RULES_JUDGE_VERSION = "rules-strict-v2"  # provenance: which rule set produced a 'rules' verdict
__all__ = ["RULES_JUDGE", "RULES_JUDGE_VERSION", "JudgeVerdict", "Verdict", "abstains", "judge_llm_batch",
           "judge_messages", "judge_prompt", "judge_rules", "normalize", "question_options", "question_precision",
           "validate_verdict_reply"]


class JudgeVerdict(BaseModel):
    correct: bool
    reason: str


def judge_prompt() -> PromptTemplate:
    return load_prompt("evaluation", "judge")


def judge_messages(template: PromptTemplate, item: QAItem, candidate: str) -> list[dict]:
    """Each field is a JSON string literal: quotes and braces in the candidate cannot escape it."""
    return template.messages(question_json=json.dumps(item.q, ensure_ascii=False),
                             reference_json=json.dumps(item.gold.answer, ensure_ascii=False),
                             candidate_json=json.dumps(candidate, ensure_ascii=False))


def validate_verdict_reply(text: str) -> tuple[JudgeVerdict | None, str]:
    try:
        raw = extract_json_object(text)
    except ValueError as exc:
        return None, str(exc)
    if set(raw) != {"correct", "reason"}:
        return None, f"expected exactly the keys correct, reason; got {sorted(raw)}"
    if not isinstance(raw["correct"], bool):
        return None, "'correct' must be true or false"
    try:
        return JudgeVerdict.model_validate(raw), ""
    except ValidationError as exc:
        return None, str(exc)[:300]


def judge_llm_batch(llm: LLMResource, items: list[QAItem], candidates: list[str]) -> list[Verdict]:
    """One batched pass; replies that break the contract are evicted from the cache and re-asked with
    the error appended. An item whose request fails for good, or whose replies never fit the
    contract, gets `ok=False` and the reason (the caller uses the rules verdict)."""
    template = judge_prompt()
    batch = [judge_messages(template, item, cand) for item, cand in zip(items, candidates)]
    params = {"max_tokens": 256, "temperature": 0.0, **llm.json_params(JudgeVerdict)}
    replies = llm.chat_batch(batch, stage="evaluation.judge", keep_going=True, **params)
    verdicts: list[Verdict] = []
    for item, cand, messages, reply in zip(items, candidates, batch, replies):
        if reply.error:
            verdicts.append(Verdict(False, f"LLM judge request failed: {reply.error[:200]}", ok=False))
            continue
        parsed, error = validate_verdict_reply(reply.text)
        if parsed is None:
            llm.forget(messages, **params)
            try:
                result = llm.generate_json(
                    template, {"question_json": json.dumps(item.q), "reference_json": json.dumps(item.gold.answer),
                               "candidate_json": json.dumps(cand)}, JudgeVerdict, stage="evaluation.judge")
                parsed = result.value  # type: ignore[assignment]
            except LLMError as exc:
                verdicts.append(Verdict(False, f"LLM judge reply invalid ({error[:80]}); {failure_reason(exc, 160)}",
                                        ok=False))
                continue
        verdicts.append(Verdict(bool(parsed.correct), parsed.reason.strip()[:300]))
    return verdicts
