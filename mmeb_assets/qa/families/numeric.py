"""Computation, comparison and interpretation over two or more recorded values of one table."""
from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from mmeb_assets.qa.families.base import (
    GenContext, cell_record, cell_unit, clean_cells, conflicted, draft, ids, is_cost_column, is_total, is_year, item_phrase,
    row_unit, series_phrase, stable_rank, unit_of, with_unit,
)
from mmeb_assets.qa.phrasing import metric, plural_values
from mmeb_assets.qa.text import decimals, fmt, fmt_like, parse_number
from mmeb_assets.schema import Derivation, PlanItem, QAItem


def table_cells(ctx: GenContext) -> list[tuple[PlanItem, str, str]]:
    """Clean cells of source-table rows, neither a year column nor a total row: what rankings, pairs and
    claims compare."""
    return [(item, col, value) for item, col, value in clean_cells(ctx)
            if item.table_id and not is_year(col) and not is_total(item, ctx.index.plan.items)]


def _columns(ctx: GenContext) -> dict[tuple[str, str], list[tuple[PlanItem, str]]]:
    """(table, column) -> [(item, value)] over clean numeric cells of one source table, in plan order.

    Items made from sentences (no table) are left out: their column names only a kind of value ('share',
    'amount'), so two of them are unrelated quantities ('the share of total collections' vs 'the share
    of performance drops') that no reader would compare or divide. A column's cells in several units
    (`cell_unit`) give the unit with the most rows: '96 vs 14%' compares nothing."""
    groups: dict[tuple[str, str, str], list[tuple[PlanItem, str]]] = defaultdict(list)
    for item, col, value in table_cells(ctx):
        groups[(item.table_id, col, cell_unit(item, value))].append((item, value))
    merged: dict[tuple[str, str], list[tuple[PlanItem, str]]] = {}
    for (table, col, _unit), cells in groups.items():
        if len(cells) >= 2 and len({i.label for i, _ in cells}) == len(cells) and \
                len(cells) > len(merged.get((table, col), [])):
            merged[(table, col)] = cells  # the column's unit with the most rows
    return merged


def _complete(ctx: GenContext, table: str, col: str, cells: list) -> bool:
    """Every item of the table that has this column is among the clean cells (rankings need all)."""
    members = [i for i in ctx.index.plan.items if i.table_id == table and col in i.values
               and not is_total(i, ctx.index.plan.items)]
    return len(members) == len(cells)


def _pairs(ctx: GenContext, limit: int) -> list[tuple[str, PlanItem, str, PlanItem, str]]:
    out = []
    for (table, col), cells in sorted(_columns(ctx).items()):
        for a in range(len(cells)):
            for b in range(a + 1, len(cells)):
                (ia, va), (ib, vb) = cells[b], cells[a]
                if parse_number(va) != parse_number(vb):
                    out.append((col, ia, va, ib, vb))
    # pairs whose two results were each shared as a screenshot alternate with the others: the first need
    # two images (Table 6's Image 2+ column), which no other family asks for as often; the others are
    # mostly read off one page (Table 3 (d)'s one-unit row)
    out.sort(key=lambda p: stable_rank(ctx.seed, p[0], p[1].id, p[3].id))
    both = [p for p in out if p[1].pictured and p[3].pictured]
    rest = [p for p in out if not (p[1].pictured and p[3].pictured)]
    mixed = [p for pair in zip(both, rest) for p in pair]
    n = len(mixed) // 2
    return (mixed + both[n:] + rest[n:])[:limit]


# Of SHAPE_DIE seeded faces, how many read the operands from their own posts rather than from one page
# or image that shows them all: most operands that were each shared as a screenshot are read from those
# (several images, Table 6's Image 2+ column); most other pairs from one record (the paper's Table 3 (d)
# has 49.1% of questions on one unit); rankings of 3+ results from either, half and half (18.5% of the
# paper's questions need 3+ units).
SHAPE_DIE, SCREENSHOT_FACES, POST_FACES, MANY_POST_FACES = 6, 5, 1, 3


