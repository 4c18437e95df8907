"""Section reviews: work items for documents that print too few facts to carry a week.

Why: a framework or a questionnaire (the NIST AI RMF, the UK AI Management Essentials) has one
measured quantity or none, but a team adopting it works through its sections. When the fact rows are
fewer than `REVIEW_BELOW`, the week adds a review of some of the document's own numbered sections. The
values of a review (controls checked, open findings, evidence coverage) are the simulated team's own
measurements, drawn from the seed id: they are workspace facts like the invented ones, never numbers
taken from the document, so no page number, id or date is ever dressed up as a result.
"""
from __future__ import annotations

import random

from mmeb_assets.schema.source import SourceFacts

REVIEW_TABLE = "review"
REVIEW_BELOW = 4
MAX_REVIEWS = 6
# column -> (low, high, decimals): three measures a compliance or adoption review records
REVIEW_COLUMNS = {"controls checked": (8, 46, 0), "open findings": (2, 19, 0),
                  "evidence coverage (%)": (35.0, 97.0, 1)}


def review_sections(facts: SourceFacts) -> list[str]:
    """The sections reviewed: up to `MAX_REVIEWS` of the document's numbered titles, spread over it."""
    titles = facts.sections
    if len(titles) <= MAX_REVIEWS:
        return list(titles)
    step = len(titles) / MAX_REVIEWS
    return [titles[int(i * step)] for i in range(MAX_REVIEWS)]


def _printed(facts: SourceFacts) -> set[str]:
    values = {f.value for f in facts.facts} | {c.strip() for t in facts.tables for r in t.rows for c in r}
    return {v for v in values if v}


def review_table(facts: SourceFacts) -> list[dict[str, str]]:
    """Values per reviewed section, the same for the same seed; no value repeats within the project or
    equals a number the document prints (a question about one could be answered from the other)."""
    rng = random.Random(f"{facts.seed_id}|section-reviews")
    used = _printed(facts)
    out = []
    for _title in review_sections(facts):
        row = {}
        for column, (low, high, decimals) in REVIEW_COLUMNS.items():
            value = _draw(rng, low, high, decimals)
            while value in used:
                value = _draw(rng, low, high, decimals)
            used.add(value)
            row[column] = value
        out.append(row)
    return out


def _draw(rng: random.Random, low: float, high: float, decimals: int) -> str:
    value = rng.uniform(low, high)
    return str(int(round(value))) if decimals == 0 else f"{value:.{decimals}f}"


def review_values(facts: SourceFacts, index: int | None) -> dict[str, str] | None:
    """The values of review `index`, or None when there is no such review."""
    table = review_table(facts)
    if index is None or not 0 <= index < len(table):
        return None
    return table[index]


def review_rows(facts: SourceFacts, archetype: str) -> list[dict]:
    """Reviews as plan rows (table_id `REVIEW_TABLE`, row_index = review number)."""
    kind = "analysis" if archetype == "analysis_firm" else "progression"
    return [{"kind": kind, "label": f"{title} review", "values": values, "table_id": REVIEW_TABLE,
             "row_index": index, "dataset": ""}
            for index, (title, values) in enumerate(zip(review_sections(facts), review_table(facts)))]
