"""Visual-only questions whose gold value a text-only reader could read from stored text.

A question whose gold evidence is all visual records (report pages, slides, images) tests reading
pixels only if its value is absent from the stored text of that evidence. Named coincidences are
allowed: a year that the record's title or header also carries (a report titled '... 2023') or that
the caption lists among all the year columns, the
record's author (metadata the paper's stored text keeps: 'who wrote report v1?'), yes/no verdicts
(a derived answer, not a drawn value), one-character values, the header's timestamp, and an
answer the question itself names as one of its choices ('which is higher: A or B?').
"""
from __future__ import annotations

import re

from mmeb_assets.qa.text import contains_value
from mmeb_assets.schema import QAItem, Record

YEAR = re.compile(r"(19|20)\d\d")
STAMP = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}")


def coincidence(value: str, record: Record) -> str:
    """Why a value in the stored text does not count as a leak ('' when it does)."""
    if len(value.strip()) <= 1:
        return "one character"
    if re.match(r"(yes|no)\b", value.strip(), re.IGNORECASE):
        return "a yes/no verdict (derived by the reader, not drawn)"
    if value.strip() == record.text.split("\n", 1)[0].split("] ", 1)[-1].split(" — ")[0].strip():
        return "the author, which the paper's stored text carries as metadata"
    if YEAR.fullmatch(value.strip()) and (value in record.title or value in record.text.split("\n", 1)[0]):
        return "a year in the title or header"
    columns = re.search(r"columns:? (.*)$", record.text, re.MULTILINE)
    if YEAR.fullmatch(value.strip()) and columns and value in columns.group(1).split(", "):
        return "a year column the caption lists with all the others (it does not single out the answer)"
    return ""


def leaks(item: QAItem, by_id: dict[str, Record]) -> list[str]:
    """Evidence ids whose stored text carries the gold value of a visual-only question."""
    if item.answer_status != "answerable" or item.evidence_stats.modality != "visual" or not item.gold.value:
        return []
    if contains_value(item.q, item.gold.value):
        return []   # a choice the question itself names ('which is higher: A or B?'): the caption adds nothing
    out = []
    for rid in item.evidence:
        record = by_id.get(rid)
        text = STAMP.sub(" ", record.text) if record else ""   # the header's timestamp is metadata
        if record and contains_value(text, item.gold.value) and not coincidence(item.gold.value, record):
            out.append(rid)
    return out


def leak_share(items: list[QAItem], by_id: dict[str, Record]) -> tuple[int, int]:
    """(visual-only questions with the value in stored text, visual-only questions with a value)."""
    visual = [i for i in items if i.answer_status == "answerable" and i.evidence_stats.modality == "visual"
              and i.gold.value]
    return sum(bool(leaks(i, by_id)) for i in visual), len(visual)
