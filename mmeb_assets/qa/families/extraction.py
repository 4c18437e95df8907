"""Extraction: one value stated explicitly in a message, a tracker, a page, or only inside an image."""
from __future__ import annotations

import re
from collections import Counter

from mmeb_assets.qa.families.base import (
    cell_phrase, is_year, row_unit, series_phrase, with_unit,
    GenContext, cell_record, clean_cells, draft, item_phrase, metric_columns, on_dataset, stable_rank,
    stated_figure_question, unit_of, value_question,
)
from mmeb_assets.qa.phrasing import metric
from mmeb_assets.qa.text import is_numeric_cell
from mmeb_assets.schema import Derivation, QAItem

MAX_CELLS = 10
NUMBER_IN = re.compile(r"\d[\d,]*(?:\.\d+)?(?:\s(?:thousand|million|billion|trillion)\b)?")  # '14 million' is one value


def generate(ctx: GenContext) -> list[QAItem]:
    cells = _cells(ctx)
    few = len(cells) < MAX_CELLS // 2
    return cells + _text_cells(ctx, statements_only=not few) + _pictures(ctx) + _invented(ctx)


def _text_cells(ctx: GenContext, statements_only: bool = False) -> list[QAItem]:
    """Non-numeric cells (names, codes, categories) for projects whose tables hold few numbers; the
    document's statements (their parts, their definitions) always."""
    index, out = ctx.index, []
    items = [i for i in index.plan.items if i.kind == "statement" or not statements_only]
    cells = [(item, col, cell.strip()) for item in items for n, (col, cell) in enumerate(item.values.items())
             if cell.strip() and (item.asked or not is_numeric_cell(cell)) and f"{item.id}:{col}" not in index.errors_by_target
             and cell.strip().lower() not in item.label.lower()]
    values = Counter(v for _, _, v in cells)
    cells = [c for c in cells if values[c[2]] == 1]
    for item, col, value in sorted(cells, key=lambda c: stable_rank(ctx.seed, "text-cell", c[0].id, c[1]))[:MAX_CELLS]:
        record = cell_record(ctx, item, value)
        if record is None:
            continue
        if item.asked:
            out.append(_stated_figure(ctx, item, col, value, record))
            continue
        q = f"What do the records give as the {metric(col)} of {item_phrase(item)}?"
        out.append(draft(
            ctx, "extraction", "extraction.text_cell", q, value, value=value, evidence=[record.id],
            steps=[(f"Find the record about {item_phrase(item)}.", [record.id]), (f"Its {col} is {value}.", [record.id])],
            derivation=Derivation(kind="lookup", operands=[value], result=value, fact_key=f"{item.id}:{col}"),
        ))
    return out


def figure_value(stated: str) -> tuple[str, str]:
    """('8', 'characters') of '8 characters'; ('14 million', '') of '14 million news articles' (the
    scale is part of the value, and the noun after it no unit a judge could insist on)."""
    number = NUMBER_IN.search(stated)
    if not number:
        return stated, ""
    scaled = not number.group(0)[-1].isdigit()
    return number.group(0), "" if scaled else stated[number.end():].strip()


def _stated_figure(ctx: GenContext, item, col: str, stated: str, record) -> QAItem:
    """'... memorized secrets SHALL be at least how many characters in length ...?' -> '8 characters'."""
    value, unit = figure_value(stated)
    return draft(
        ctx, "extraction", "extraction.stated_figure", stated_figure_question(item), stated, value=value,
        unit=unit, evidence=[record.id],
        steps=[(f"Find the record quoting the source document on {item_phrase(item).removeprefix('the ')}.",
                [record.id]), (f"The figure it quotes is {stated}.", [record.id])],
        derivation=Derivation(kind="lookup", operands=[value], result=value, fact_key=f"{item.id}:{col}"),
    )


def asked_cells(ctx: GenContext) -> list[tuple]:
    """(item, column, value) of the cells the extraction questions ask for, in their order."""
    return _spread(sorted(clean_cells(ctx), key=lambda c: stable_rank(ctx.seed, "ext", c[0].id, c[1])))[:MAX_CELLS]


