"""Computation, comparison and interpretation over a corrected value and a value from another source.

The corrected operand comes from the correction message (the copies that still show the slip would
give another answer); the other operand from a report page, a slide or a tracker entry. Both records
are needed, and they are of different source types, as in the paper's multi-source reasoning items.
"""
from __future__ import annotations

from decimal import Decimal

from mmeb_assets.qa.families.base import (
    GenContext, cell_record, cell_unit, conflicted, draft, is_year, stable_rank, unit_of,
)
from mmeb_assets.qa.families.conflict import _correction_record
from mmeb_assets.qa.phrasing import metric, strip_series, the
from mmeb_assets.qa.text import decimals, fmt, fmt_like, is_numeric_cell, parse_number, when
from mmeb_assets.schema import Derivation, PlanItem, QAItem, Record

DOC_SOURCES = ("pdf_page", "slide", "notion", "image")


def _cases(ctx: GenContext) -> list[tuple]:
    """(error, corrected item, column, correct, correction record, partner item, partner value, partner record)."""
    index, out = ctx.index, []
    for error in index.plan.errors:
        item_id, _, col = error.target.partition(":")
        item = index.items.get(item_id)
        if item is None or not col or parse_number(error.correct_value) is None:
            continue
        correction = _correction_record(ctx, error)
        if correction is None:
            continue
        partners = [p for p in index.plan.items if p.id != item.id and item.table_id and p.table_id == item.table_id
                    and p.kind != "statement"
                    and is_numeric_cell(p.values.get(col, "")) and not conflicted(ctx, p.id, col)
                    and parse_number(p.values[col]) != parse_number(error.correct_value)
                    and cell_unit(p, p.values[col]) == cell_unit(item, item.values.get(col, error.correct_value))]
        partners.sort(key=lambda p: (not _flips(error, p.values[col]), stable_rank(ctx.seed, "corr", error.id, p.id)))
        for partner in partners:
            value = partner.values[col].strip()
            record = _other_source(ctx, partner, value, correction)
            if record is not None:
                out.append((error, item, col, error.correct_value, correction, partner, value, record))
                break
    return out


def _flips(error, other: str) -> bool:
    """Would the slipped value order the pair differently from the corrected one?"""
    right, wrong, b = parse_number(error.correct_value), parse_number(error.wrong_value), parse_number(other)
    return None not in (right, wrong, b) and (right > b) != (wrong > b)


def _other_source(ctx: GenContext, item: PlanItem, value: str, correction: Record) -> Record | None:
    index = ctx.index
    for doc in index.plan.documents:
        if item.id in doc.item_ids and not doc.error_ids_shown_wrong:
            found = [r for r in index.doc_records(doc.id, value, f"{item.id}:") if r.source in DOC_SOURCES
                     and r.source != correction.source]
            if found:
                return found[0]
    post = cell_record(ctx, item, value)
    return post if post is not None and post.source != correction.source else None


def _what(col: str) -> str:
    """'MRR', 'visual tokens', '2025 value'."""
    return f"{col} value" if is_year(col) else metric(col)


def _steps(col, item, correct, correction, partner, value, record, last: str):
    return [(f"The correction gives the {_what(col)} of {the(item.label)} as {correct}.", [correction.id]),
            (f"The {_what(col)} of {the(partner.label)} is {value}.", [record.id]), (last, [])]


def computation(ctx: GenContext) -> list[QAItem]:
    out = []
    for error, item, col, correct, correction, partner, value, record in _cases(ctx):
        a, b = parse_number(correct), parse_number(value)
        places = max(decimals(correct), decimals(value))
        result = fmt(a - b, places)
        unit = unit_of(col, correct)
        q = (f"Once the correction of {when(correction.timestamp)} is applied, how much higher or lower is the "
             f"{_what(col)} of {the(item.label)} than that of {the(partner.label)}?")
        answer = f"{fmt_like(abs(a - b), places, correct, value)}{' ' + unit if unit else ''} {'higher' if a > b else 'lower'} ({correct} vs {value})"
        out.append(draft(
            ctx, "computation", "computation.corrected", q, answer, value=result, evidence=[correction.id, record.id],
            boundary=f"after the correction of {when(correction.timestamp)}",
            steps=_steps(col, item, correct, correction, partner, value, record, f"Compute {correct} - {value} = {result}."),
            derivation=Derivation(kind="difference", operands=[correct, value], result=result,
                                  fact_key=f"{item.id}|{partner.id}:{col}"),
        ))
    return out


def comparison(ctx: GenContext) -> list[QAItem]:
    out = []
    for error, item, col, correct, correction, partner, value, record in _cases(ctx):
        a, b = parse_number(correct), parse_number(value)
        winner = strip_series(item.label if a > b else partner.label)
        names = strip_series(item.label), strip_series(partner.label)
        pair = [f"{names[0]}={correct}", f"{names[1]}={value}"]
        q = (f"After the correction of {when(correction.timestamp)}, which has the higher {_what(col)}: "
             f"{the(item.label)} or {the(partner.label)}?")
        out.append(draft(
            ctx, "comparison", "comparison.corrected", q, f"{winner} ({correct} vs {value})", value=winner,
            evidence=[correction.id, record.id], boundary=f"after the correction of {when(correction.timestamp)}",
            steps=_steps(col, item, correct, correction, partner, value, record, f"The higher is {winner}."),
            derivation=Derivation(kind="rank", operands=pair, result=winner, premise_values=list(names),
                                  fact_key=f"corrected:{item.id}|{partner.id}:{col}"),
        ))
    return out


def interpretation(ctx: GenContext) -> list[QAItem]:
    out = []
    for error, item, col, correct, correction, partner, value, record in _cases(ctx):
        a, b = parse_number(correct), parse_number(value)
        places = max(decimals(correct), decimals(value))
        gap = abs(a - b)
        supported = stable_rank(ctx.seed, "corr-claim", error.id) % 2 == 0
        claim = fmt_like(gap / 2 if supported else gap * 2 + Decimal(1).scaleb(-places), places, correct, value)
        claimed = parse_number(claim)  # as rounded for the question
        if claimed <= 0 or claimed == gap:
            continue
        hi, hv, lo, lv = (item, correct, partner, value) if a > b else (partner, value, item, correct)
        verdict = "Yes" if gap >= claimed else "No"
        q = (f"With the correction of {when(correction.timestamp)} applied, do the records support the claim that the "
             f"{_what(col)} of {the(hi.label)} exceeds that of {the(lo.label)} by at least {claim}?")
        answer = f"{verdict}: {hv} vs {lv} is a gap of {fmt_like(gap, places, hv, lv)}."
        out.append(draft(
            ctx, "interpretation", "interpretation.corrected", q, answer, value=verdict,
            evidence=[correction.id, record.id], boundary=f"after the correction of {when(correction.timestamp)}",
            steps=_steps(col, item, correct, correction, partner, value, record,
                         f"The gap is {fmt_like(gap, places, correct, value)}; compare it with {claim}."),
            derivation=Derivation(kind="claim_check", operands=[hv, lv, claim], result=verdict, premise_values=[claim],
                                  fact_key=f"corrected-claim:{item.id}|{partner.id}:{col}"),
        ))
    return out
