"""Evidence floors: after the mix is chosen, swap items so the kept set reaches the paper's shares of
multi-record and multi-source evidence.

The mix takes evidence shapes in turns, which on a small project (60 questions) can still land one
item short of a floor (17.5% against 18%). A swap exchanges a kept item for a validated item left
out by the mix, of the same task and the same selection bucket prefix (for conflicts: where the gold
was posted first or later), so task counts and the position balance stay as chosen; only the
evidence shape changes. Then, when the cross-source golds of the kept set lean to the value posted
first (or later) beyond the 40-60% band, a conflict item of that side is exchanged for one of the
other side, or one whose first post is undecided. Last, while two-record golds are over
`TWO_UNIT_CEILING` of a project, an evidence-reasoning item on two records is exchanged for a one-record
item of its task where every floor still holds. Swaps are deterministic (the kept order and the
left-out order decide).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.mix import n_images, n_units
from mmeb_assets.qa.quality import TARGETS
from mmeb_assets.schema import QAItem


@dataclass(frozen=True)
class Floor:
    name: str
    share: float
    holds: Callable[[QAItem], bool]


def _answerable(item: QAItem) -> bool:
    return item.answer_status == "answerable" and bool(item.evidence)


def evidence_floors(index: ProjectIndex) -> tuple[Floor, ...]:
    """The two floors of the per-seed quality targets, measured as `quality.seed_quality` does."""
    def multi_record(item: QAItem) -> bool:
        return _answerable(item) and len(set(item.evidence)) >= 3

    def multi_source(item: QAItem) -> bool:
        sources = {index.by_id[e].source for e in item.evidence if e in index.by_id}
        return _answerable(item) and len(sources) >= 2

    return (Floor("multi_record", TARGETS["multi_record"], multi_record),
            Floor("multi_source", TARGETS["multi_source"], multi_source))


def needed(selected: list[QAItem], floor: Floor) -> int:
    """How many more kept items must satisfy the floor."""
    answerable = sum(_answerable(i) for i in selected)
    return max(0, math.ceil(floor.share * answerable - 1e-9) - sum(floor.holds(i) for i in selected))


CONFLICT_TASKS = ("cross_source_conflict", "temporal_conflict")
# Two-record golds above this share of a project's answerable questions are exchanged for one-record
# ones while the floors allow (paper Table 3 (d): 32.4% on two units, 49.1% on one).
TWO_UNIT_CEILING = 0.34


def _prefix(bucket: Callable[[QAItem], str], item: QAItem) -> str:
    """Where a conflict item's gold was posted (its bucket's first part); '' for other tasks, whose
    bucket leads with the evidence size that a swap is there to change."""
    key = bucket(item)
    return key.partition("|")[0] if "|" in key and item.task in CONFLICT_TASKS else ""


def _find_swap(selected: list[QAItem], left_out: list[QAItem], floor: Floor, floors: tuple[Floor, ...],
               bucket: Callable[[QAItem], str]) -> tuple[int, int] | None:
    """(index in selected, index in left_out) of the first swap that raises `floor` and lowers none."""
    # two-record items leave first: the paper's evidence sizes (Table 3 (d)) have one unit most often;
    # items read off two or more images come in first (Table 6's Image 2+ column)
    order = sorted(range(len(selected) - 1, -1, -1), key=lambda i: n_units(selected[i]) != 2)
    for j in sorted(range(len(left_out)), key=lambda j: n_images(left_out[j]) < 2):
        incoming = left_out[j]
        if not floor.holds(incoming):
            continue
        for i in order:
            outgoing = selected[i]
            if (outgoing.task != incoming.task or floor.holds(outgoing)
                    or _answerable(outgoing) != _answerable(incoming)
                    or _prefix(bucket, outgoing) != _prefix(bucket, incoming)):
                continue
            if all(f.holds(incoming) or not f.holds(outgoing) for f in floors):
                return i, j
    return None


def _where(bucket: Callable[[QAItem], str], item: QAItem) -> str:
    return _prefix(bucket, item) if item.task == "cross_source_conflict" else ""


def _first_share(items: list[QAItem], bucket: Callable[[QAItem], str]) -> float | None:
    sides = [w for w in (_where(bucket, i) for i in items) if w in ("first", "later")]
    return sides.count("first") / len(sides) if sides else None


def _position_excess(selected: list[QAItem], bucket: Callable[[QAItem], str]) -> str | None:
    """'first' or 'later' when that side holds more than the target share of decided conflict golds."""
    first = _first_share(selected, bucket)
    if first is None:
        return None
    if first > TARGETS["first_posted_high"]:
        return "first"
    return "later" if first < TARGETS["first_posted_low"] else None


def _balance_swap(selected: list[QAItem], left_out: list[QAItem], excess: str, floors: tuple[Floor, ...],
                  bucket: Callable[[QAItem], str]) -> tuple[int, int] | None:
    """A cross-source item of the over-represented side out, one of the other side (else an undecided
    one) in, bringing the share nearer one half and lowering no evidence floor."""
    other = "later" if excess == "first" else "first"
    share = _first_share(selected, bucket)
    for wanted in (other, "unclear"):
        for j, incoming in enumerate(left_out):
            if incoming.task != "cross_source_conflict" or _where(bucket, incoming) != wanted:
                continue
            for i in range(len(selected) - 1, -1, -1):
                outgoing = selected[i]
                if outgoing.task != "cross_source_conflict" or _where(bucket, outgoing) != excess or \
                        not all(f.holds(incoming) or not f.holds(outgoing) for f in floors):
                    continue
                after = _first_share(selected[:i] + [incoming] + selected[i + 1:], bucket)
                if after is not None and abs(after - 0.5) < abs(share - 0.5):
                    return i, j
    return None


def raise_evidence_floors(selected: list[QAItem], left_out: list[QAItem], index: ProjectIndex,
                          bucket: Callable[[QAItem], str]) -> tuple[list[QAItem], list[QAItem], int]:
    """(selected, left out, swaps made): the floors reached, and the cross-source golds' first-posted
    share brought into its band, where the left-out items allow it."""
    selected, left_out = list(selected), list(left_out)
    floors = evidence_floors(index)
    swaps = 0
    for floor in floors:
        while needed(selected, floor) > 0:
            found = _find_swap(selected, left_out, floor, floors, bucket)
            if found is None:
                break
            i, j = found
            selected[i], left_out[j] = left_out[j], selected[i]
            swaps += 1
    for _ in range(len(selected)):
        excess = _position_excess(selected, bucket)
        found = _balance_swap(selected, left_out, excess, floors, bucket) if excess else None
        if found is None:
            break
        i, j = found
        selected[i], left_out[j] = left_out[j], selected[i]
        swaps += 1
    for _ in range(len(selected)):
        found = _size_swap(selected, left_out, floors)
        if found is None:
            break
        i, j = found
        selected[i], left_out[j] = left_out[j], selected[i]
        swaps += 1
    return selected, left_out, swaps


def _two_unit_excess(selected: list[QAItem]) -> bool:
    answerable = [i for i in selected if _answerable(i)]
    return sum(n_units(i) == 2 for i in answerable) > TWO_UNIT_CEILING * len(answerable)


def _size_swap(selected: list[QAItem], left_out: list[QAItem], floors: tuple[Floor, ...]) -> tuple[int, int] | None:
    """While two-record golds are over the ceiling: an evidence-reasoning item on two records (not read
    off two images) out, a one-record item of the same task in, where every floor still holds after."""
    if not _two_unit_excess(selected):
        return None
    for i in range(len(selected) - 1, -1, -1):
        outgoing = selected[i]
        if outgoing.task in CONFLICT_TASKS or n_units(outgoing) != 2 or n_images(outgoing) >= 2 \
                or not _answerable(outgoing):
            continue
        for j, incoming in enumerate(left_out):
            if incoming.task != outgoing.task or n_units(incoming) != 1 or not _answerable(incoming):
                continue
            trial = selected[:i] + [incoming] + selected[i + 1:]
            if all(needed(trial, f) == 0 or needed(trial, f) <= needed(selected, f) and not f.holds(outgoing)
                   for f in floors):
                return i, j
    return None
