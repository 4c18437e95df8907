"""Choose a project's questions so the category shares follow a configured mix.

Paper mix: ER 68%, CR 26%, UNS 5%. Every task type keeps at least one item when it has one; within a
category the tasks take turns (as many per round as `TASK_TURNS` gives, after the paper's task counts),
in a seeded stable order, so no task crowds out the others.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Callable

from mmeb_assets.qa.families.base import stable_rank
from mmeb_assets.schema import TASK_CATEGORY, TASKS, QAItem

PAPER_MIX = {"ER": 0.68, "CR": 0.26, "UNS": 0.05}
# Turns per round within a category, after the paper's task counts (appendix Table 2: extraction 268,
# attribution 80, computation 310, comparison 212, interpretation 232); a task with nothing left passes.
TASK_TURNS = {"extraction": 3, "attribution": 2, "computation": 4, "comparison": 3, "interpretation": 3}


def normalize_mix(mix: dict[str, float]) -> dict[str, float]:
    unknown = set(mix) - set(PAPER_MIX)
    if unknown:
        raise ValueError(f"mix: unknown categories {sorted(unknown)}; use ER, CR, UNS")
    total = sum(max(0.0, v) for v in mix.values())
    if total <= 0:
        raise ValueError("mix: shares must sum to more than 0")
    return {c: max(0.0, mix.get(c, 0.0)) / total for c in PAPER_MIX}


def _quota(available: dict[str, int], mix: dict[str, float], target: int) -> dict[str, int]:
    """Largest total <= target whose category counts fit the mix and what is available."""
    total = target
    for cat, share in mix.items():
        if share > 0:
            total = min(total, int(available.get(cat, 0) / share + 1e-9) if available.get(cat, 0) else total)
    quota = {c: int(round(total * s)) for c, s in mix.items()}
    for cat in quota:
        quota[cat] = min(quota[cat], available.get(cat, 0))
    return quota


def evidence_shape(item: QAItem) -> str:
    """'3+' (three or more gold records), 'multi' (two source types), or 'plain'."""
    stats = item.evidence_stats
    if stats is None or not stats.n_units:
        return "plain"
    if stats.n_units >= 3:
        return "3+"
    return "multi" if len(stats.source_types) >= 2 else "plain"


def n_units(item: QAItem) -> int:
    return item.evidence_stats.n_units if item.evidence_stats else 0


def n_images(item: QAItem) -> int:
    return item.evidence_stats.n_images if item.evidence_stats else 0


def evidence_size(item: QAItem) -> str:
    """'1 unit', '2 units' or '3+ units' of gold evidence (the rows of the paper's Table 3 (d))."""
    n = n_units(item)
    return "3+ units" if n >= 3 else "2 units" if n == 2 else "1 unit"


DEFERRED = "deferred"
# Turns per round. Conflict items take shapes in turn: 3+ records three times (the rarest shape), read off
# two or more images five (Table 6's Image 2+ column), the others once. Evidence-reasoning items take
# evidence sizes 3:1:1, leaning to one record because conflicts never rest on one and the floors then pull
# in multi-record items; the built shares come out near the paper's Table 3 (d) (49.1 / 32.4 / 18.5%).
TURNS = {"3+": 3, "images": 5, "1 unit": 3, "2 units": 1, "3+ units": 1}


SHAPES = ("3+", "images", "multi", "plain")


def _turns(items: list[QAItem], key: Callable[[QAItem], str]) -> list[QAItem]:
    """The items of each key in turn (evidence shapes in SHAPES order, other keys in order of first
    appearance; TURNS items per round), keeping each key's order; DEFERRED items come after all others."""
    groups: dict[str, list[QAItem]] = defaultdict(list)
    for shape in SHAPES:
        groups[shape] = []
    for item in items:
        groups[key(item)].append(item)
    deferred = groups.pop(DEFERRED, [])
    out: list[QAItem] = []
    while any(groups.values()):
        for name in list(groups):
            for _ in range(TURNS.get(name, 1)):
                if groups[name]:
                    out.append(groups[name].pop(0))
    return out + deferred


def _interleave(items: list[QAItem], bucket: Callable[[QAItem], str]) -> list[QAItem]:
    """Buckets 'primary|secondary' take turns by primary, and within one primary by secondary."""
    keys = {item.id: bucket(item) for item in items}
    inner = _turns(items, lambda i: keys[i.id].partition("|")[2])
    return _turns(inner, lambda i: keys[i.id].partition("|")[0])


# Tasks whose items about the seed document go first within each bucket (see `select_mix`); temporal
# conflicts are the drift of the team's own work facts by design, and unanswerables rest on nothing.
DOCUMENT_FIRST = {"extraction", "attribution", "computation", "comparison", "interpretation", "cross_source_conflict"}


def _round_robin(items: list[QAItem], n: int, seed: str, bucket: Callable[[QAItem], str] | None,
                 prefer: Callable[[QAItem], bool] | None = None) -> list[QAItem]:
    by_task: dict[str, list[QAItem]] = defaultdict(list)

    def order(item: QAItem) -> tuple:
        first = prefer is not None and item.task in DOCUMENT_FIRST and not prefer(item)
        return first, stable_rank(seed, "mix", item.id)
    for item in sorted(items, key=order):
        by_task[item.task].append(item)
    if bucket is not None:
        by_task = defaultdict(list, {t: _interleave(group, bucket) for t, group in by_task.items()})
    chosen: list[QAItem] = []
    order = [t for t in TASKS if by_task.get(t)]
    while len(chosen) < n and any(by_task[t] for t in order):
        for task in order:
            for _ in range(TASK_TURNS.get(task, 1)):
                if by_task[task] and len(chosen) < n:
                    chosen.append(by_task[task].pop(0))
    return chosen


def select_mix(items: list[QAItem], mix: dict[str, float], target: int, seed: str,
               bucket: Callable[[QAItem], str] | None = evidence_shape,
               prefer: Callable[[QAItem], bool] | None = None) -> tuple[list[QAItem], list[QAItem]]:
    """(selected, left out). At least one item per task type when one exists.

    Within a task the items of each `bucket` (by default the evidence shape: 3+ records, two source
    types, plain) take turns, so the kept set spans evidence shapes rather than whatever a task's
    most prolific family yields; None keeps the plain seeded order. Within a bucket the items `prefer`
    names (those resting on the seed document) come first, for the tasks of `DOCUMENT_FIRST`.
    """
    mix = normalize_mix(mix)
    by_cat: dict[str, list[QAItem]] = defaultdict(list)
    for item in items:
        by_cat[TASK_CATEGORY[item.task]].append(item)
    quota = _quota({c: len(v) for c, v in by_cat.items()}, mix, target)
    for cat, group in by_cat.items():
        quota[cat] = max(quota.get(cat, 0), len({i.task for i in group}))
    chosen: list[QAItem] = []
    for cat, group in by_cat.items():
        chosen += _round_robin(group, quota[cat], seed, bucket, prefer)
    chosen_ids = {i.id for i in chosen}
    order = {t: n for n, t in enumerate(TASKS)}
    selected = sorted(chosen, key=lambda i: (order[i.task], i.id))
    return selected, [i for i in items if i.id not in chosen_ids]


def achieved_mix(items: list[QAItem]) -> dict[str, float]:
    if not items:
        return {}
    counts: dict[str, int] = defaultdict(int)
    for item in items:
        counts[TASK_CATEGORY[item.task]] += 1
    return {c: round(counts.get(c, 0) / len(items), 4) for c in PAPER_MIX}
