"""Values as a document or message at a given time should show them (wrong where scripted)."""
from __future__ import annotations

import re
from datetime import datetime

from mmeb_assets.records.headers import contains_value
from mmeb_assets.schema.workspace import DocumentPlan, EventPlan, InventedFact, PlanItem, ScriptedError


def errors_by_target(plan: EventPlan) -> dict[str, list[ScriptedError]]:
    out: dict[str, list[ScriptedError]] = {}
    for err in plan.errors:
        out.setdefault(err.target, []).append(err)
    return out


def shown_wrong(doc: DocumentPlan | None, plan: EventPlan) -> dict[str, str]:
    """target -> wrong value for the errors this document shows wrong."""
    if doc is None:
        return {}
    wanted = set(doc.error_ids_shown_wrong)
    return {e.target: e.wrong_value for e in plan.errors if e.id in wanted}


def item_cells(item: PlanItem, wrong: dict[str, str]) -> list[tuple[str, str]]:
    return [(col, wrong.get(f"{item.id}:{col}", val)) for col, val in item.values.items()]


IN_SCREENSHOT = "see screenshot"


def typed_cells(item: PlanItem, wrong: dict[str, str]) -> list[tuple[str, str]]:
    """`item_cells` as a text record may type them: a pictured item's values stay in its screenshot."""
    cells = item_cells(item, wrong)
    return [(col, IN_SCREENSHOT) for col, _ in cells] if item.pictured else cells


def invented_value(fact: InventedFact, wrong: dict[str, str]) -> str:
    return wrong.get(fact.id, fact.display or f"{fact.value} {fact.unit}".strip())


def metric_columns(plan: EventPlan, item_ids: list[str]) -> list[str]:
    """Columns shared by the given items, in first-seen order."""
    cols: list[str] = []
    for item in plan.items:
        if item.id in item_ids:
            for col in item.values:
                if col not in cols:
                    cols.append(col)
    return cols


def items_of(plan: EventPlan, ids: list[str]) -> list[PlanItem]:
    wanted = set(ids)
    return [i for i in plan.items if i.id in wanted]


def evolving_state(plan: EventPlan, when: datetime) -> list[tuple[str, str]]:
    """(subject, value in force) for every evolving fact stated by `when`."""
    out = []
    for fact in plan.evolving_facts:
        version = fact.value_at(when)
        if version is not None:
            out.append((fact.subject, version.value))
    return out


def expected_doc_values(plan: EventPlan, doc: DocumentPlan) -> list[str]:
    """Values a rendered report/deck must print: its available items (wrong where scripted)."""
    wrong = shown_wrong(doc, plan)
    pending = set(doc.pending_item_ids)
    values: list[str] = []
    for item in items_of(plan, doc.item_ids):
        if item.id in pending:
            continue
        for _, val in item_cells(item, wrong):
            if val and val not in values:
                values.append(val)
    return values


NUMBER_LIKE = re.compile(r"^[-−+]?[$£€]?\d[\d,]*(\.\d+)?\s?%?$")


def is_number_like(value: str) -> bool:
    return bool(NUMBER_LIKE.match(value.strip()))


def numeric_columns(plan: EventPlan, item_ids: list[str]) -> list[str]:
    """Columns whose every value among the items reads as a number (no run ids or names)."""
    items = items_of(plan, item_ids)
    return [c for c in metric_columns(plan, item_ids)
            if all(is_number_like(i.values[c]) for i in items if c in i.values)]


def doc_invented(plan: EventPlan, doc: DocumentPlan) -> list[InventedFact]:
    if doc.invented_ids:
        return [i for i in plan.invented if i.id in doc.invented_ids]
    return [i for i in plan.invented if i.time <= doc.time]


def doc_decisions(plan: EventPlan, doc: DocumentPlan):
    if doc.decision_ids:
        return [d for d in plan.decisions if d.id in doc.decision_ids]
    return [d for d in plan.decisions if d.time <= doc.time]


def doc_facts(plan: EventPlan, doc: DocumentPlan) -> list[tuple[str, str]]:
    """(subject, value) the document shows: the plan's fact_values, else the state at its cut-off."""
    if doc.fact_values:
        subjects = {f.id: f.subject for f in plan.evolving_facts}
        return [(subjects.get(k, k), v) for k, v in doc.fact_values.items()]
    return evolving_state(plan, doc.as_of or doc.time)


def doc_stated_values(plan: EventPlan, doc: DocumentPlan) -> set[str]:
    """Values the document rightly prints for another identity than a pending result: operational
    figures, decisions' citations, the state of evolving facts. An equal number there is not a leak."""
    stated = {inv.value for inv in plan.invented}
    stated |= {c for d in doc_decisions(plan, doc) for c in d.cites}
    stated |= {v for _, v in doc_facts(plan, doc)}
    return {v for v in stated if v}


def pending_only_values(plan: EventPlan, doc: DocumentPlan) -> list[str]:
    """Values of items the document lists as pending that no available item or fact shares (nor prints
    inside its own value: '46.1' of '46.1 ± 0.5', or in a row's label the document printed with a number
    in it: 'P60-P70 (1.5)'). Values under 3 characters ('2') are page numbers
    and dates as much as results, so, as in the plan's must-not lists, they are not policed."""
    available = set(expected_doc_values(plan, doc)) | doc_stated_values(plan, doc)
    labels = [i.label for i in plan.items] + [c for i in plan.items for c in i.values]  # 'P60-P70 (1.5)', a head
    # read with values in it ("'34.6±1.8 34.7±1.5' column of ..."): the document printed them as names
    out = []
    for item in items_of(plan, doc.pending_item_ids):
        for val in item.values.values():
            if val and len(val) >= 3 and is_number_like(val) and val not in available and val not in out \
                    and not any(contains_value(a, val) for a in [*available, *labels]):
                out.append(val)
    return out


def chart_title(column: str, items: list[PlanItem]) -> str:
    """'Recall@10 by run' for runs; a year column of an analysis table reads 'Values for 2023 by item'."""
    noun = "item" if any(i.kind == "analysis" for i in items) else "run"  # an analysis table's total is a release
    what = f"Values for {column}" if re.fullmatch(r"(?:19|20)\d\d", column.strip()) else column
    return f"{what} by {noun}"
