"""Interpretation items that check a claim against one table: does a named result top its column, does
a result reach a stated level. Both read a single page or image when one shows the values (the paper's
interpretation questions rest on one record 40.9% of the time), and half of the claims hold."""
from __future__ import annotations

from decimal import Decimal

from mmeb_assets.qa.families.base import (
    GenContext, cell_record, draft, is_cost_column, item_phrase, stable_rank,
)
from mmeb_assets.qa.families.extraction import asked_cells
from mmeb_assets.qa.families.numeric import operand_records, rankable, rankings, table_cells
from mmeb_assets.qa.phrasing import metric
from mmeb_assets.qa.text import decimals, parse_number
from mmeb_assets.schema import Derivation, QAItem

MAX_RANK_CLAIMS = 3
MAX_LEVEL_CLAIMS = 4


def interpretation(ctx: GenContext) -> list[QAItem]:
    return rank_claims(ctx) + level_claims(ctx)


def rank_claims(ctx: GenContext) -> list[QAItem]:
    """Does a named result top its column? Half name the leader (Yes), half the runner-up (No). Columns
    the ranking questions do not ask about come first; on a column they ask about ('which has the
    highest ...?') the claim is about the other end, so neither question answers the other."""
    out = []
    columns = rankable(ctx)
    ranked = {item.derivation.fact_key for item in rankings(ctx)}
    for table, col, cells in columns[3:] + columns[:3]:
        low = is_cost_column(col) != (f"{table}:{col}" in ranked)
        ordered = sorted(cells, key=lambda c: parse_number(c[1]), reverse=not low)
        supported = stable_rank(ctx.seed, "rank_claim", table, col) % 2 == 0
        (claimed, cv), (best, bv) = ordered[0 if supported else 1], ordered[0]
        evidence = operand_records(ctx, cells)
        if not evidence:
            continue
        word, verdict = ("lowest" if low else "highest"), ("Yes" if supported else "No")
        q = (f"Do the week's results support the claim that {item_phrase(claimed)} has the {word} {metric(col)} "
             f"of the {len(cells)} results in its table?")
        answer = (f"{verdict}: {claimed.label} has the {word}, {cv}." if supported
                  else f"{verdict}: {claimed.label} has {cv}; the {word} is {best.label} with {bv}.")
        out.append(draft(
            ctx, "interpretation", "interpretation.rank_claim", q, answer, value=verdict, evidence=evidence,
            steps=[(f"Read the {col} of every result: " + ", ".join(f"{i.label} {v}" for i, v in cells) + ".", evidence),
                   (f"The {word} is {best.label} with {bv}, so the claim is "
                    f"{'supported' if supported else 'not supported'}.", [])],
            derivation=Derivation(kind="rank_claim_low" if low else "rank_claim",
                                  operands=[f"{i.label}={v}" for i, v in cells], result=verdict,
                                  fact_key=f"rank_claim:{table}:{col}", premise_values=[claimed.label]),
        ))
    return out[:MAX_RANK_CLAIMS]


def claimed_level(value: str, supported: bool, low: bool) -> str:
    """A level about a tenth away from `value`, on the side that makes an 'at least' claim (an 'at most'
    claim for a cost column) hold or fail, rounded as a person would say it (0.51, not 0.50959), never
    finer than the value is printed; with the value's percent sign."""
    number, places = parse_number(value), decimals(value)
    step = max(abs(number) / 10, Decimal(1).scaleb(-places))
    grain = max(Decimal(1).scaleb(step.adjusted()), Decimal(1).scaleb(-places))
    below = supported != low
    level = ((number - step if below else number + step) / grain).to_integral_value() * grain
    text = f"{level:,f}" if "," in value else f"{level:f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text + ("%" if value.strip().endswith("%") else "")


def value_noun(metric_name: str) -> str:
    """'MAP value', 'open findings value'; a name that already ends in 'value' is kept ('second value')."""
    words = metric_name.split()
    return metric_name if words and words[-1].lower() in ("value", "values") else f"{metric_name} value"


def level_claims(ctx: GenContext) -> list[QAItem]:
    """Does one result reach a stated level? Cells the extraction questions ask for come last."""
    asked = {(i.id, c) for i, c, _ in asked_cells(ctx)}
    cells = [c for c in table_cells(ctx) if parse_number(c[2]) not in (None, 0)]
    cells.sort(key=lambda c: ((c[0].id, c[1]) in asked, stable_rank(ctx.seed, "level", c[0].id, c[1])))
    out, seen = [], set()
    for item, col, value in cells:
        record = cell_record(ctx, item, value)
        if record is None or item.id in seen or len(out) >= MAX_LEVEL_CLAIMS:
            continue
        seen.add(item.id)
        low = is_cost_column(col)
        supported = stable_rank(ctx.seed, "level-claim", item.id, col) % 2 == 0
        level = claimed_level(value, supported, low)
        verdict, bound = ("Yes" if supported else "No"), ("at most" if low else "at least")
        q = (f"Do the recorded results support the claim that the recorded {value_noun(metric(col))} for "
             f"{item_phrase(item)} is {bound} {level}?")
        out.append(draft(
            ctx, "interpretation", "interpretation.level_claim", q,
            f"{verdict}: the recorded {col} of {item.label} is {value}.", value=verdict, evidence=[record.id],
            steps=[(f"Read the {col} of {item.label}: {value}.", [record.id]),
                   (f"{value} is {'' if supported else 'not '}{bound} {level}.", [])],
            derivation=Derivation(kind="level_claim_low" if low else "level_claim", operands=[value], result=verdict,
                                  fact_key=f"level:{item.id}:{col}", premise_values=[level]),
        ))
    return out
