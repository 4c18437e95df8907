"""Interpretation items on what the seed document states: does a quoted figure, definition or
abbreviation read as the document has it?

Why: a framework or guideline gives a team few results to rank, but much to quote, and quotes drift
('at least 10 characters' for the guideline's 8). Checking a claimed quote against the record that
quotes the document is the interpretation a team adopting such a document does. Half the claims hold;
the other half change the figure as a hurried quote would, or give another statement's words.
"""
from __future__ import annotations

import random
import re
from itertools import combinations

from mmeb_assets.facts.quantities import lower_first
from mmeb_assets.qa.families.base import GenContext, cell_record, draft, item_phrase, stable_rank
from mmeb_assets.qa.text import parse_number
from mmeb_assets.schema import Derivation, QAItem
from mmeb_assets.simulation.errors import misquoted_figure
from mmeb_assets.simulation.statement_items import EXPANSION, FIGURE

MAX_QUOTE_CLAIMS = 6
MAX_FIGURE_PAIRS = 2


def interpretation(ctx: GenContext) -> list[QAItem]:
    out = []
    items = [i for i in ctx.index.plan.items if i.kind == "statement"]
    items.sort(key=lambda i: stable_rank(ctx.seed, "quote-claim", i.id))
    for item in items:
        made = _quote_claim(ctx, item, items)
        if made is not None:
            out.append(made)
    return out[:MAX_QUOTE_CLAIMS]


BOUND_BEFORE = re.compile(r"\b(?:more than|over|at least|less than|fewer than|under|up to|at most|above|below|"
                          r"exceeding|nearly|almost)\s*[$€£]?$", re.I)


def _quote_claim(ctx: GenContext, item, items) -> QAItem | None:
    col = next((c for c in (FIGURE, EXPANSION, "definition") if c in item.values), None)
    if col is None or f"{item.id}:{col}" in ctx.index.errors_by_target:
        return None
    stated = item.values[col].strip()
    record = cell_record(ctx, item, stated)
    supported = stable_rank(ctx.seed, "quote-claim-verdict", item.id) % 2 == 0
    if not supported and col == FIGURE and BOUND_BEFORE.search((item.sentence or "").split(stated)[0]):
        return None  # 'more than 100 dialogues': a claim of 'more than 98' is entailed, not refuted
    claimed = stated if supported else _other(ctx, item, col, stated, items)
    if record is None or not claimed:
        return None
    verdict = "Yes" if claimed == stated else "No"
    q = f"Do the records support the claim that, according to the source document, {_claim(item, col, stated, claimed)}?"
    answer = f"{verdict}: the source document, as the records quote it, gives {stated}."
    return draft(
        ctx, "interpretation", "interpretation.quote_claim", q, answer, value=verdict, evidence=[record.id],
        steps=[(f"Find the record quoting the source document on {item_phrase(item).removeprefix('the ')}: {stated}.",
                [record.id]),
               (f"The claim gives {claimed}, so it is {'supported' if verdict == 'Yes' else 'not supported'}.", [])],
        derivation=Derivation(kind="quote_check", operands=[stated, claimed], result=verdict,
                              fact_key=f"{item.id}:{col}", premise_values=[claimed]),
    )


def _claim(item, col: str, stated: str, claimed: str) -> str:
    if col == FIGURE:
        return lower_first(item.sentence.replace(stated, claimed, 1).rstrip(" ."))  # as its question lowers it
    subject = item.label.split("'")[1] if "'" in item.label else item.label
    if col == EXPANSION:
        return f"{subject} stands for {claimed}"
    return f"'{subject}' refers to {claimed}"


def _other(ctx: GenContext, item, col: str, stated: str, items) -> str:
    """The claim that fails: the figure misquoted, or another statement's words in the same column."""
    if col == FIGURE:
        return misquoted_figure(stated, random.Random(stable_rank(ctx.seed, "quote-claim-figure", item.id))) or ""
    others = sorted((o.values[col].strip() for o in items if o.id != item.id and col in o.values
                     and o.values[col].strip() != stated), key=lambda v: stable_rank(ctx.seed, "quote-other", v))
    return others[0] if others else ""


