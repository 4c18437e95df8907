"""`mmeb judge --explain`: per answer, the verdict, its reason code and the parts of the gold it
matched or missed.

Why: a verdict alone does not tell a person scoring their own system what to fix; a list gold
('A; B; C') answered with two members, a role swapped, a unit dropped read the same as 'wrong'.
The parts are the gold's own pieces (list members, sequence steps, roles, or the single value), each
looked for in the answer as the judge's value matcher looks for a value.
"""
from __future__ import annotations

import re

from mmeb_assets.evaluation.judge_files import FileVerdict
from mmeb_assets.qa.text import contains_value, normalize
from mmeb_assets.schema import QAItem

PART_SPLIT = re.compile(r"\s*(?:;|->|→)\s*")


def gold_parts(item: QAItem) -> list[str]:
    """The pieces an answer must carry: members of a list, steps of a sequence, roles of an
    attribution ('X flagged it; Y posted the correction'), else the gold value itself."""
    value = str(item.gold.value if item.gold.value not in (None, "") else item.gold.answer)
    parts = [p.strip() for p in PART_SPLIT.split(value) if p.strip()]
    return parts or [value]


def matched(answer: str, part: str) -> bool:
    return contains_value(answer, part) or normalize(part) in normalize(answer)


def explain_line(item: QAItem, answer: str | None, verdict: FileVerdict) -> str:
    """'q-07  WRONG  missing_member  matched: A, B  missed: C' (one line per answer)."""
    parts = gold_parts(item)
    hit = [p for p in parts if answer and matched(answer, p)]
    missed = [p for p in parts if p not in hit]
    mark = "RIGHT" if verdict.correct else "WRONG"
    return (f"{item.id}  {mark}  {verdict.code or '-'}  matched: {', '.join(hit) or '-'}  "
            f"missed: {', '.join(missed) or '-'}")
