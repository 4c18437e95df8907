"""Which documents show an old value as current at a given time, read from the rendered records alone.

Why: the stale-document question ("which documents then current still showed the old value?") is
generated from the plan's intent (which document versions were meant to show a slip). A gold built
from intent can miss a page that renders the slip anyway, or list one that never drew it. This
oracle knows nothing of the plan's intent: per document (all versions share a `doc_key`), it takes the
version posted last at or before the time asked and asks its rendered records, text and pixels,
whether they show the old value and not the corrected one.
"""
from __future__ import annotations

import re
from collections import defaultdict
from datetime import datetime

from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.row_lines import row_cells
from mmeb_assets.qa.text import contains_value
from mmeb_assets.schema import QAItem, Record



def stale_titles(index: ProjectIndex, target: str, wrong: str, correct: str, at: datetime) -> set[str]:
    """Titles of the documents whose version current at `at` shows `wrong` as `target`'s value."""
    return set(stale_records(index, target, wrong, correct, at))


def stale_records(index: ProjectIndex, target: str, wrong: str, correct: str, at: datetime) -> dict[str, Record]:
    """Per document title, a record of its version current at `at` that shows `wrong` as `target`'s
    value. A document is what keeps versions: a planned report, deck, tracker or log (`doc_key` of its
    plan), or a Notion page edited over the week (the page's own `doc_key`: its results-log, metric and
    fact pages have no plan document, and a reader sees them all the same)."""
    names = target_names(index, target)
    others = [i.label for i in index.plan.items if i.label not in names]
    versions: dict[str, dict[int, list[Record]]] = defaultdict(lambda: defaultdict(list))
    for record in index.ordered:
        key, version = document_version(index, record)
        if key and record.timestamp <= at:
            versions[key][version].append(record)
    shown: dict[str, Record] = {}
    for by_version in versions.values():
        for record in by_version[max(by_version)]:
            if shows_as_current(index.surface(record).splitlines(), names, others, wrong, correct):
                shown.setdefault(record.title or index.docs[record.doc_id].title, record)
    return shown


def document_version(index: ProjectIndex, record: Record) -> tuple[str, int]:
    """(document key, version) of a record that is a version of a kept document, else ('', 0)."""
    doc = index.docs.get(record.doc_id) if record.doc_id else None
    if doc is not None:
        return doc.doc_key, doc.version
    if record.source == "notion" and record.doc_key:
        return f"notion-page:{record.doc_key}", record.version
    return "", 0


def shows_as_current(lines: list[str], names: list[str], others: list[str], wrong: str, correct: str) -> bool:
    """A line naming the target, or a cell after it before the next row's label (a table drawn one cell
    a line), gives the old value, and that line does not also give the corrected one (a correction or
    a change note names both)."""
    return any(_gives(cell, wrong) and not _gives(cell, correct)
               for n, line in enumerate(lines) if _names(line, names)
               for cell in row_cells(lines, n, lambda cell: _names(cell, others)))


def _gives(line: str, value: str) -> bool:
    """The value in the line: its number, and its unit too where it has one ('48 h' is not '48 min')."""
    if re.search(r"[A-Za-z]", re.sub(r"^[A-Z]{3}\s", "", value)):
        return " ".join(value.lower().split()) in " ".join(line.lower().split())
    return contains_value(line, value)


def target_names(index: ProjectIndex, target: str) -> list[str]:
    """How a line names the value's owner: the item's label (or a name cell only it has), or the
    invented measurement's name."""
    item = index.items.get(target.split(":")[0])
    if item is not None:  # its label, and a name cell only it prints ('Method: LI+D')
        others = {v.strip() for i in index.plan.items if i.id != item.id for v in i.values.values()}
        names = [v.strip() for v in item.values.values() if len(v.strip()) >= 3 and not re.search(r"\d", v)
                 and v.strip() not in others]
        return [item.label, *names]
    fact = next((f for f in index.plan.invented if f.id == target), None)
    return [fact.name] if fact else []


def _names(line: str, names: list[str]) -> bool:
    low = line.lower()
    return any(name.lower() in low for name in names if name)


def stale_gold_problems(index: ProjectIndex, items: list[QAItem]) -> list[str]:
    """One line per stale-document question whose gold is not exactly what the records show."""
    problems = []
    for item in (i for i in items if i.generator.endswith("cross_source.stale")):
        error = next((e for e in index.plan.errors if e.target == item.derivation.fact_key), None)
        correction = index.by_id.get(item.solution[0].record_ids[0]) if item.solution and item.solution[0].record_ids \
            else None
        if error is None or correction is None:
            problems.append(f"{item.id}: no error or correction record behind the question")
            continue
        gold = {t.strip() for t in str(item.gold.value).split(";") if t.strip()}
        shown = stale_titles(index, error.target, error.wrong_value, error.correct_value, correction.timestamp)
        if gold != shown:
            problems.append(f"{item.id}: gold {sorted(gold)} but the records show {sorted(shown)}")
    return problems