def operand_records(ctx: GenContext, cells: list[tuple[PlanItem, str]]) -> list[str]:
    """One record that shows every operand (a table page or image), or one record per operand (the
    result posts); which of the two is chosen per item by a seeded coin, so both shapes occur. Operands
    that were each shared as their own screenshot are read from those screenshots (several images)."""
    index = ctx.index
    values = [v for _, v in cells]
    posts = [cell_record(ctx, item, value) for item, value in cells]
    key = "|".join(f"{i.id}={v}" for i, v in cells)
    screenshots = all(p is not None and p.modality == "visual" for p in posts) and len(ids(posts)) > 1
    coin = stable_rank(ctx.seed, "operands", key) % SHAPE_DIE
    faces = SCREENSHOT_FACES if screenshots else POST_FACES if len(cells) == 2 else MANY_POST_FACES
    if all(posts) and len(ids(posts)) <= 4 and coin < faces:
        return ids(posts)
    for doc in index.plan.documents:
        if doc.error_ids_shown_wrong or not all(i.id in doc.item_ids for i, _ in cells):
            continue
        for record in index.doc_records(doc.id):
            if all(index.shows(record, v) for v in values):
                return [record.id]
    return ids(posts) if all(posts) else []


def _series(ctx: GenContext) -> list[tuple[PlanItem, list[tuple[str, str]]]]:
    """Items whose numeric columns are years, with every year cell clean: (item, [(year, value)])."""
    out = []
    for item in ctx.index.plan.items:
        years = [(c, v.strip()) for c, v in item.values.items() if is_year(c) and parse_number(v) is not None]
        clean = not any(conflicted(ctx, item.id, c) for c, _ in years)
        if len(years) >= 3 and clean and not is_total(item, ctx.index.plan.items):
            out.append((item, years))
    return sorted(out, key=lambda s: stable_rank(ctx.seed, "series", s[0].id))


def series_computation(ctx: GenContext) -> list[QAItem]:
    out = []
    for n, (item, years) in enumerate(_series(ctx)[:4]):
        (y1, v1), (y2, v2) = years[0], years[-1]
        evidence = operand_records(ctx, [(item, v1), (item, v2)])
        a, b = parse_number(v2), parse_number(v1)
        if not evidence or a == b:
            continue
        if n % 2 and b != 0:
            result = fmt((a - b) / b * 100, 1)
            q = f"By what percentage did the recorded value for {series_phrase(item)} change from {y1} to {y2}, to one decimal place?"
            answer, kind, how = f"{result}% ({v1} in {y1} to {v2} in {y2})", "percent_change", f"({v2} - {v1}) / {v1} x 100 = {result}%"
        else:
            result = fmt(a - b, max(decimals(v1), decimals(v2)))
            q = f"By how much did the recorded value for {series_phrase(item)} change from {y1} to {y2}?"
            answer, kind, how = (f"{with_unit(result, row_unit(item), difference=True)} ({v1} in {y1} to {v2} in {y2})", "difference",
                                 f"{v2} - {v1} = {result}")
        out.append(draft(
            ctx, "computation", f"computation.series_{kind}", q, answer, value=result, evidence=evidence,
            steps=[(f"Read {series_phrase(item)} in {y1}: {v1}.", evidence[:1]),
                   (f"Read it in {y2}: {v2}.", evidence[-1:]), (f"Compute {how}.", [])],
            derivation=Derivation(kind=kind, operands=[v2, v1], result=result, fact_key=f"{item.id}:{y1}-{y2}"),
        ))
    return out