def _cells(ctx: GenContext) -> list[QAItem]:
    out = []
    for item, col, value in asked_cells(ctx):
        record = _only_picture(ctx, item, value) or cell_record(ctx, item, value)
        if record is None:
            continue
        q = value_question(item, col)
        unit = row_unit(item) if is_year(col) else unit_of(col, value)
        out.append(draft(
            ctx, "extraction", "extraction.cell", q, with_unit(value, row_unit(item)) if is_year(col) else value,
            value=value, unit=unit, evidence=[record.id],
            steps=[(f"Find the {'page or image' if record.modality == 'visual' else 'record'} reporting "
                    f"{item_phrase(item)}{on_dataset(item)}.", [record.id]),
                   (f"Read its {col}: {value}.", [record.id])],
            derivation=Derivation(kind="lookup", operands=[value], result=value, fact_key=f"{item.id}:{col}"),
        ))
    return out


def _only_picture(ctx: GenContext, item, value: str):
    """The image showing the value when no text record states it (then the picture is what answers it)."""
    image = cell_record(ctx, item, value, prefer_visual=True)
    if image is None or any(r.modality == "text" for r in ctx.index.find(value)):
        return None
    return image


def _spread(cells: list) -> list:
    """Columns take turns (in order of first appearance), so no column position dominates what is asked;
    a row's first numeric column comes last (a reader taking the first number of a post would answer it)."""
    groups: dict[str, list] = {}
    leading = []
    for cell in cells:
        first = metric_columns(cell[0])[:1]
        if first == [cell[1]] and len(metric_columns(cell[0])) > 1:
            leading.append(cell)
        else:
            groups.setdefault(cell[1], []).append(cell)
    out = []
    while any(groups.values()):
        for col in list(groups):
            if groups[col]:
                out.append(groups[col].pop(0))
    return out + leading


def _pictures(ctx: GenContext) -> list[QAItem]:
    """Values that only the picture shows (the plan keeps them out of the message text)."""
    index, out = ctx.index, []
    for event in index.plan.events:
        doc = index.docs.get(event.attachment or "")
        if doc is None or not event.must_not_contain:
            continue
        images = [r for r in index.doc_records(doc.id) if r.modality == "visual"]
        if not images:
            continue
        for item_id in doc.item_ids:
            item = index.items.get(item_id)
            if item is None:
                continue
            for col, cell in item.values.items():
                value = cell.strip()
                if value not in event.must_not_contain or f"{item_id}:{col}" in index.errors_by_target:
                    continue
                image = next((r for r in images if index.shows(r, value)), None)
                if image is None:
                    continue
                what = f"{series_phrase(item)} in {col}" if is_year(col) else f"the {cell_phrase(item, col)}"
                q = f"In the image titled '{doc.title}', what value is shown for {what}?"
                if item.asked and item.label.removeprefix("the figure in ").strip("'") in doc.title:
                    q = f"What figure does the source excerpt in the image titled '{doc.title}' give for the '…'?"
                out.append(draft(
                    ctx, "extraction", "extraction.picture", q, value, value=value, unit=unit_of(col, value),
                    evidence=[image.id],
                    steps=[(f"Open the image '{doc.title}'.", [image.id]),
                           (f"Read the {col} plotted for {item_phrase(item)}: {value}.", [image.id])],
                    derivation=Derivation(kind="lookup", operands=[value], result=value, fact_key=f"{item_id}:{col}"),
                ))
    return out[:6]


def _invented(ctx: GenContext) -> list[QAItem]:
    index, out = ctx.index, []
    for fact in index.plan.invented:
        if fact.id in {e.target for e in index.plan.errors}:
            continue
        record = index.value_record(fact.value, ref=fact.id)
        if record is None:
            continue
        answer = f"{fact.value} {fact.unit}".strip()
        org = ctx.index.org
        q = f"What value did the {org.project_codename} team at {org.company_name} measure for the {fact.name}?"
        out.append(draft(
            ctx, "extraction", "extraction.invented", q, answer, value=fact.value, unit=fact.unit,
            evidence=[record.id],
            steps=[(f"Find the message reporting the {fact.name}.", [record.id]),
                   (f"It states {answer}.", [record.id])],
            derivation=Derivation(kind="lookup", operands=[fact.value], result=fact.value, fact_key=fact.id),
        ))
    return out
