"""Computation, comparison and interpretation over numeric facts outside the tables: evolving sizes and
budgets (first vs final stated value) and invented measurements that share a unit.

These keep the reasoning families present in projects whose source tables hold no numbers.
"""
from __future__ import annotations

import re

from mmeb_assets.qa.families.base import GenContext, draft, ids, stable_rank
from mmeb_assets.qa.families.temporal import final_record, version_record
from mmeb_assets.qa.text import decimals, fmt_like, parse_number, when
from mmeb_assets.schema import Derivation, EvolvingFact, QAItem

QUANTITY = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?\s*([A-Za-z%/ ]{0,20})")


CURRENCY_FIRST = re.compile(r"(EUR|USD|GBP|CHF|[$€£])\s?[-+]?\d[\d,]*(?:\.\d+)?")


def _unit(value: str) -> str | None:
    """'150 GPU-hours' -> 'GPU-hours'; a currency written first ('EUR 18,000') -> 'EUR'."""
    match = QUANTITY.fullmatch(value.strip())
    if match:
        return match.group(1).strip()
    money = CURRENCY_FIRST.fullmatch(value.strip())
    return money.group(1) if money else None


def _numeric_facts(ctx: GenContext) -> list[tuple[EvolvingFact, list]]:
    out = []
    for fact in ctx.index.plan.evolving_facts:
        units = {_unit(v.value) for v in fact.versions}
        if len(fact.versions) < 2 or None in units or len(units) != 1:
            continue
        first, last = fact.versions[0], fact.versions[-1]
        if parse_number(first.value) == parse_number(last.value):
            continue
        records = [version_record(ctx, fact, first), final_record(ctx, fact)]
        if all(records):
            out.append((fact, records))
    return out


def computation(ctx: GenContext) -> list[QAItem]:
    out = []
    for fact, records in _numeric_facts(ctx):
        first, last = fact.versions[0], fact.versions[-1]
        a, b = parse_number(last.value), parse_number(first.value)
        unit = _unit(last.value)
        result = fmt_like(a - b, max(decimals(first.value), decimals(last.value)), first.value, last.value)
        q = f"By how much did the {fact.subject} change from its first stated value to its final value?"
        answer = f"{result}{' ' + unit if unit else ''} ({first.value} to {last.value})"
        evidence = ids(records)
        out.append(draft(
            ctx, "computation", "computation.fact_change", q, answer, value=result, unit=unit or "", evidence=evidence,
            boundary="first and final stated values",
            steps=[(f"First stated value: {first.value}.", [records[0].id]),
                   (f"Final value after the last revision: {last.value}.", [records[1].id]),
                   (f"Compute {last.value} - {first.value} = {result}.", [])],
            derivation=Derivation(kind="difference", operands=[last.value, first.value], result=result,
                                  fact_key=fact.id),
        ))
    return out


def comparison(ctx: GenContext) -> list[QAItem]:
    out = []
    for fact, records in _numeric_facts(ctx):
        first, last = fact.versions[0], fact.versions[-1]
        larger, smaller = ("final", "first") if parse_number(last.value) > parse_number(first.value) else ("first", "final")
        q = f"Which was larger, the first stated {fact.subject} or the final one, and by how much?"
        gap = fmt_like(abs(parse_number(last.value) - parse_number(first.value)),
                       max(decimals(first.value), decimals(last.value)), first.value, last.value)
        answer = f"The {larger} one: {last.value if larger == 'final' else first.value} vs " \
                 f"{first.value if larger == 'final' else last.value} (by {gap})"
        out.append(draft(
            ctx, "comparison", "comparison.fact_states", q, answer, value=larger, evidence=ids(records),
            boundary="first and final stated values",
            steps=[(f"First: {first.value}; final: {last.value}.", ids(records)),
                   (f"The {larger} one is larger by {gap}.", [])],
            derivation=Derivation(kind="rank", operands=[f"first={first.value}", f"final={last.value}"], result=larger,
                                  fact_key=fact.id, premise_values=["first", "final"]),
        ))
    return out + _peaks(ctx) + _invented_pairs(ctx)


