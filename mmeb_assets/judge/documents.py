"""Judging a list of documents ('which documents then current still showed the old value?').

Why a module of its own: the answer is a set. Every document of the reference must be named, in any
wording that keeps all of its name's words ('the v1 evaluation report of Quiet Foxglove' names
'Quiet Foxglove evaluation report v1'), and a document the reference does not have, named beside them
('... and the Notion results log'), makes the answer wrong, as a missing one does.
"""
from __future__ import annotations

import re

from mmeb_assets.judge import answer_text as at

DOCUMENT_WORDS = re.compile(r"\b(?:report|deck|slides?|chart|page|log|tracker|notion|sheet|spreadsheet|dashboard|"
                            r"doc|document|image|screenshot|board|email|wiki|minutes)\b", re.I)
NOT_A_CLAIM = re.compile(r"\b(?:not|no longer|already|had been|was updated|were updated|correct(?:ly)?|current)\b",
                         re.I)
SEGMENT = re.compile(r"\s*(?:[,;\n]|\band\b|\bplus\b|\bas well as\b)\s*", re.I)


def _segments(candidate: str) -> list[str]:
    text = re.sub(r"\([^()]*\)", " ", candidate)  # '(showing 25.42 instead of 26.22)' describes, names nothing
    return [s.strip(" .:-*") for s in SEGMENT.split(text) if s and s.strip(" .:-*")]


def _names(member: str, segment: str) -> bool:
    want = set(at.name_tokens(member))
    return bool(want) and (bool(at.find_name(member, segment)) or want <= set(at.name_tokens(segment)))


def judge_documents(members: list[str], candidate: str) -> tuple[str, str]:
    """(code, detail): 'correct_list', 'missing_component' or 'extra_component'."""
    segments = _segments(candidate)
    missing = [m for m in members if not any(_names(m, s) for s in segments)
               and not (at.find_name(m, candidate) or set(at.name_tokens(m)) <= set(at.name_tokens(candidate)))]
    if missing:
        return "missing_component", "missing: " + "; ".join(missing)[:160]
    for segment in segments:
        if DOCUMENT_WORDS.search(segment) and not NOT_A_CLAIM.search(segment) \
                and not any(_names(m, segment) for m in members):
            return "extra_component", f"names a document the reference does not have: {segment[:80]!r}"
    return "correct_list", "every document, none extra"
