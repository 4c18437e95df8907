"""Unanswerable items by perturbation: swap one meaningful entity or condition of an answerable item.

A candidate is kept only when the perturbed premise occurs in no record of the project (all records,
not just the cited ones), so no record can answer it.
"""
from __future__ import annotations

import re
from collections import Counter

from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.families.base import GenContext, draft, is_year, stable_rank
from mmeb_assets.qa.phrasing import metric
from mmeb_assets.qa.text import contains_value
from mmeb_assets.schema import Derivation, QAItem

# Near misses are built from the project's own question: its metric, row, dataset, year or subject with
# one qualifier changed. The qualifier alone never forms the premise, so no stock subject recurs across
# projects (issue 27: "gpu memory footprint" asked of four projects taught a model the list).
QUALIFIERS = ("held-out", "rerun", "worst-case", "median", "macro-averaged", "per-seed", "calibrated",
              "post-deployment", "day-two", "weighted", "cross-validated", "ablated", "out-of-domain",
              "quantized", "bootstrap", "second-pass")
SUBJECT_QUALIFIERS = ("interim", "backup", "follow-up", "provisional", "fallback", "second")
SPLITS = ("held-out", "out-of-domain", "pilot", "archived", "shadow", "re-annotated")
MAX_ITEMS = 8
MAX_PER_KIND = 3


def premise_is_absent(index: ProjectIndex, terms: list[str]) -> bool:
    """True when no record of the project mentions any of the perturbed terms."""
    return not index.mentions_any(terms)


def _replace(q: str, old: str, new: str) -> str | None:
    if not old or not contains_value(q, old):
        return None
    pattern = re.compile(re.escape(old), re.IGNORECASE)
    return pattern.sub(new, q, count=1)


def _qualifier(ctx: GenContext, question: str) -> str:
    return QUALIFIERS[stable_rank(ctx.seed, question, "qualifier") % len(QUALIFIERS)]


def near_customer(customer: str, rank: int) -> str:
    """'Harborline Logistics' -> 'Harborline Transit': the same first word, another sector."""
    from mmeb_assets.simulation.names import CUSTOMER_TAILS
    head = customer.split()[0]
    tails = [t for t in CUSTOMER_TAILS if t not in customer]
    return f"{head} {tails[rank % len(tails)]}"


def _candidates(item: QAItem, ctx: GenContext) -> list[tuple[str, str, str]]:
    """(new question, perturbed term, what was changed) for one answerable item."""
    family = item.generator.split(":", 1)[-1]
    key = item.derivation.fact_key if item.derivation else ""
    out = []
    if family == "extraction.cell" and is_year(key.rpartition(":")[2]):
        col = key.rpartition(":")[2]
        plan_item = ctx.index.items.get(key.split(":")[0])
        years = [int(c) for c in (plan_item.values if plan_item else {}) if is_year(c)]
        new_year = str(max(years) + 5) if years else str(int(col) + 5)
        new = _replace(item.q, f"in {col}", f"in {new_year}")
        if new:
            out.append((new, new_year, f"year {col} -> {new_year}"))
    elif family == "extraction.cell" or family.startswith("computation."):
        _, _, col = key.rpartition(":")
        near = f"{_qualifier(ctx, item.q)} {metric(col)}"
        new = _replace(item.q, metric(col), near) or _replace(item.q, col, near)
        if new:
            out.append((new, near, f"metric '{col}' -> '{near}'"))
        item_id = key.split(":")[0].split("|")[0]
        plan_item = ctx.index.items.get(item_id)
        if plan_item and plan_item.dataset:
            split = SPLITS[stable_rank(ctx.seed, item.q, "split") % len(SPLITS)]
            dataset = f"the {split} split of {plan_item.dataset}"
            new = _replace(item.q, f"on {plan_item.dataset}", f"on {dataset}")
            if new:
                out.append((new, f"{split} split", f"dataset '{plan_item.dataset}' -> '{dataset}'"))
    elif family in ("temporal.as_of", "temporal.latest", "temporal.before"):
        fact = next((f for f in ctx.index.plan.evolving_facts if f.id == key), None)
        customer = ctx.index.org.customer.name
        if fact and customer in fact.subject:
            # a near-miss entity: the same subject for a customer with the project's customer's first word
            other = near_customer(customer, stable_rank(ctx.seed, item.q))
            subject = fact.subject.replace(customer, other)
            new = _replace(item.q, fact.subject, subject)
            if new:
                out.append((new, other, f"customer '{customer}' -> '{other}'"))
        elif fact:  # a subject named by the seed's work: a near-miss fact of the same work
            near = f"{SUBJECT_QUALIFIERS[stable_rank(ctx.seed, item.q, 'subject') % len(SUBJECT_QUALIFIERS)]} {fact.subject}"
            new = _replace(item.q, fact.subject, near)
            if new:
                out.append((new, near, f"subject '{fact.subject}' -> '{near}'"))
    elif family == "extraction.invented":
        fact = next((f for f in ctx.index.plan.invented if f.id == key), None)
        if fact:
            near = f"{_qualifier(ctx, item.q)} {fact.name}"
            new = _replace(item.q, fact.name, near)
            if new:
                out.append((new, near, f"measurement '{fact.name}' -> '{near}'"))
    return out


def generate(ctx: GenContext, answerable: list[QAItem]) -> list[QAItem]:
    out, seen, kinds = [], set(), Counter()
    pool = sorted(answerable, key=lambda i: stable_rank(ctx.seed, "uns", i.q))
    for item in pool:
        for q, term, change in _candidates(item, ctx):
            kind = change.split(" ", 1)[0]
            if q in seen or kinds[kind] >= MAX_PER_KIND or not premise_is_absent(ctx.index, [term]):
                continue
            seen.add(q)
            kinds[kind] += 1
            answer = f"Not established: no record gives this; the records contain no {term}."
            out.append(draft(
                ctx, "unanswerable", "unanswerable.perturbed", q, answer, value=None, evidence=[],
                steps=[(f"Perturbed from an answerable question ({change}).", []),
                       (f"No project record mentions {term}, so the records do not establish an answer.", [])],
                derivation=Derivation(kind="absent_premise", absent_terms=[term], fact_key=item.derivation.fact_key),
                answer_status="unanswerable", perturbed_from=item.id,
            ))
            if len(out) >= MAX_ITEMS:
                return out
    return out
