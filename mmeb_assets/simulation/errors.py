"""Rules twin of the scripted errors: each slip has a kind, a wrong value, a noticer, a place and a fix."""
from __future__ import annotations

import random
import re

from mmeb_assets.schema.workspace import InventedFact, Organization, PlanItem, ScriptedError
from mmeb_assets.simulation.config import SimulationConfig, slot_time
from mmeb_assets.simulation.drafts import ErrorDraft
from mmeb_assets.simulation.error_invariants import error_problems
from mmeb_assets.simulation.organization import dm_between
from mmeb_assets.simulation.schedule import Anchors, _slot
from mmeb_assets.simulation.statement_items import FIGURE, QUOTED_COLUMNS
from mmeb_assets.simulation.timeline import to_frac

WRONG_UNIT = {"ms": "s", "s": "ms", "GB": "MB", "min": "h", "h": "min", "USD": "EUR", "%": "percentage points"}
KIND_SCENARIO = {"swapped_digits": "early", "wrong_row": "straddle", "wrong_unit": "straddle", "stale_value": "late"}
NUMERIC = re.compile(r"^(?:[A-Z][A-Za-z]{1,15} )?[\d.,%+\-$€£ ]+$")


def swap_digits(value: str, rng: random.Random) -> str | None:
    """Swap two adjacent, different digits ('81.2' -> '18.2'); None if no such pair."""
    spots = [i for i in range(len(value) - 1) if value[i].isdigit() and value[i + 1].isdigit()
             and value[i] != value[i + 1]]
    if not spots:
        spots = [i for i in range(len(value) - 2) if value[i].isdigit() and value[i + 1] in ".," and
                 value[i + 2].isdigit() and value[i] != value[i + 2]]
        if not spots:
            return None
        i = rng.choice(spots)
        return value[:i] + value[i + 2] + value[i + 1] + value[i] + value[i + 3:]
    i = rng.choice(spots)
    return value[:i] + value[i + 1] + value[i] + value[i + 2:]


def misquoted_figure(stated: str, rng: random.Random) -> str | None:
    """'8 characters' -> '6 characters', '$450 million' -> '$540 million': the number changed as a
    hurried quote changes it (digits swapped, else a near number), every other word kept."""
    match = re.search(r"\d[\d,]*(?:\.\d+)?", stated)
    if not match:
        return None
    number = match.group(0)
    wrong = swap_digits(number, rng)
    if not wrong or wrong.startswith("0") and len(wrong) > 1 and wrong[1] != ".":
        whole = int(float(number.replace(",", "")))
        share = "%" in stated or "percent" in stated
        wrong = f"{rng.choice([whole + 2, whole + 2 if share else whole * 2, whole - 2 if whole > 3 else whole + 4]):,}"
        wrong = wrong if "," in number or len(wrong) < 5 else wrong.replace(",", "")
    return None if wrong == number else stated[:match.start()] + wrong + stated[match.end():]


def numeric_cells(item: PlanItem) -> list[str]:
    return [col for col, v in item.values.items() if NUMERIC.match(v) and re.search(r"\d", v)]


def correct_value_of(target: str, items: dict[str, PlanItem], invented: dict[str, InventedFact]) -> str:
    if target in invented:
        inv = invented[target]
        return inv.display or inv.value
    item_id, _, col = target.partition(":")
    if item_id not in items or col not in items[item_id].values:
        raise KeyError(f"error target {target!r}: no such item/column or invented fact")
    return items[item_id].values[col]


def _noticer(org: Organization, slipper: str, preferred: list[str], want_dm: bool, channel: str) -> tuple[str, str]:
    chans = {c.id: c for c in org.channels}
    pool = [p for p in preferred if p not in (slipper, org.late_joiner_id)]
    if want_dm:
        for person in pool:
            dm = dm_between(org, person, slipper)
            if dm in chans:
                return person, dm
    members = chans[channel].members
    for person in pool + [m for m in members if m not in pool]:
        if person in members and person not in (slipper, org.late_joiner_id):
            return person, channel
    raise ValueError(f"channel {channel}: nobody besides {slipper} to notice the error")


