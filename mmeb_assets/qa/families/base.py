"""What every family shares: the generation context, cell lookups, and the draft-item builder."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Sequence

from mmeb_assets.ingestion.table_units import split_unit
from mmeb_assets.qa.evidence import ProjectIndex, evidence_stats
from mmeb_assets.qa.phrasing import metric, strip_series, the
from mmeb_assets.qa.text import is_numeric_cell, parse_number
from mmeb_assets.schema import Derivation, Gold, PlanItem, Provenance, QAItem, Record, SolutionStep

RESULT_KINDS = {"result_posted", "correction", "status_update", "notion_update", "document_posted", "meeting",
                "log_written", "decision"}
COST_WORDS = ("latency", "ms", "cost", "time", "size", "memory", "token", "minute", "hour", "$", "gb", "params")


@dataclass
class GenContext:
    index: ProjectIndex
    provenance: Provenance

    @property
    def seed(self) -> str:
        return self.index.plan.seed_id


def stable_rank(*parts: str) -> int:
    return int(hashlib.sha256("|".join(parts).encode()).hexdigest()[:8], 16)


def item_phrase(item: PlanItem) -> str:
    """A row label as it reads mid-sentence: 'the dense baseline', 'SPECTER' (names take no article)."""
    return the(item.label)


def on_dataset(item: PlanItem) -> str:
    """' on SQuAD' after the measure, unless the measure names it already ('MT-Bench result (Avg.)')."""
    named = any(item.dataset.lower() in column.lower() for column in item.values) if item.dataset else True
    return "" if named else f" on {item.dataset}"


def is_year(col: str) -> bool:
    return bool(re.fullmatch(r"(19|20)\d\d", col.strip()))


def series_phrase(item: PlanItem) -> str:
    """'Drayage trucks over time' -> 'the Drayage trucks' (the year says when)."""
    return the(strip_series(item.label))


def value_question(item: PlanItem, col: str) -> str:
    if item.asked:
        return stated_figure_question(item)
    if is_year(col):
        return f"What value was recorded for {series_phrase(item)} in {col}?"
    return f"What value was recorded for the {metric(col)} of {item_phrase(item)}{on_dataset(item)}?"


def stated_figure_question(item: PlanItem) -> str:
    """A figure of the document's prose, asked in its sentence's words (`PlanItem.asked`)."""
    return f"According to the source document as the records quote it, {item.asked}"


def cell_phrase(item: PlanItem, col: str) -> str:
    """'2023 value for the Drayage trucks' / 'MRR of the dense baseline' / 'figure for memorized
    secrets' (the caller adds 'the')."""
    if item.asked:
        return item.label.removeprefix("the ")
    if is_year(col):
        return f"{col} value for {series_phrase(item)}"
    return f"{metric(col)} of {item_phrase(item)}"


AVERAGE_ROW = re.compile(r"^(?:average|avg\.?|mean|median|overall average|sum|subtotal|grand total)(?:\s*\(.*\))?$")
AGGREGATE_GROUP = re.compile(r"\((?:overall|total|all|average|mean)\)$")  # 'Mixed suite (Overall)'
BARE_TOTALS = {"all", "overall", "both sexes", "all groups"}


def is_total(item: PlanItem, items: Sequence[PlanItem] = ()) -> bool:
    """A table's total row: 'Total ...', 'All ...', or a bare 'All' / 'Overall' whose value in some
    column is the sum of the other rows' (NHANES's 'All' under its age groups; an ablation's 'All',
    the system with every feature, sums nothing and is a result like the others)."""
    label = item.label.strip().lower()
    if label.startswith(("total", "all ")) or AVERAGE_ROW.match(label) or AGGREGATE_GROUP.search(label):
        return True  # 'Average', 'Mean', 'Avg.': a summary of the rows, never ranked among them
    return label in BARE_TOTALS and _sums_its_siblings(item, items)


