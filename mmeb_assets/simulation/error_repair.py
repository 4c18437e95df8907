"""Shared assembly of the scripted errors (rules twin and LLM alike): keep the drafts that hold, re-plan the rest.

Why: the plan's documents need a week whose errors tell a story the checks can prove: every slip
noticed and fixed before report v2, Notion catching up after each fix, and at least one slip still
standing when report v1 goes out. A draft that cannot hold (an LLM's, or a target the row cannot
carry) is replaced by the rules twin's next candidate, with another target or another kind.
"""
from __future__ import annotations

import random

from mmeb_assets.schema.workspace import InventedFact, Organization, PlanItem
from mmeb_assets.simulation.config import SimulationConfig
from mmeb_assets.simulation.drafts import ErrorDraft
from mmeb_assets.simulation.error_invariants import straddles_report_v1
from mmeb_assets.simulation.errors import KIND_SCENARIO, ErrorPlanner, assemble_errors

KINDS = ["swapped_digits", "wrong_row", "wrong_unit", "stale_value"]
STRADDLE_KINDS = ["wrong_unit", "wrong_row", "swapped_digits"]


class UnplannableErrors(ValueError):
    """No scripted error can stand in report v1 (should not happen for seeds `refusal` accepts)."""


def repair_errors(drafts: list[ErrorDraft], org: Organization, items: list[PlanItem], invented: list[InventedFact],
                  config: SimulationConfig, anchors, rng: random.Random, channels: dict[str, str],
                  taken: set[str]) -> list[ErrorDraft]:
    """The drafts that pass `error_problems` (first one per target), topped up to their number with
    rules-planned errors of the missing kinds, plus one straddling report v1 if none does."""
    planner = ErrorPlanner(org, items, invented, config, anchors, rng, channels, taken)
    kept: list[ErrorDraft] = []
    for d in drafts:
        if d.target not in planner.used_targets and not planner.problems(d):
            kept.append(d)
            planner.used_targets.add(d.target)
    missing = [d.kind for d in drafts if d not in kept]
    for kind in missing:
        for k in [kind] + [x for x in KINDS if x != kind]:
            new = planner.plan_one(len(kept) + 1, k, KIND_SCENARIO[k])
            if new:
                kept.append(new)
                break
    if not _any_straddles(kept, items, invented, config, anchors):
        kept = _with_straddle(planner, kept, org)
    return _renumbered(kept) if [d.id for d in kept] != [f"err_{n:02d}" for n in range(1, len(kept) + 1)] else kept


def _straddle(planner: ErrorPlanner, n: int) -> ErrorDraft | None:
    return next((d for k in STRADDLE_KINDS if (d := planner.plan_one(n, k, "straddle"))), None)


def _with_straddle(planner: ErrorPlanner, kept: list[ErrorDraft], org: Organization) -> list[ErrorDraft]:
    """Add a slip that report v1 still shows; if every fitting target is taken, one earlier error gives
    its target up (latest first) and is replaced by the straddling one."""
    new = _straddle(planner, len(kept) + 1)
    if new is not None:
        return kept + [new]
    for index in reversed(range(len(kept))):
        freed = kept[index].target
        planner.used_targets.discard(freed)
        new = _straddle(planner, index + 1)
        if new is not None:
            return kept[:index] + [new] + kept[index + 1:]
        planner.used_targets.add(freed)
    raise UnplannableErrors(f"{org.seed_id}: no result or invented value can carry a slip that report v1 still shows")


def _any_straddles(drafts, items, invented, config, anchors) -> bool:
    errs = assemble_errors(drafts, items, invented, config)
    by_item, by_inv = {i.id: i for i in items}, {f.id: f for f in invented}
    return any(straddles_report_v1(e, by_item, by_inv, config, anchors) for e in errs)


def _renumbered(drafts: list[ErrorDraft]) -> list[ErrorDraft]:
    return [d.model_copy(update={"id": f"err_{n:02d}"}) for n, d in enumerate(drafts, start=1)]