class ErrorPlanner:
    def __init__(self, org, items, invented, config, anchors: Anchors, rng, channels: dict[str, str], taken):
        self.org, self.config, self.a, self.rng, self.ch = org, config, anchors, rng, channels
        self.items = {i.id: i for i in items}
        self.invented = {f.id: f for f in invented}
        self.taken = set(taken)
        self.used_targets: set[str] = set()

    def frac(self, when) -> float:
        return to_frac(self.config, when)

    def _candidates(self, latest: float, kinds: tuple[str, ...]) -> list[tuple[PlanItem, str]]:
        """(item, column) pairs a slip can hit: numeric results; a statement's definition (misquoted with
        another term's) when `kinds` takes statements."""
        out = []
        for item in self.items.values():
            if item.kind in kinds and self.frac(item.completed_at) < latest:
                cols = ([c for c in QUOTED_COLUMNS if c in item.values] if item.kind == "statement"
                        else numeric_cells(item))
                out += [(item, col) for col in cols if f"{item.id}:{col}" not in self.used_targets
                        and len(item.values[col]) >= 3]
        return out

    def target(self, kind: str, latest: float) -> tuple[str, str, float] | None:
        """(target, wrong value, time the correct value became known)."""
        rng = self.rng
        if kind == "wrong_unit":
            for inv in sorted(self.invented.values(), key=lambda f: f.time):
                if inv.unit in WRONG_UNIT and inv.id not in self.used_targets and self.frac(inv.time) < latest:
                    return inv.id, f"{inv.value} {WRONG_UNIT[inv.unit]}", self.frac(inv.time)
            return None
        if kind == "stale_value":
            return self._stale()
        kinds = ("baseline", "progression", "chronological", "analysis") + (
            ("statement",) if kind in ("wrong_row", "swapped_digits") else ())
        cands = self._candidates(latest, kinds)
        rng.shuffle(cands)
        cands.sort(key=lambda c: c[0].kind != "statement")  # a misquoted statement before a misread row
        for item, col in cands:
            value = item.values[col]
            if kind == "swapped_digits" and item.kind == "statement" and col != FIGURE:
                continue  # words are misquoted with another statement's words (wrong_row), not mistyped
            if col == FIGURE:
                wrong = misquoted_figure(value, rng)  # a figure quoted with another number, its unit kept
            elif kind == "swapped_digits":
                wrong = swap_digits(value, rng)
            else:
                others = [o.values[col] for o in self.items.values() if o.table_id == item.table_id
                          and o.id != item.id and o.values.get(col, value) != value]
                wrong = rng.choice(sorted(others)) if others else None
            if wrong and wrong != value and (kind == "wrong_row" or wrong not in self.taken):
                return f"{item.id}:{col}", wrong, self.frac(item.completed_at)
        if kind == "swapped_digits":  # no result fits: an invented measurement can be mistyped too
            for inv in sorted(self.invented.values(), key=lambda f: f.time):
                shown = inv.display or inv.value
                wrong = swap_digits(shown, rng)
                if inv.id not in self.used_targets and self.frac(inv.time) < latest and wrong and \
                        wrong != shown and wrong not in self.taken:
                    return inv.id, wrong, self.frac(inv.time)
        return None

    def _stale(self) -> tuple[str, str, float] | None:
        """The adopted row restated with an older figure: last year's value, or the previous run's."""
        ordered = sorted(self.items.values(), key=lambda i: i.completed_at)
        for item in [i for i in ordered if i.kind == "release"]:
            years = [c for c in item.values if re.fullmatch(r"(19|20)\d\d", c)]
            if len(years) >= 2 and f"{item.id}:{years[-1]}" not in self.used_targets:
                col = years[-1]
                prev = item.values[years[-2]]
                if prev != item.values[col]:
                    return f"{item.id}:{col}", prev, self.frac(item.completed_at)
            earlier = [o for o in ordered if o.table_id == item.table_id and o.completed_at < item.completed_at]
            for col in numeric_cells(item):
                if f"{item.id}:{col}" in self.used_targets:
                    continue
                prev = next((o.values[col] for o in reversed(earlier)
                             if o.values.get(col) not in (None, item.values[col])), None)
                if prev:
                    return f"{item.id}:{col}", prev, self.frac(item.completed_at)
        return None

    def times(self, scenario: str, known: float) -> tuple[float, float, float]:
        a, u = self.a, self.rng.uniform
        if scenario == "early":
            slip = max(known + 0.01, u(0.1, 0.18))
            notice = slip + u(0.015, 0.04)
            return slip, notice, notice + u(0.01, 0.025)
        if scenario == "straddle":
            slip = max(known + 0.008, u(a.report_v1 - 0.12, a.report_v1 - 0.03))
            slip = min(slip, a.report_v1 - 0.008)
            notice = a.report_v1 + u(0.008, 0.025)
            return slip, notice, notice + u(0.01, 0.025)
        slip = max(known + 0.008, a.release + 0.01)
        notice = max(slip + 0.01, a.deck_v1 + 0.006)
        return slip, notice, min(notice + u(0.008, 0.02), a.report_v2 - 0.012)

    def plan_one(self, n: int, kind: str, scenario: str) -> ErrorDraft | None:
        """The first target of `kind` whose whole slip-notice-fix story passes `draft_problems`."""
        latest = {"early": 0.16, "straddle": self.a.report_v1 - 0.03, "late": self.a.report_v2 - 0.05}[scenario]
        for _attempt in range(12):
            found = self.target(kind, latest)
            if found is None and scenario == "early":
                found = self.target(kind, self.a.report_v1 - 0.03)
            if found is None:
                return None
            self.used_targets.add(found[0])
            draft = self._draft(n, kind, scenario, *found)
            if not self.problems(draft):
                return draft
        return None

    def problems(self, draft: ErrorDraft) -> list[str]:
        """What keeps this draft from passing the plan checks (empty: it holds by construction)."""
        try:
            err = assemble_errors([draft], list(self.items.values()), list(self.invented.values()), self.config)[0]
        except (KeyError, ValueError) as exc:
            return [f"{draft.id}: {exc}"]
        return error_problems(err, self.org, self.items, self.invented, self.config, self.a, self.ch)

    def _draft(self, n: int, kind: str, scenario: str, target: str, wrong: str, known: float) -> ErrorDraft:
        slip, notice, fix = self.times(scenario, known)
        org, ch = self.org, self.ch
        owner = (self.invented[target].owner if target in self.invented else self.items[target.split(":")[0]].owner)
        if scenario == "early":
            channel, slipper, want_dm = ch["results"], owner, False
        elif scenario == "straddle":
            channel = ch["work"] if kind == "wrong_unit" else ch["leads"]
            slipper = org.report_author_id if channel == ch["leads"] else self.rng.choice(
                [p for p in org.channel(channel).members if p not in (owner, org.late_joiner_id)])
            want_dm = True
        else:
            channel, slipper, want_dm = ch["customer"], org.pm_id, False
        preferred = [owner, org.lead_id, org.report_author_id, org.pm_id]
        noticer, notice_channel = _noticer(org, slipper, preferred, want_dm, channel)
        return ErrorDraft(id=f"err_{n:02d}", kind=kind, target=target, wrong_value=wrong, slipped_by=slipper,
                          slipped=_slot(self.config, slip), slip_channel=channel, noticed_by=noticer,
                          noticed=_slot(self.config, notice), notice_channel=notice_channel,
                          fixed=_slot(self.config, fix), fix_channel=channel)