def _peaks(ctx: GenContext) -> list[QAItem]:
    """The highest value a fact took over the week (the lowest, when that one falls mid-week): every
    stated version is needed to know it. A fact that only rose or only fell is not asked: its first or
    its last statement is the answer, which a reader taking the first or latest mention gets by position."""
    out = []
    for fact in ctx.index.plan.evolving_facts:
        numbers = [parse_number(v.value) for v in fact.versions]
        units = {_unit(v.value) for v in fact.versions}
        if len(fact.versions) < 3 or None in numbers or None in units or len(units) != 1 or len(set(numbers)) < 3:
            continue
        records = [version_record(ctx, fact, v) for v in fact.versions]
        if not all(records) or len(ids(records)) < 3:
            continue
        inner = range(1, len(numbers) - 1)
        peak, trough = numbers.index(max(numbers)), numbers.index(min(numbers))
        if peak not in inner and trough not in inner:
            continue
        low = peak not in inner
        top = fact.versions[trough if low else peak]
        q = f"What was the {'lowest' if low else 'highest'} value the {fact.subject} took during the week?"
        unit = _unit(top.value) or ""
        bare = _without_unit(top.value, unit)
        out.append(draft(
            ctx, "comparison", "comparison.fact_peak", q, f"{top.value} (stated on {when(top.time)})", value=bare,
            unit=unit,
            evidence=ids(records), boundary="whole recorded period",
            steps=[(f"{when(v.time)}: {v.value}.", [r.id]) for v, r in zip(fact.versions, records)]
                  + [(f"The {'lowest' if low else 'highest'} is {top.value}.", [])],
            derivation=Derivation(kind="rank_low" if low else "rank", operands=[f"{v.value}={v.value}" for v in fact.versions],
                                  result=top.value, fact_key=f"{fact.id}:peak"),
        ))
    return out


def _invented_pairs(ctx: GenContext) -> list[QAItem]:
    index, out = ctx.index, []
    wrong = {e.target for e in index.plan.errors}
    facts = [f for f in index.plan.invented if f.id not in wrong and parse_number(f.value) is not None]
    for n, a in enumerate(facts):
        for b in facts[n + 1:]:
            if a.unit != b.unit or not a.unit or parse_number(a.value) == parse_number(b.value):
                continue
            ra, rb = index.value_record(a.value, ref=a.id), index.value_record(b.value, ref=b.id)
            if not (ra and rb):
                continue
            big = a if parse_number(a.value) > parse_number(b.value) else b
            q = f"Which measured value is larger: the {a.name} or the {b.name}?"
            out.append(draft(
                ctx, "comparison", "comparison.invented_pair", q, f"The {big.name} ({big.value} {big.unit})",
                value=big.name, evidence=ids([ra, rb]),
                steps=[(f"{a.name}: {a.value} {a.unit}.", [ra.id]), (f"{b.name}: {b.value} {b.unit}.", [rb.id]),
                       (f"The larger is the {big.name}.", [])],
                derivation=Derivation(kind="rank", operands=[f"{a.name}={a.value}", f"{b.name}={b.value}"],
                                      result=big.name, fact_key=f"{a.id}|{b.id}", premise_values=[a.name, b.name]),
            ))
    return out[:2]


def interpretation(ctx: GenContext) -> list[QAItem]:
    out = []
    for fact, records in _numeric_facts(ctx):
        first, last = fact.versions[0], fact.versions[-1]
        a, b = parse_number(first.value), parse_number(last.value)
        places = max(decimals(first.value), decimals(last.value))
        gap = abs(b - a)
        supported = stable_rank(ctx.seed, "fact-claim", fact.id) % 2 == 0
        claim = fmt_like(gap / 2 if supported else gap * 2, places, first.value, last.value)
        if parse_number(claim) <= 0 or parse_number(claim) == gap:
            continue
        verdict = "Yes" if gap >= parse_number(claim) else "No"
        direction = "grew" if b > a else "shrank"
        q = (f"Do the records support the claim that the {fact.subject} {direction} by at least {claim} between its "
             f"first stated value and its final value?")
        change = fmt_like(gap, places, first.value, last.value)
        answer = f"{verdict}: it went from {first.value} to {last.value}, a change of {change}."
        out.append(draft(
            ctx, "interpretation", "interpretation.fact_claim", q, answer, value=verdict, evidence=ids(records),
            boundary="first and final stated values",
            steps=[(f"First: {first.value}.", [records[0].id]), (f"Final: {last.value}.", [records[1].id]),
                   (f"The change is {change}, so the claim is {'supported' if verdict == 'Yes' else 'not supported'}.", [])],
            derivation=Derivation(kind="claim_check", operands=[first.value, last.value, claim], result=verdict,
                                  fact_key=fact.id, premise_values=[claim]),
        ))
    return out


def _without_unit(value: str, unit: str) -> str:
    """'45,500' from 'EUR 45,500' (a currency leads) and from '45,500 respondents' (a count follows)."""
    text = value.strip()
    if unit and text.startswith(unit):
        return text[len(unit):].strip()
    if unit and text.endswith(unit):
        return text[: len(text) - len(unit)].strip()
    return text
