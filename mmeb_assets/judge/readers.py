"""Diagnostic readers: no model, only surface matching. They audit the benchmark for shortcuts.

A reader finds the lines of the supplied records that share the most content words with the
question, takes the values of the kind the question asks for (a number, or a name/identifier) that
the question does not already state, and answers with the one in the latest record (`latest`) or the
earliest (`first`). With `evidence: gold` it reads the gold evidence instead of the retrieval (an
oracle-evidence setting). If a reader scores high on a task, the task can be solved by a shortcut:
that is a finding to report. The readers never look at the reference answer.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from mmeb_assets.schema.records import Record


def presentation_order(records: list[Record]) -> list[Record]:
    """Timestamp, then stored order, then id: the order the records reach a model and a reader."""
    return sorted(records, key=lambda r: (r.timestamp, r.order, r.id))


ABSTAIN = "Not established in the records."
STOPWORDS = frozenset(
    "a an the of to in on at for from by with and or is are was were be been being what which who whom whose "
    "when where why how many much does do did that this these those it its as than then into per after before "
    "according record records value values number their there has have had most least latest first last "
    "current currently final reported report stated state says said any all not no".split()
)
NUMBER = re.compile(r"(?<![\w.@/#-])[-+]?\$?\d[\d,]*(?:\.\d+)?%?(?![\w@])")
PERSON = re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)+\b")
YES_NO = re.compile(r"^\s*(do|does|did|is|are|was|were|can|could|has|have|had|will|would|should)\b", re.I)
ENTITY = re.compile(r"\b(?:[A-Z][\w-]*\d[\w-]*|[a-z]+_[\w]+|[A-Z][a-z]+(?:[ -][A-Z][\w-]+)*)\b")
NUMERIC_QUESTION = re.compile(
    r"\b(how many|how much|by how|what percentage|percent|ratio|difference|total|average|sum|count|rate|"
    r"score|value|cost|budget|amount|number|size|latency|accuracy|f1|ndcg|recall|precision|auc|bleu)\b", re.I)


SUFFIXES = ("ing", "ers", "er", "ed", "es", "s")


def stem(word: str) -> str:
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word[-len(suffix) - 1].isdigit():
            return word[: -len(suffix)]
    return word


def terms(text: str) -> set[str]:
    return {stem(w) for w in re.findall(r"[a-z0-9@_]+", text.lower()) if w not in STOPWORDS and len(w) > 1}


@lru_cache(maxsize=1 << 17)
def line_terms(line: str) -> frozenset[str]:
    """`terms` of a record line, kept: every question reads the lines of its top-k records again (the
    same few thousand records for 1,800 questions x 3 k x 2 readers), and the terms were most of
    the readers' time."""
    return frozenset(terms(line))


def wants_number(question: str) -> bool:
    """Who / which ask for a name; how much / many and 'what <measure>' ask for a number."""
    q = question.strip().lower()
    if q.startswith(("who", "which", "whose")):
        return False
    if q.startswith(("how many", "how much", "by how")):
        return True
    metric = re.search(r"\b[A-Z]{2,}\b|@\d|\(\w+\)|%", question)
    return bool(NUMERIC_QUESTION.search(question) or metric or re.search(r"\b(recorded|measured)\b", q))


@dataclass(frozen=True)
class Mention:
    position: int  # record position in presentation order
    line: int
    overlap: int
    value: str


def _candidates(line: str, question: str, numeric: bool) -> list[str]:
    asked = question.lower()
    kind = "number" if numeric else "person" if question.strip().lower().startswith(("who", "whose")) else "entity"
    return [v for v in line_values(line, kind) if v.lower().strip("$%") not in asked]


@lru_cache(maxsize=1 << 17)
def line_values(line: str, kind: str) -> tuple[str, ...]:
    """The values of one kind ('number', 'person', 'entity') printed on a record line, kept like
    `line_terms`: they do not depend on the question, and the regex scans of the same lines for
    every question that retrieves them were most of the readers' time after the terms (py-spy,
    30-project QA-only rebuild: 20.6 of the 46.7 sampled CPU seconds of `answers`)."""
    if kind == "number":
        return tuple(m.group(0) for m in NUMBER.finditer(line))
    if kind == "person":
        return tuple(m.group(0) for m in PERSON.finditer(line))
    return tuple(m.group(0) for m in ENTITY.finditer(line) if not _sentence_initial_word(line, m))


def _sentence_initial_word(line: str, match: re.Match) -> bool:
    """'Correction:' or 'The' at a sentence start is not a name; 'Bo Chen' or 'run_03' would be."""
    value = match.group(0)
    if " " in value or "-" in value or "_" in value or any(c.isdigit() for c in value):
        return False
    before = line[: match.start()].rstrip()
    return not before or before.endswith((":", ".", "!", "?"))


@lru_cache(maxsize=1 << 15)
def text_lines(text: str) -> tuple[str, ...]:
    """The non-blank lines of a record's text (split once per text, not once per question)."""
    return tuple(line for line in text.splitlines() if line.strip())


def mentions(question: str, records: list[Record], numeric: bool, sees_pixels: bool = False) -> list[Mention]:
    """Every value of the asked kind on a line that shares content words with the question; with
    `sees_pixels` (the oracle, an ideal multimodal reader) also the text drawn in visual records."""
    wanted = terms(question)
    found: list[Mention] = []
    who = question.strip().lower().startswith(("who", "whose"))
    for position, record in enumerate(presentation_order(records)):
        text = f"{record.text}\n{record.pixel_text}" if sees_pixels and record.pixel_text else record.text
        lines = text_lines(text)
        # The source header names the author: skipped as metadata, except when the question asks who.
        for number, line in enumerate(lines if who or len(lines) <= 1 else lines[1:]):
            overlap = len(wanted & line_terms(line))
            if overlap == 0:
                continue
            for value in _candidates(line, question, numeric):
                found.append(Mention(position, number, overlap, value))
    return found


def read_answer(question: str, records: list[Record], policy: str, sees_pixels: bool = False) -> str:
    """The latest (or first) mention of a matching value on the best-matching lines; 'Yes' to a
    yes/no question (the constant guess: a high score flags an unbalanced yes/no split)."""
    if YES_NO.match(question):
        return "Yes"
    numeric = wants_number(question)
    found = (mentions(question, records, numeric, sees_pixels)
             or mentions(question, records, not numeric, sees_pixels))
    if not found:
        return ABSTAIN
    best = max(m.overlap for m in found)
    top = [m for m in found if m.overlap == best]
    if policy == "latest":
        chosen = max(top, key=lambda m: (m.position, m.line, top.index(m)))
    elif policy == "first":
        chosen = min(top, key=lambda m: (m.position, m.line, top.index(m)))
    else:
        raise ValueError(f"unknown reader policy {policy!r} (latest | first)")
    return chosen.value