def rules_errors(org, items, invented, config: SimulationConfig, anchors: Anchors, rng: random.Random,
                 channels: dict[str, str], taken: set[str]) -> list[ErrorDraft]:
    planner = ErrorPlanner(org, items, invented, config, anchors, rng, channels, taken)
    base = ["swapped_digits", "wrong_row", "wrong_unit", "stale_value"]
    kinds = [base[i % 4] for i in range(config.n_errors)]
    out: list[ErrorDraft] = []
    for i, kind in enumerate(kinds):
        scenario = KIND_SCENARIO[kind] if i < 4 else ("early" if i % 2 else "straddle")
        draft = None
        for k in [kind] + [x for x in base if x != kind]:
            draft = planner.plan_one(len(out) + 1, k, scenario if k == kind else KIND_SCENARIO[k])
            if draft:
                break
        if draft:
            out.append(draft)
    return out


def assemble_errors(drafts: list[ErrorDraft], items: list[PlanItem], invented: list[InventedFact],
                    config: SimulationConfig) -> list[ScriptedError]:
    by_item, by_inv = {i.id: i for i in items}, {f.id: f for f in invented}
    return [ScriptedError(
        id=d.id, kind=d.kind, target=d.target, correct_value=correct_value_of(d.target, by_item, by_inv),
        wrong_value=d.wrong_value, slipped_by=d.slipped_by, slipped_at=slot_time(config, d.slipped.day, d.slipped.time),
        slip_channel=d.slip_channel, noticed_by=d.noticed_by,
        noticed_at=slot_time(config, d.noticed.day, d.noticed.time), notice_channel=d.notice_channel,
        fixed_at=slot_time(config, d.fixed.day, d.fixed.time), fix_channel=d.fix_channel) for d in drafts]
