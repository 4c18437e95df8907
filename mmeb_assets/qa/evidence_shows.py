"""Does a question's cited evidence show what the question asks, read from the rendered records alone?

Why: evidence is found by value. A chart of precision that happens to print '0.81' is found for a
question on F1 = 0.81; a tracker row '-' under a row that prints the value is found for the row that
prints '-'. A reader holding those records cannot answer. This oracle knows nothing of how evidence
was chosen: for every table cell a question rests on (its plan row, its column, the values the
records may print for it, the slipped one included) it asks whether some cited record prints the
value in a row that names the asked subject, and names the asked measure somewhere on it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from mmeb_assets.qa.evidence import ProjectIndex, is_table_row
from mmeb_assets.qa.row_lines import tokens
from mmeb_assets.schema import PlanItem, QAItem

KEY_PREFIXES = ("pair:", "corrected:", "corrected-claim:", "claim:", "level:", "rank_claim:")


@dataclass(frozen=True)
class Operand:
    item: PlanItem
    column: str
    values: tuple[str, ...]


def operands(index: ProjectIndex, question: QAItem) -> list[Operand]:
    """The table cells a question rests on, from its derivation's key ('pair:a|b:col', 'a|b:col',
    'table_1:col' with 'label=value' operands); [] for questions on anything else."""
    derivation = question.derivation
    if derivation is None or not derivation.fact_key or ":" not in derivation.fact_key:
        return []
    key = derivation.fact_key
    for prefix in KEY_PREFIXES:
        key = key.removeprefix(prefix)
    ids, _, column = key.rpartition(":")
    items = [index.items[i] for i in ids.split("|") if i in index.items]
    if not items and ids.startswith("table_"):
        labels = {o.split("=", 1)[0].strip() for o in derivation.operands if "=" in o}
        items = [i for i in index.plan.items if i.table_id == ids and i.label in labels]
    out = []
    for item in items:
        if not is_table_row(item):
            return []  # a figure or statement of prose is checked in its own sentence's words
        if column not in item.values:
            return []
        slips = [v for e in index.plan.errors if e.target == f"{item.id}:{column}" for v in (e.wrong_value, e.correct_value)]
        out.append(Operand(item, column, tuple(dict.fromkeys([item.values[column], *slips]))))
    return out


def _names_measure(surface: str, column: str) -> bool:
    """Every word of the column's name is on the record (one may be missing from a long name): a
    chart titled 'Precision' does not name 'F1'."""
    wanted, have = tokens(column), tokens(surface)
    if not wanted:
        return True
    squeezed = re.sub(r"\s+", "", surface.lower())  # a narrow header cell breaks 'Recomme' / 'ndation'
    missing = {w for w in wanted - have if len(w) < 5 or w not in squeezed}
    return not missing or len(wanted) >= 4 and len(missing) <= 1


def shows_operand(index: ProjectIndex, record_ids: list[str], operand: Operand) -> bool:
    for record_id in record_ids:
        record = index.by_id.get(record_id)
        if record is not None and _names_measure(index.surface(record), operand.column) \
                and index.shows_in_row(record, operand.item, *operand.values):
            return True
    return False


def evidence_problems(index: ProjectIndex, questions: list[QAItem]) -> list[str]:
    """One line per answerable question whose cited records do not show one of its table cells."""
    problems = []
    for question in questions:
        if question.answer_status != "answerable":
            continue
        cited = list(dict.fromkeys([*question.evidence, *(i for path in question.evidence_paths for i in path)]))
        for operand in operands(index, question):
            if not shows_operand(index, cited, operand):
                problems.append(f"{question.id}: no cited record shows {operand.column!r} of {operand.item.label!r} "
                                f"({' / '.join(operand.values)}) in that row")
                break
    return problems