def series_comparison(ctx: GenContext) -> list[QAItem]:
    """The peak year of a series; series peaking in their first year come last (the first year printed
    is what a reader taking the first number would answer)."""
    out = []
    def first_is_peak(series) -> bool:
        values = [parse_number(v) for _, v in series[1]]
        return values.index(max(values)) == 0
    for item, years in sorted(_series(ctx), key=first_is_peak)[:4]:
        values = [parse_number(v) for _, v in years]
        if len(set(values)) != len(values):
            continue
        evidence = operand_records(ctx, [(item, v) for _, v in years])
        if not evidence:
            continue
        year, value = years[max(range(len(years)), key=lambda i: values[i])]
        q = f"In which year does {series_phrase(item)} reach its highest recorded value?"
        out.append(draft(
            ctx, "comparison", "comparison.series_peak", q, f"{year} ({value})", value=year, evidence=evidence,
            steps=[("Read every year: " + ", ".join(f"{y} {v}" for y, v in years) + ".", evidence),
                   (f"The highest is {value} in {year}.", [])],
            derivation=Derivation(kind="rank", operands=[f"{y}={v}" for y, v in years], result=year,
                                  fact_key=f"{item.id}:peak"),
        ))
    return out


def series_interpretation(ctx: GenContext) -> list[QAItem]:
    out = []
    for item, years in _series(ctx)[:4]:
        (y1, v1), (y2, v2) = years[0], years[-1]
        a, b = parse_number(v1), parse_number(v2)
        places = max(decimals(v1), decimals(v2))
        gap = abs(b - a)
        if gap == 0:
            continue
        evidence = operand_records(ctx, [(item, v1), (item, v2)])
        if not evidence:
            continue
        supported = stable_rank(ctx.seed, "trend", item.id) % 2 == 0
        claim_text = fmt(gap / 2 if supported else gap * 2 + Decimal(1).scaleb(-places), places)
        if Decimal(claim_text) <= 0 or Decimal(claim_text) == gap:
            continue
        verdict = "Yes" if gap >= Decimal(claim_text) else "No"
        direction = "rose" if b > a else "fell"
        q = (f"Do the recorded figures support the claim that {series_phrase(item)} {direction} by at least "
             f"{claim_text} between {y1} and {y2}?")
        answer = f"{verdict}: it went from {v1} to {v2}, a change of {fmt(gap, places)}."
        out.append(draft(
            ctx, "interpretation", "interpretation.trend", q, answer, value=verdict, evidence=evidence,
            steps=[(f"Read {v1} ({y1}) and {v2} ({y2}).", evidence),
                   (f"The change is {fmt(gap, places)}; compare it with {claim_text}.", []),
                   (f"So the claim is {'supported' if verdict == 'Yes' else 'not supported'}.", [])],
            derivation=Derivation(kind="claim_check", operands=[v1, v2, claim_text], result=verdict,
                                  fact_key=f"{item.id}:trend", premise_values=[claim_text, y1, y2]),
        ))
    return out


def computation(ctx: GenContext) -> list[QAItem]:
    out = series_computation(ctx)
    for n, (col, ia, va, ib, vb) in enumerate(_pairs(ctx, 12)):
        evidence = operand_records(ctx, [(ia, va), (ib, vb)])
        if not evidence:
            continue
        a, b = parse_number(va), parse_number(vb)
        places = max(decimals(va), decimals(vb))
        if n % 3 == 2 and b != 0:
            result = fmt(a / b, 2)
            q = (f"What is the ratio of the {metric(col)} of {item_phrase(ia)} to that of {item_phrase(ib)}, "
                 f"to two decimal places?")
            answer, kind, how = f"{result} ({va} / {vb})", "ratio", f"{va} / {vb} = {result}"
        else:
            result = fmt(a - b, places)
            unit = unit_of(col, va)
            q = f"How much higher or lower is the {metric(col)} of {item_phrase(ia)} than that of {item_phrase(ib)}?"
            sign = "higher" if a > b else "lower"
            answer = f"{fmt_like(abs(a - b), places, va, vb)}{' ' + unit if unit else ''} {sign} ({va} vs {vb})"
            kind, how = "difference", f"{va} - {vb} = {result}"
        out.append(draft(
            ctx, "computation", f"computation.{kind}", q, answer, value=result, evidence=evidence,
            steps=[(f"Read the {col} of {item_phrase(ia)}: {va}.", evidence[:1]),
                   (f"Read the {col} of {item_phrase(ib)}: {vb}.", evidence[-1:]),
                   (f"Compute {how}.", [])],
            derivation=Derivation(kind=kind, operands=[va, vb], result=result, fact_key=f"{ia.id}|{ib.id}:{col}"),
        ))
    return out


