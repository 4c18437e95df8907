"""Unanswerable items by perturbation: swap one meaningful entity or condition of an answerable item.

A candidate is kept only when the perturbed premise occurs in no record of the project (all records,
not just the cited ones), so no record can answer it.
"""
from __future__ import annotations

import re
from collections import Counter

from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.families.base import GenContext, draft, is_year, stable_rank
from mmeb_assets.qa.text import contains_value
from mmeb_assets.schema import Derivation, QAItem

METRICS = ("serving cost per 1,000 queries", "p99 latency", "GPU memory footprint", "energy use per query",
           "annotation cost per item", "carbon intensity", "inter-annotator agreement", "peak throughput")
SUBJECTS = ("security review deadline", "legal sign-off owner", "data retention budget", "translation vendor",
            "penetration test date")
DATASETS = ("the held-out French split", "the 2019 archive subset", "the partner pilot logs")
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
        for metric in sorted(METRICS, key=lambda m: stable_rank(item.q, m)):
            new = _replace(item.q, col, metric)
            if new:
                out.append((new, metric, f"metric '{col}' -> '{metric}'"))
                break
        item_id = key.split(":")[0].split("|")[0]
        plan_item = ctx.index.items.get(item_id)
        if plan_item and plan_item.dataset:
            dataset = DATASETS[stable_rank(item.q) % len(DATASETS)]
            new = _replace(item.q, f"on {plan_item.dataset}", f"on {dataset}")
            if new:
                out.append((new, dataset.removeprefix("the "), f"dataset '{plan_item.dataset}' -> '{dataset}'"))
    elif family in ("temporal.as_of", "temporal.latest", "temporal.before"):
        fact = next((f for f in ctx.index.plan.evolving_facts if f.id == key), None)
        if fact:
            # named for the project's customer, as the real subjects are (the workspace is shared)
            subject = f"{SUBJECTS[stable_rank(item.q) % len(SUBJECTS)]} for {ctx.index.org.customer.name}"
            new = _replace(item.q, fact.subject, subject)
            if new:
                out.append((new, subject, f"subject '{fact.subject}' -> '{subject}'"))
    elif family == "extraction.invented":
        fact = next((f for f in ctx.index.plan.invented if f.id == key), None)
        if fact:
            metric = METRICS[stable_rank(item.q) % len(METRICS)]
            new = _replace(item.q, fact.name, metric)
            if new:
                out.append((new, metric, f"measurement '{fact.name}' -> '{metric}'"))
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