def _sums_its_siblings(item: PlanItem, items: Sequence[PlanItem]) -> bool:
    siblings = [i for i in items if i.table_id and i.table_id == item.table_id and i.id != item.id]
    for col, cell in item.values.items():
        whole = parse_number(cell)
        parts = [n for n in (parse_number(i.values.get(col, "")) for i in siblings) if n is not None]
        if whole and len(parts) >= 2 and abs(sum(parts) - whole) * 100 <= abs(whole):  # within 1%
            return True
    return False


def metric_columns(item: PlanItem) -> list[str]:
    """Numeric cells that arithmetic may combine; a stated figure is asked only in its own sentence."""
    if item.asked:
        return []
    return [col for col, cell in item.values.items() if is_numeric_cell(cell)]


def is_cost_column(col: str) -> bool:
    low = col.lower()
    return any(word in low for word in COST_WORDS)


def conflicted(ctx: GenContext, item_id: str, col: str) -> bool:
    return f"{item_id}:{col}" in ctx.index.errors_by_target


def clean_cells(ctx: GenContext) -> list[tuple[PlanItem, str, str]]:
    """(item, column, value) for numeric cells no scripted error touches."""
    out = []
    for item in ctx.index.plan.items:
        for col in metric_columns(item):
            if not conflicted(ctx, item.id, col):
                out.append((item, col, item.values[col].strip()))
    return out


def cell_record(ctx: GenContext, item: PlanItem, value: str, prefer_visual: bool = False) -> Record | None:
    """A record that shows this item's value: its result post, else a document that covers the item.
    A pictured item's value is read from an image (a text record about it that happens to hold the same
    digits, a '13' in a time, does not state it)."""
    index = ctx.index
    if prefer_visual:
        return index.value_record(value, ref=item.id, prefer_visual=True)
    if item.pictured:
        return index.value_record(value, ref=item.id, prefer_visual=True) or index.value_record(value, ref=item.id)
    return index.value_record(value, ref=item.id)


def row_unit(item: PlanItem) -> str:
    """The unit a row states in a 'Unit' column (analysis tables), else in its label ('GDP at current
    prices (QAR billion)', 'Current account (% of GDP)'), else ''."""
    for col, cell in item.values.items():
        if col.strip().lower() in ("unit", "units") and cell.strip():
            return cell.strip()
    return split_unit(strip_series(item.label))[1]


def cell_unit(item: PlanItem, value: str) -> str:
    """What a cell counts in, as far as its row and printed value say: a percent sign, a row's unit.
    A column may hold counts in some rows and shares in the rows nested under them ('Card Opens' 96,
    its '- FamiliarCite' 15%): only cells of one unit are compared or divided."""
    return ("%" if value.strip().endswith("%") else "") + "|" + row_unit(item)


def unit_of(col: str, value: str) -> str:
    if value.strip().endswith("%") or "%" in col:
        return "points"
    return ""


def with_unit(value: str, unit: str, difference: bool = False) -> str:
    if unit == "%":
        return f"{value} percentage points" if difference else f"{value}%"
    return f"{value} {unit}" if unit and not value.endswith(unit) else value


def ids(records: list[Record | None]) -> list[str]:
    return list(dict.fromkeys(r.id for r in records if r is not None))


def draft(ctx: GenContext, task: str, family: str, q: str, answer: str, *, value: str | None,
          evidence: list[str], steps: list[tuple[str, list[str]]], derivation: Derivation, unit: str = "",
          boundary: str = "", answer_status: str = "answerable", perturbed_from: str | None = None) -> QAItem:
    return QAItem(
        id=f"{ctx.seed}-draft", project=ctx.seed, task=task, q=" ".join(q.split()), answer_status=answer_status,
        gold=Gold(answer=answer, value=value, unit=unit),
        solution=[SolutionStep(step=s, record_ids=r) for s, r in steps],
        evidence_paths=[list(evidence)] if evidence else [], evidence=list(evidence),
        generator=f"rules:{family}", provenance=ctx.provenance, boundary=boundary, derivation=derivation,
        evidence_stats=evidence_stats(ctx.index, evidence), perturbed_from=perturbed_from,
    )
