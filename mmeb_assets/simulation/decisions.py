"""Rules twin of the decisions of the week; every rationale cites exact, correct values."""
from __future__ import annotations

import random

from mmeb_assets.schema.workspace import Decision, EvolvingFact, InventedFact, Organization, PlanItem, ScriptedError
from mmeb_assets.simulation.config import SimulationConfig, slot_time
from mmeb_assets.simulation.drafts import DecisionDraft
from mmeb_assets.simulation.errors import numeric_cells
from mmeb_assets.simulation.organization import leads_channel
from mmeb_assets.simulation.schedule import Anchors, _slot
from mmeb_assets.simulation.timeline import to_frac


def _num(text: str) -> float:
    try:
        return float(text.replace(",", "").rstrip("%"))
    except ValueError:
        return 0.0


def _fixed_by(errors: list[ScriptedError], item_ids: set[str], config: SimulationConfig) -> float:
    return max((to_frac(config, e.fixed_at) for e in errors if e.target.split(":")[0] in item_ids), default=0.0)


def _primary(item: PlanItem) -> tuple[str, str]:
    cols = numeric_cells(item)
    col = cols[0] if cols else next(iter(item.values))
    return col, item.values[col]


def _release(org, items, errors, config, anchors) -> list[DecisionDraft]:
    last_fix = max((to_frac(config, e.fixed_at) for e in errors), default=0.3)
    releases = [i for i in items if i.kind == "release"]
    others = [i for i in items if i.kind in ("baseline", "progression", "chronological")]
    if not (releases and others):
        return []
    rel = releases[0]
    col, rv = _primary(rel)
    peers = [i for i in others if i.table_id == rel.table_id and col in i.values] or others
    ref = max(peers, key=lambda i: _num(i.values.get(col, "0")))
    refv = ref.values[col if col in ref.values else _primary(ref)[0]]
    return [DecisionDraft(
        id="", title=f"Adopt {rel.label} for {org.milestone_b.name}",
        body=f"We go with {rel.label}: {col} {rv}, against {refv} for {ref.label}.",
        rationale=(f"It is the strongest configuration we have and it holds up on the checks; {col} is "
                   f"{rv} against {refv} for {ref.label}."),
        decided_by=org.lead_id, at=_slot(config, max(last_fix, anchors.release) + 0.006), channel=leads_channel(org),
        cites=[rv, refv])]


def _fixed_values_by(errors: list[ScriptedError], items: list[PlanItem], values: set[str],
                     config: SimulationConfig) -> float:
    """When the last error that corrects one of `values` (in an item that holds it) is fixed; a decision
    citing the values must come after it (the plan check `check_decisions`)."""
    holders = {i.id for i in items if values & set(i.values.values())}
    return max((to_frac(config, e.fixed_at) for e in errors
                if e.correct_value in values and e.target.split(":")[0] in holders), default=0.0)


def _writeup(org, items, errors, config, anchors, channels) -> list[DecisionDraft]:
    analysis = [i for i in items if i.kind == "analysis"]
    if len(analysis) < 2:
        return []
    bound = anchors.report_v2 - 0.008

    def ready_at(item: PlanItem) -> float:
        return max(to_frac(config, item.completed_at), _fixed_by(errors, {item.id}, config),
                   _fixed_values_by(errors, items, {_primary(item)[1]}, config)) + 0.01

    # prefer results that are final before the second report, so the decision can precede it
    ready = [i for i in analysis if ready_at(i) <= bound]
    pool = ready if len(ready) >= 2 else analysis
    lo = min(pool, key=lambda i: _num(_primary(i)[1]))
    hi = max(pool, key=lambda i: _num(_primary(i)[1]))
    col, lv = _primary(lo)
    hv = hi.values.get(col, _primary(hi)[1])
    when = max(ready_at(lo), ready_at(hi), _fixed_values_by(errors, items, {hv, lv}, config) + 0.01)
    return [DecisionDraft(
        id="", title=f"Lead the write-up with {hi.label}",
        body=f"The write-up leads with {hi.label} ({hv}) and explains {lo.label} ({lv}).",
        rationale=f"The contrast is the clearest story for the customer: {hv} versus {lv} on {col}.",
        decided_by=org.report_author_id, at=_slot(config, when),
        channel=channels["work"], cites=[hv, lv])]


def _option(org, invented, evolving, config) -> list[DecisionDraft]:
    option = next((f for f in evolving if f.kind == "option"), None)
    fact = next((f for f in invented if f.unit in ("ms", "s", "GB", "h", "%", "min")), invented[0] if invented else None)
    if not (option and fact):
        return []
    final, shown = option.versions[-1], fact.display or fact.value
    return [DecisionDraft(
        id="", title=f"Use the {final.value} for {org.milestone_b.name}",
        body=f"{option.subject.capitalize()}: {final.value}. Measured {fact.name}: {shown}.",
        rationale=f"It is the option the customer can run without new hardware, and {fact.name} is {shown}.",
        decided_by=org.lead_id, at=_slot(config, to_frac(config, final.time) + 0.004), channel=leads_channel(org),
        cites=[final.value, shown])]


def _settled(org, evolving, config) -> list[DecisionDraft]:
    out = []
    specs = (("budget size", "Confirm the", "Changing it again would put the delivery date at risk, so we keep"),
             ("name", "Ship under the name", "Everyone has been using it since the last update, so we settle on"),
             ("deadline", "Hold the date", "Everyone has been using it since the last update, so we settle on"))
    for kinds, verb, why in specs:
        fact = next((f for f in evolving if f.kind in kinds.split()), None)
        if fact is None:
            continue
        ver = fact.versions[-1]
        title = f"{verb} {fact.subject}" if kinds == "budget size" else f"{verb} {ver.value}"
        out.append(DecisionDraft(
            id="", title=title, body=f"The {fact.subject} stays at {ver.value} until delivery.",
            rationale=f"{why} {ver.value}.", decided_by=org.pm_id,
            at=_slot(config, to_frac(config, ver.time) + 0.005), channel=leads_channel(org), cites=[ver.value]))
    return out


def rules_decisions(org: Organization, items: list[PlanItem], invented: list[InventedFact],
                    errors: list[ScriptedError], evolving: list[EvolvingFact], config: SimulationConfig,
                    anchors: Anchors, rng: random.Random, channels: dict[str, str]) -> list[DecisionDraft]:
    """Up to six decisions in priority order: release, write-up, option, budget/size, name, deadline."""
    out = (_release(org, items, errors, config, anchors) + _writeup(org, items, errors, config, anchors, channels)
           + _option(org, invented, evolving, config) + _settled(org, evolving, config))
    out = sorted(out[:config.n_decisions], key=lambda d: (d.at.day, d.at.time))
    for n, d in enumerate(out, start=1):
        d.id = f"dec_{n:02d}"
    return out


def assemble_decisions(drafts: list[DecisionDraft], config: SimulationConfig) -> list[Decision]:
    return [Decision(id=d.id, title=d.title, body=d.body, rationale=d.rationale, decided_by=d.decided_by,
                     time=slot_time(config, d.at.day, d.at.time), channel=d.channel, cites=d.cites) for d in drafts]
