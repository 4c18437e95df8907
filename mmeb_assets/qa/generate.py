"""Rule-based generation for one project: every family, ids, de-duplication, then UNS perturbations."""
from __future__ import annotations

from mmeb_assets.qa import unanswerable
from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.families import (
    attribution, board, claims, conflict, corrected, disagree, extraction, facts, numeric, stated, temporal,
    visual_versions,
)
from mmeb_assets.qa.families.base import GenContext
from mmeb_assets.qa.text import normalize
from mmeb_assets.schema import TASKS, QAItem

TASK_ABBR = {"extraction": "ext", "attribution": "att", "computation": "cmp", "comparison": "cpr",
             "interpretation": "int", "cross_source_conflict": "xsc", "temporal_conflict": "tmp",
             "unanswerable": "uns"}
FAMILIES = (
    ("extraction", extraction.generate), ("attribution", attribution.generate), ("attribution", board.attribution),
    ("computation", numeric.computation), ("computation", facts.computation),
    ("comparison", numeric.comparison), ("comparison", facts.comparison), ("comparison", stated.comparison),
    ("interpretation", numeric.interpretation), ("interpretation", claims.interpretation),
    ("interpretation", facts.interpretation), ("interpretation", stated.interpretation),
    ("computation", corrected.computation), ("comparison", corrected.comparison),
    ("interpretation", corrected.interpretation), ("interpretation", board.interpretation),
    ("cross_source_conflict", conflict.generate), ("cross_source_conflict", disagree.generate),
    ("temporal_conflict", temporal.generate), ("temporal_conflict", visual_versions.generate),
)


def dedupe(items: list[QAItem]) -> list[QAItem]:
    """Drop items whose question repeats an earlier one (normalized text)."""
    seen, out = set(), []
    for item in items:
        key = normalize(item.q)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def assign_ids(items: list[QAItem], seed: str, prefix: str = "") -> list[QAItem]:
    counters: dict[str, int] = {}
    out = []
    for item in items:
        counters[item.task] = counters.get(item.task, 0) + 1
        new_id = f"{seed}-{prefix}{TASK_ABBR[item.task]}-{counters[item.task]:02d}"
        out.append(item.model_copy(update={"id": new_id}))
    return out


def generate_rule_items(ctx: GenContext) -> list[QAItem]:
    """All answerable families in order, then UNS perturbations of them; ids '<seed>-<abbr>-NN'."""
    answerable: list[QAItem] = []
    for _task, family in FAMILIES:
        answerable += family(ctx)
    answerable = assign_ids(dedupe(answerable), ctx.seed)
    uns = assign_ids(unanswerable.generate(ctx, answerable), ctx.seed)
    items = dedupe(answerable + uns)
    order = {task: n for n, task in enumerate(TASKS)}
    return sorted(items, key=lambda i: (order[i.task], i.id))


def make_context(index: ProjectIndex, provenance) -> GenContext:
    return GenContext(index=index, provenance=provenance)
