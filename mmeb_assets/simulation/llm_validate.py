"""Validators of LLM step outputs: each returns the list of problems fed back for regeneration."""
from __future__ import annotations

import re

from mmeb_assets.schema.workspace import Organization
from mmeb_assets.simulation.checks_org import check_organization
from mmeb_assets.simulation.config import SimulationConfig, slot_time, to_slot
from mmeb_assets.simulation.drafts import ErrorsDecisionsDraft, EvolvingFactsDraft, OrgDraft, ScheduleDraft, Slot
from mmeb_assets.simulation.error_invariants import error_problems, straddles_report_v1
from mmeb_assets.simulation.errors import assemble_errors
from mmeb_assets.simulation.items import source_values
from mmeb_assets.simulation.schedule import Anchors
from mmeb_assets.simulation.timeline import to_frac


def _time(config: SimulationConfig, slot: Slot, where: str, out: list[str]):
    try:
        return slot_time(config, slot.day, slot.time)
    except ValueError as exc:
        out.append(f"{where}: {exc}")
        return None


def _when_frac(config: SimulationConfig, frac: float) -> str:
    from mmeb_assets.simulation.timeline import worktime
    day, hhmm = to_slot(config, worktime(config, frac))
    return f"day {day} {hhmm}"


def _quiet_time(config: SimulationConfig, slot: Slot):
    try:
        return slot_time(config, slot.day, slot.time)
    except ValueError:
        return None


def _member(org: Organization, channel: str, person: str) -> bool:
    return any(c.id == channel and person in c.members for c in org.channels)


def validate_org_draft(draft: OrgDraft, build, config: SimulationConfig) -> list[str]:
    out: list[str] = []
    for name, slot in (("milestone_a", draft.milestone_a), ("milestone_b", draft.milestone_b)):
        _time(config, Slot(day=slot.day, time=slot.time), name, out)
    _time(config, draft.late_joiner_joins, "late_joiner_joins", out)
    if len(draft.people) != config.n_people:
        out.append(f"people: {len(draft.people)} given, exactly {config.n_people} required")
    bad_ids = [p.id for p in draft.people if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", p.id)]
    if bad_ids:
        out.append(f"people: ids must be lower-case slugs, got {bad_ids}")
    if out:
        return out
    try:
        org = build(draft)
    except (ValueError, KeyError) as exc:
        return [f"organization cannot be assembled: {exc}"]
    return check_organization(org)


def validate_schedule(draft: ScheduleDraft, facts, org: Organization, config: SimulationConfig) -> list[str]:
    out: list[str] = []
    people = {p.id for p in org.people}
    joiner = org.person(org.late_joiner_id)
    if not draft.items:
        out.append("items: none given")
    if not any(i.kind == "release" for i in draft.items):
        out.append("items: at least one 'release' item is required")
    if len({i.id for i in draft.items}) != len(draft.items):
        out.append("items: duplicate ids")
    for it in draft.items:
        values = source_values(facts, it.table_id, it.row_index)
        if values is None:
            out.append(f"item {it.id}: table_id {it.table_id!r} / row_index {it.row_index} is not a listed row")
            continue
        leaked = [v for v in values.values() if re.search(r"\d", v) and v in it.label]
        if leaked:
            out.append(f"item {it.id}: label {it.label!r} contains values {leaked}")
        if it.owner not in people:
            out.append(f"item {it.id}: owner {it.owner!r} is not a person")
        when = _time(config, it.done, f"item {it.id}", out)
        if when and it.owner == joiner.id and when < joiner.joined_at:
            out.append(f"item {it.id}: the late joiner cannot finish work before joining")
    done = [w for it in draft.items if (w := _quiet_time(config, it.done)) is not None]
    v1 = Anchors.of(org, config).report_v1
    if done and all(to_frac(config, w) <= v1 for w in done):
        out.append(f"items: at least one must finish after report v1 ({_when_frac(config, v1)}), so it is pending there")
    if len(draft.invented) != config.n_invented:
        out.append(f"invented: {len(draft.invented)} given, exactly {config.n_invented} required")
    for f in draft.invented:
        if not _member(org, f.channel, f.owner):
            out.append(f"invented {f.id}: owner {f.owner!r} is not a member of {f.channel!r}")
        if not re.search(r"\d", f.value):
            out.append(f"invented {f.id}: value {f.value!r} is not a number")
        _time(config, f.at, f"invented {f.id}", out)
    return out


def validate_errors_decisions(draft: ErrorsDecisionsDraft, items, invented, org: Organization,
                              config: SimulationConfig, anchors) -> list[str]:
    out: list[str] = []
    if len(draft.errors) != config.n_errors:
        out.append(f"errors: {len(draft.errors)} given, exactly {config.n_errors} required")
    try:
        errors = assemble_errors(draft.errors, items, invented, config)
    except (KeyError, ValueError) as exc:
        return out + [f"errors cannot be assembled: {exc}"]
    by_item, by_inv = {i.id: i for i in items}, {f.id: f for f in invented}
    for e in errors:
        out += error_problems(e, org, by_item, by_inv, config, anchors)
    if errors and not any(straddles_report_v1(e, by_item, by_inv, config, anchors) for e in errors):
        out.append("errors: at least one slip must happen before report v1 "
                   f"({_when_frac(config, anchors.report_v1)}) and be corrected after it")
    cites_ok = {v for i in items for v in i.values.values()} | {f.display for f in invented}
    wrong = {e.wrong_value for e in errors}
    for d in draft.decisions:
        if not _member(org, d.channel, d.decided_by):
            out.append(f"decision {d.id}: {d.decided_by!r} is not a member of {d.channel!r}")
        _time(config, d.at, f"decision {d.id}", out)
        for c in d.cites:
            if c in wrong and c not in cites_ok:
                out.append(f"decision {d.id}: cites the wrong value {c!r}")
            if c not in d.body + d.rationale:
                out.append(f"decision {d.id}: cited {c!r} is not written in body or rationale")
    return out


def validate_evolving(draft: EvolvingFactsDraft, org: Organization, config: SimulationConfig,
                      kinds: list[str]) -> list[str]:
    out: list[str] = []
    joiner = org.person(org.late_joiner_id)
    got = [f.kind for f in draft.facts]
    allowed = {part for want in kinds for part in want.split(" or ")}
    if len(got) != len(kinds) or len(set(got)) != len(got) or not set(got) <= allowed \
            or not {"budget", "size"} & set(got):
        out.append(f"facts: {len(kinds)} distinct kinds from {sorted(allowed)} (one budget or size "
                   f"among them, in any order), got {got}")
    if not any(len(f.versions) >= 3 for f in draft.facts):
        out.append("facts: at least one fact needs 3 or more versions")
    for f in draft.facts:
        if not 2 <= len(f.versions) <= 4:
            out.append(f"fact {f.id}: {len(f.versions)} versions, expected 2-4")
        times = []
        for n, v in enumerate(f.versions):
            when = _time(config, v.at, f"fact {f.id} version {n}", out)
            times.append(when)
            if not _member(org, v.channel, v.speaker):
                out.append(f"fact {f.id} version {n}: speaker {v.speaker!r} is not a member of {v.channel!r}")
            if when and v.speaker == joiner.id and when < joiner.joined_at:
                out.append(f"fact {f.id} version {n}: the late joiner speaks before joining")
        if None not in times and times != sorted(times):
            out.append(f"fact {f.id}: versions are not chronological")
        if f.versions and f.versions[0].cause != "initial":
            out.append(f"fact {f.id}: the first version's cause must be 'initial'")
    return out