def comparison(ctx: GenContext) -> list[QAItem]:
    return series_comparison(ctx) + rankings(ctx) + _pairwise(ctx) + _budget(ctx)


def rankable(ctx: GenContext) -> list[tuple[str, str, list[tuple[PlanItem, str]]]]:
    """(table, column, cells) of the columns that rank: 3+ results, all of them clean, no ties."""
    out = []
    for (table, col), cells in sorted(_columns(ctx).items()):
        values = [parse_number(v) for _, v in cells]
        if len(cells) >= 3 and _complete(ctx, table, col, cells) and len(set(values)) == len(values):
            out.append((table, col, cells))
    return out


def rankings(ctx: GenContext) -> list[QAItem]:
    out = []
    for table, col, cells in rankable(ctx):
        values = [parse_number(v) for _, v in cells]
        evidence = operand_records(ctx, cells)
        if not evidence:
            continue
        low = is_cost_column(col)
        best = (min if low else max)(range(len(cells)), key=lambda i: values[i])
        item, value = cells[best]
        scope = f"the {len(cells)} {cells[0][0].dataset + ' ' if cells[0][0].dataset else ''}results in the week's table"
        q = f"Among {scope}, which one has the {'lowest' if low else 'highest'} {metric(col)}?"
        out.append(draft(
            ctx, "comparison", "comparison.rank", q, f"{item.label} ({value})", value=item.label, evidence=evidence,
            steps=[(f"Read the {col} of every result: " + ", ".join(f"{i.label} {v}" for i, v in cells) + ".", evidence),
                   (f"The {'lowest' if low else 'highest'} is {item.label} with {value}.", [])],
            derivation=Derivation(kind="rank_low" if low else "rank", operands=[f"{i.label}={v}" for i, v in cells], result=item.label,
                                  fact_key=f"{table}:{col}"),
        ))
    return out[:3]


def _pairwise(ctx: GenContext) -> list[QAItem]:
    out = []
    for col, ia, va, ib, vb in _pairs(ctx, 18)[10:18]:
        evidence = operand_records(ctx, [(ia, va), (ib, vb)])
        if not evidence:
            continue
        a, b = parse_number(va), parse_number(vb)
        low = is_cost_column(col)
        winner, wv, other, ov = (ia, va, ib, vb) if (a < b) == low else (ib, vb, ia, va)
        word = "lower" if low else "higher"
        margin = fmt_like(abs(a - b), max(decimals(va), decimals(vb)), va, vb)
        if unit_of(col, va) == "points" and unit_of(col, vb) == "points":
            margin = f"{margin} points"  # two percentages differ by points, not by a percent
        q = f"Which has the {word} {metric(col)}: {item_phrase(ia)} or {item_phrase(ib)}, and by how much?"
        out.append(draft(
            ctx, "comparison", "comparison.pair", q, f"{winner.label}: {wv} vs {ov} (by {margin})", value=winner.label,
            evidence=evidence,
            steps=[(f"Read {va} for {ia.label} and {vb} for {ib.label}.", evidence),
                   (f"{winner.label} is {word} by {margin}.", [])],
            derivation=Derivation(kind="rank_low" if low else "rank", operands=[f"{ia.label}={va}", f"{ib.label}={vb}"],
                                  result=winner.label, fact_key=f"pair:{ia.id}|{ib.id}:{col}",
                                  premise_values=[ia.label, ib.label]),
        ))
    return out


def _budget(ctx: GenContext) -> list[QAItem]:
    """Best quality column under a cap on a cost-like column, where the cap changes the choice."""
    groups, out = _columns(ctx), []
    for (table, quality), qcells in sorted(groups.items()):
        if is_cost_column(quality):
            continue
        for (table2, cost), ccells in sorted(groups.items()):
            if table2 != table or not is_cost_column(cost) or not _complete(ctx, table, quality, qcells) \
                    or not _complete(ctx, table, cost, ccells):
                continue
            made = _one_budget(ctx, quality, qcells, cost, ccells)
            if made:
                out.append(made)
    return out[:2]