def comparison(ctx: GenContext) -> list[QAItem]:
    """Which of two figures the document states in the same unit is larger ('32 bits' for the salt,
    '20 bits' for look-up secrets)? Asked only where the two differ and both are quoted in the records."""
    figures = [(i, i.values[FIGURE].strip()) for i in ctx.index.plan.items
               if i.kind == "statement" and FIGURE in i.values and f"{i.id}:{FIGURE}" not in ctx.index.errors_by_target]
    pairs = [(a, b) for a, b in combinations(figures, 2)
             if _unit(a[1]) and _unit(a[1]) == _unit(b[1]) and parse_number(a[1]) != parse_number(b[1])
             and _same_share(a[0], b[0], _unit(a[1]))]
    pairs.sort(key=lambda p: stable_rank(ctx.seed, "figure-pair", p[0][0].id, p[1][0].id))
    out: list[QAItem] = []
    for (a, va), (b, vb) in pairs:
        ra, rb = cell_record(ctx, a, va), cell_record(ctx, b, vb)
        if ra is None or rb is None or len(out) >= MAX_FIGURE_PAIRS:
            continue
        big = a if parse_number(va) > parse_number(vb) else b
        q = (f"According to the source document as the records quote it, which figure is larger: "
             f"{item_phrase(a)} or {item_phrase(b)}?")
        out.append(draft(
            ctx, "comparison", "comparison.stated_figures", q, f"{big.label[0].upper()}{big.label[1:]} ({big.values[FIGURE]})",
            value=big.label, evidence=[ra.id, rb.id],
            steps=[(f"{a.label}: {va}.", [ra.id]), (f"{b.label}: {vb}.", [rb.id]), (f"The larger is {big.label}.", [])],
            derivation=Derivation(kind="rank", operands=[f"{a.label}={va}", f"{b.label}={vb}"], result=big.label,
                                  fact_key=f"{a.id}:{FIGURE}|{b.id}:{FIGURE}", premise_values=[a.label, b.label]),
        ))
    return out


def _share_of(sentence: str) -> str:
    """What a percentage is a share of ('of respondents', 'response rate'): the two words after
    'percent of' / '% of', else the two before the number; '' when neither reads."""
    after = re.search(r"(?:%|\bper ?cent)\s+of\s+(?:the\s+|all\s+)?([a-z]+(?:\s+[a-z]+)?)", sentence, re.I)
    if after:
        return after.group(1).lower()
    before = re.search(r"([a-z]+\s+[a-z]+)\s+(?:of\s+)?(?:over\s+|about\s+|nearly\s+)?\d[\d.,]*\s*(?:%|per ?cent)",
                       sentence, re.I)
    return before.group(1).lower() if before else ""


def _same_share(a, b, unit: str) -> bool:
    """Two figures compare only as the same measure. Percentages: shares of one thing (a response rate
    is not larger or smaller than the share of respondents wanting training). Other figures: the same
    counted thing of two words or more ('13 accreditation focus areas' and '9 accreditation focus
    areas'); two sums of money or two spans of years from different sentences (a purchase obligation
    and a share repurchase, reading 6) are different measures."""
    if unit != "%":
        counted = _counted_noun(a.values[FIGURE])
        return len(counted.split()) >= 2 and counted == _counted_noun(b.values[FIGURE])
    share = _share_of(a.sentence or "")
    return bool(share) and share == _share_of(b.sentence or "")


def _counted_noun(stated: str) -> str:
    """'13 accreditation focus areas' -> 'accreditation focus areas'; '$3.28 billion' -> 'billion'."""
    return " ".join(w for w in re.findall(r"[A-Za-z][\w\-]*", stated)).lower()


def _unit(stated: str) -> str:
    """The unit word a figure ends in ('characters' of '6 random alphanumeric characters', '%')."""
    if re.search(r"%|\bper ?cent\b", stated, re.I):
        return "%"  # '23 per cent' (UN style) is a percentage too, and compares only as a share of one thing
    words = re.findall(r"[A-Za-z]+", stated)
    return words[-1].lower() if words else ""
