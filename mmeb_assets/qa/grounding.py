"""What a question rests on: a value or statement of the seed document, a workspace fact, or a number
the simulated team measured itself.

Why: most questions of a random sample are workspace questions (a budget, an owner, a deadline), so a
sample hides how much of the benchmark the seed document shapes. The basis is traced, not guessed:
each question's `derivation.fact_key` names the plan items, errors, events, facts and tables it was
built from; an item is the document's when it comes from a source table, a prose claim or a stated
requirement of the seed, and the team's own when it is a section review (`simulation/reviews.py`).
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from mmeb_assets.schema import EventPlan, QAItem

Basis = Literal["document", "review", "workspace"]
REVIEW_TABLE = "review"
TOKEN = re.compile(r"[A-Za-z][\w-]*")


@dataclass
class ShareRow:
    """One project's (or the build's) answerable questions by what they rest on."""

    project: str
    counts: Counter = field(default_factory=Counter)

    @property
    def answerable(self) -> int:
        return sum(self.counts.values())

    def share(self, basis: Basis = "document") -> float:
        return self.counts[basis] / self.answerable if self.answerable else 0.0


class PlanTrace:
    """Resolves the ids a fact key names to the seed's tables, claims and statements, or the workspace."""

    def __init__(self, plan: EventPlan):
        self.items = {i.id: i for i in plan.items}
        self.errors = {e.id: e.target.split(":")[0] for e in plan.errors}
        self.events = {e.id: list(e.refs) for e in plan.events}
        self.documents = {d.id: [*d.item_ids, *d.pending_item_ids] if d.table_id else [] for d in plan.documents}
        self.tables = {d.table_id for d in plan.documents if d.table_id}
        self.tables |= {i.table_id for i in plan.items if i.table_id and i.table_id != REVIEW_TABLE}

    def basis(self, fact_key: str) -> Basis:
        kinds = {self._kind(token, depth=0) for token in TOKEN.findall(fact_key or "")}
        if "document" in kinds:
            return "document"
        return "review" if "review" in kinds else "workspace"

    def _kind(self, token: str, depth: int) -> str:
        if token == REVIEW_TABLE:
            return "review"
        if token in self.items:
            return "review" if self.items[token].table_id == REVIEW_TABLE else "document"
        if token in self.tables:
            return "document"
        if depth > 2:
            return ""
        refs = [self.errors[token]] if token in self.errors else self.events.get(token) or self.documents.get(token) or []
        kinds = {self._kind(ref, depth + 1) for ref in refs}
        return "document" if "document" in kinds else "review" if "review" in kinds else ""


def question_basis(question: QAItem, trace: PlanTrace) -> Basis:
    return trace.basis(question.derivation.fact_key if question.derivation else "")


def share_row(project: str, questions: list[QAItem], plan: EventPlan) -> ShareRow:
    trace = PlanTrace(plan)
    row = ShareRow(project)
    for question in questions:
        if question.answer_status == "answerable":
            row.counts[question_basis(question, trace)] += 1
    return row