def _one_budget(ctx, quality, qcells, cost, ccells) -> QAItem | None:
    costs = {i.id: (v, parse_number(v)) for i, v in ccells}
    rows = [(i, v, parse_number(v)) + costs[i.id] for i, v in qcells if i.id in costs]
    if len(rows) < 3:
        return None
    best = max(rows, key=lambda r: r[2])
    cheaper = sorted({r[4] for r in rows if r[4] < best[4]})
    if not cheaper:
        return None
    cap = (cheaper[-1] + best[4]) / 2
    cap_text = fmt(cap, max(decimals(best[3]), 0) + (0 if cap == cap.to_integral() else 1))
    fits = [r for r in rows if r[4] <= Decimal(cap_text)]
    choice = max(fits, key=lambda r: r[2])
    if [r for r in fits if r[2] == choice[2] and r is not choice]:
        return None
    evidence = operand_records(ctx, [(r[0], r[1]) for r in rows] + [(r[0], r[3]) for r in rows])
    if not evidence:
        return None
    q = f"Which result has the highest {metric(quality)} while keeping the {metric(cost)} at or below {cap_text}?"
    answer = f"{choice[0].label} ({quality} {choice[1]}, {cost} {choice[3]})"
    return draft(
        ctx, "comparison", "comparison.budget", q, answer, value=choice[0].label, evidence=evidence,
        steps=[(f"Read {quality} and {cost} of each result.", evidence),
               (f"Keep results with {cost} <= {cap_text}: " + ", ".join(r[0].label for r in fits) + ".", []),
               (f"The highest {quality} among them is {choice[0].label} ({choice[1]}).", [])],
        derivation=Derivation(kind="budget_choice", operands=[f"{r[0].label}={r[1]}|{r[3]}" for r in rows] + [cap_text],
                              result=choice[0].label, fact_key=f"budget:{quality}:{cost}", premise_values=[cap_text]),
    )


def interpretation(ctx: GenContext) -> list[QAItem]:
    out = series_interpretation(ctx)
    for n, (col, ia, va, ib, vb) in enumerate(_pairs(ctx, 18)[4:16]):
        evidence = operand_records(ctx, [(ia, va), (ib, vb)])
        if not evidence:
            continue
        a, b = parse_number(va), parse_number(vb)
        hi, hv, lo, lv = (ia, va, ib, vb) if a > b else (ib, vb, ia, va)
        places = max(decimals(va), decimals(vb))
        gap = abs(a - b)
        supported = stable_rank(ctx.seed, "interp", ia.id, ib.id, col) % 2 == 0
        claim = (gap / 2) if supported else (gap * 2 + Decimal(1).scaleb(-places))
        claim_text = fmt_like(claim, places, va, vb)  # '6,543,822' beside '33,187,483'
        claimed = parse_number(claim_text)  # as rounded for the question
        if claimed == gap or claimed <= 0:
            continue
        verdict = "Yes" if gap >= claimed else "No"
        q = (f"Do the recorded {plural_values(metric(col))} support the claim that the {metric(col)} of {item_phrase(hi)} exceeds that of "
             f"{item_phrase(lo)} by at least {claim_text}?")
        answer = f"{verdict}: {hv} vs {lv} is a gap of {fmt_like(gap, places, hv, lv)}, {'at least' if verdict == 'Yes' else 'less than'} {claim_text}."
        out.append(draft(
            ctx, "interpretation", "interpretation.claim", q, answer, value=verdict, evidence=evidence,
            steps=[(f"Read {hv} for {hi.label} and {lv} for {lo.label}.", evidence),
                   (f"The gap is {fmt_like(gap, places, va, vb)}; compare it with {claim_text}.", []),
                   (f"So the claim is {'supported' if verdict == 'Yes' else 'not supported'}.", [])],
            derivation=Derivation(kind="claim_check", operands=[hv, lv, claim_text], result=verdict,
                                  fact_key=f"claim:{hi.id}|{lo.id}:{col}", premise_values=[claim_text]),
        ))
    return out
