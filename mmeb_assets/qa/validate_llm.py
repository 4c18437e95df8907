"""The LLM implementation of the three validation stages (prompts in prompt_templates/qa/)."""
from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel

from mmeb_assets.prompts import load_prompt
from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.validate_rules import Fix, cited_ids
from mmeb_assets.schema import QAItem, Record, StageVerdict

CATEGORIES = {"gold_wrong", "ambiguous_question", "evidence_insufficient", "unanswerable_is_answerable", "leak", "none"}
RECORD_CHARS = 700
ALL_RECORDS_CHARS = 60_000


class Stage1Reply(BaseModel):
    answer: str = ""
    knowable: bool
    reason: str = ""


class Stage2Reply(BaseModel):
    asked_object: str = ""
    verdict: Literal["match", "partial", "mismatch"]
    cause: Literal["none", "different_value", "wrong_entity", "missing_required_part", "candidate_abstained",
                   "answered_unanswerable", "other"] = "none"
    reason: str = ""


class Competing(BaseModel):
    answer: str | None = None
    records: list[str] = []
    equally_valid: bool = False


class Numbers(BaseModel):
    wrong_or_unverified: list[str] = []
    note: str = ""


class Status(BaseModel):
    ok: bool = True
    note: str = ""


class FixReply(BaseModel):
    q: str | None = None
    gold: str | None = None
    evidence_add: list[str] | None = None
    note: str = ""


class Stage3Reply(BaseModel):
    competing_answer: Competing = Competing()
    numbers: Numbers = Numbers()
    status: Status = Status()
    evidence_sufficient: bool = True
    verdict: Literal["pass", "fix", "drop"]
    category: str = "none"
    fix: FixReply = FixReply()


def render_record(record: Record, limit: int = RECORD_CHARS) -> str:
    image = f" [image: {record.image_path}]" if record.image_path else ""
    text = record.text if len(record.text) <= limit else record.text[:limit] + " ..."
    return f"<record id={record.id} source={record.source} time={record.timestamp:%Y-%m-%d %H:%M}{image}>\n{text}\n</record>"


def render_records(records: list[Record], budget: int = ALL_RECORDS_CHARS) -> str:
    parts, used = [], 0
    for record in records:
        block = render_record(record)
        if used + len(block) > budget:
            parts.append(f"... ({len(records) - len(parts)} more records not shown)")
            break
        parts.append(block)
        used += len(block)
    return "\n".join(parts)


def records_budget(llm, chars_per_token: int = 2, reserve_tokens: int = 1500) -> int:
    """Characters of project records that fit the model's context beside the reply and the rest of
    the prompt (an 8k-context SmolLM2 on vLLM answered HTTP 400 to the 60,000-character default).
    Records run ~2.2 characters per token (ids, timestamps; SmolLM2 tokenizer on a demo seed)."""
    context = int(getattr(llm, "max_context_tokens", 0) or 0)
    if context <= 0:
        return ALL_RECORDS_CHARS
    room = (context - int(getattr(llm, "max_tokens", 0) or 0) - reserve_tokens) * chars_per_token
    return max(2_000, min(ALL_RECORDS_CHARS, room))


class LLMValidator:
    """Stage functions with the same shape as the rule ones, backed by `llm.generate_json`."""

    def __init__(self, llm, index: ProjectIndex):
        self.llm, self.index = llm, index
        self.templates = {n: load_prompt("qa", n) for n in ("evidence_answer", "candidate_gold", "full_project")}

    @property
    def name(self) -> str:
        return self.llm.generator_name

    def _cited(self, item: QAItem) -> list[Record]:
        return [self.index.by_id[i] for i in cited_ids(item) if i in self.index.by_id]

    def stage1(self, item: QAItem) -> StageVerdict:
        reply = self.llm.generate_json(self.templates["evidence_answer"],
                                       {"q": item.q, "records": render_records(self._cited(item)) or "(none)"},
                                       Stage1Reply, stage="qa.validate.evidence_answering").value
        return StageVerdict(stage="evidence_answering", verdict="knowable" if reply.knowable else "not_knowable",
                            answer=reply.answer or None, reason=reply.reason, validator=self.name)

    def stage2(self, item: QAItem, s1: StageVerdict) -> StageVerdict:
        reply = self.llm.generate_json(self.templates["candidate_gold"], {
            "q": item.q, "gold": item.gold.answer, "status": item.answer_status,
            "candidate": s1.answer or "(no answer)", "knowable": str(s1.verdict == "knowable").lower(),
        }, Stage2Reply, stage="qa.validate.candidate_gold").value
        return StageVerdict(stage="candidate_gold", verdict=reply.verdict, cause=reply.cause, answer=s1.answer,
                            reason=reply.reason, validator=self.name)

    def stage3(self, item: QAItem, s1: StageVerdict, s2: StageVerdict) -> tuple[StageVerdict, Fix]:
        known = set(self.index.by_id)

        def check(reply: Stage3Reply) -> list[str]:
            errors = []
            if reply.category not in CATEGORIES:
                errors.append(f"category must be one of {sorted(CATEGORIES)}")
            unknown = [i for i in (reply.fix.evidence_add or []) if i not in known]
            if unknown:
                errors.append(f"fix.evidence_add has ids that are not project records: {unknown}")
            return errors

        reply = self.llm.generate_json(self.templates["full_project"], {
            "q": item.q, "gold": item.gold.answer, "status": item.answer_status,
            "solution": json.dumps([s.model_dump() for s in item.solution], ensure_ascii=False),
            "cited_ids": ", ".join(cited_ids(item)) or "(none)",
            "s1_answer": s1.answer or "(none)", "s1_knowable": str(s1.verdict == "knowable").lower(),
            "s2_verdict": s2.verdict, "s2_cause": s2.cause, "s2_reason": s2.reason,
            "cited_records": render_records(self._cited(item)) or "(none)",
            "all_records": render_records(self.index.ordered, records_budget(self.llm)),
        }, Stage3Reply, stage="qa.validate.full_project", validate=check).value
        fix = Fix(q=reply.fix.q or None, gold_answer=reply.fix.gold or None,
                  evidence_add=list(reply.fix.evidence_add or []), note=reply.fix.note)
        reason = "; ".join(x for x in (reply.numbers.note, reply.status.note, reply.fix.note) if x)
        verdict = reply.verdict if reply.verdict != "fix" or not fix.empty else "drop"
        return StageVerdict(stage="full_project", verdict=verdict, cause=reply.category, reason=reason,
                            validator=self.name), fix
