"""Validation of an EventPlan against its SourceFacts and Organization (programmatic workspace checks).

Each `check_*` returns a list of problem strings, empty when the plan passes.
"""
from __future__ import annotations

import re

from mmeb_assets.schema.source import SourceFacts
from mmeb_assets.schema.workspace import EventPlan, Organization
from mmeb_assets.simulation.reviews import REVIEW_TABLE, review_values
from mmeb_assets.simulation.statement_items import STATEMENT_TABLE, statement_values

PLACES = {"email", "notion", "meeting", "files"}


def _known_ids(plan: EventPlan) -> set[str]:
    ids = {i.id for i in plan.items} | {f.id for f in plan.invented} | {e.id for e in plan.errors}
    ids |= {d.id for d in plan.decisions} | {f.id for f in plan.evolving_facts} | {d.id for d in plan.documents}
    ids |= {f"{i.id}:{col}" for i in plan.items for col in i.values}
    return ids


def _member(org: Organization, channel: str, person: str) -> bool:
    return any(c.id == channel and person in c.members for c in org.channels)


def check_references(facts: SourceFacts, org: Organization, plan: EventPlan) -> list[str]:
    """Referenced facts, people, channels and documents exist; speakers are members of their channel."""
    out: list[str] = []
    people = {p.id for p in org.people}
    chans = {c.id for c in org.channels}
    known = _known_ids(plan)
    docs = {d.id for d in plan.documents}
    for e in plan.events:
        if e.actor not in people:
            out.append(f"{e.id}: actor {e.actor!r} is not a person")
        if e.where not in PLACES and e.where not in chans:
            out.append(f"{e.id}: where={e.where!r} is neither a channel nor {sorted(PLACES)}")
        elif e.where in chans and not _member(org, e.where, e.actor):
            out.append(f"{e.id}: speaker {e.actor} is not a member of {e.where}")
        out += [f"{e.id}: unknown ref {r!r}" for r in e.refs if r not in known]
        out += [f"{e.id}: unknown recipient {r!r}" for r in e.recipients if r not in people and r != "customer"]
        if e.attachment and e.attachment not in docs:
            out.append(f"{e.id}: attachment {e.attachment!r} is not a planned document")
    out += _item_problems(facts, org, plan)
    for f in plan.invented:
        if f.owner not in people or not _member(org, f.channel, f.owner):
            out.append(f"invented {f.id}: owner {f.owner} must be a member of {f.channel}")
    for d in plan.decisions:
        if not _member(org, d.channel, d.decided_by):
            out.append(f"decision {d.id}: {d.decided_by} is not a member of {d.channel}")
    for fact in plan.evolving_facts:
        for v in fact.versions:
            if not _member(org, v.channel, v.speaker):
                out.append(f"fact {fact.id}: speaker {v.speaker} is not a member of {v.channel}")
    figures = {f.id for f in facts.figures}
    for d in plan.documents:
        if d.author not in people:
            out.append(f"document {d.id}: author {d.author!r} is not a person")
        out += [f"document {d.id}: unknown item {i}" for i in d.item_ids + d.pending_item_ids if i not in known]
        out += [f"document {d.id}: unknown figure {f}" for f in d.figure_ids if f not in figures]
        out += [f"document {d.id}: unknown error {x}" for x in d.error_ids_shown_wrong if x not in known]
    return out


def _item_problems(facts: SourceFacts, org: Organization, plan: EventPlan) -> list[str]:
    out = []
    tables = {t.id: t for t in facts.tables}
    claims = facts.textual.claims
    people = {p.id for p in org.people}
    for it in plan.items:
        if it.owner not in people:
            out.append(f"item {it.id}: owner {it.owner!r} is not a person")
        if it.table_id == REVIEW_TABLE:   # the team's own review of a section: its values are drawn, not printed
            row = list((review_values(facts, it.row_index) or {}).values())
            if not row:
                out.append(f"item {it.id}: review {it.row_index} does not exist")
                continue
        elif it.table_id == STATEMENT_TABLE:  # printed in the statement's sentence
            row = [v for v in (statement_values(facts, it.row_index) or {}).values()]
            if not row:
                out.append(f"item {it.id}: statement {it.row_index} does not exist")
                continue
        elif it.table_id == "" and it.row_index is not None and 0 <= it.row_index < len(claims):
            claim = claims[it.row_index]   # a prose claim: its values are printed in its sentence
            row = [v for v in claim.value_strings if v in claim.text]
        elif (table := tables.get(it.table_id)) is None or it.row_index is None or \
                not 0 <= it.row_index < len(table.rows):
            out.append(f"item {it.id}: source row {it.table_id}[{it.row_index}] does not exist")
            continue
        else:
            row = [c.strip() for c in table.rows[it.row_index]]
        out += [f"item {it.id}: value {v!r} is not printed in its source row" for v in it.values.values()
                if v not in row and not any(v in cell for cell in row)]
        for v in it.values.values():
            if re.search(r"\d", v) and re.search(rf"(?<![\w.]){re.escape(v)}(?![\w.])", it.label):
                out.append(f"item {it.id}: label {it.label!r} contains the value {v!r}")
    return out


def check_order(org: Organization, plan: EventPlan) -> list[str]:
    """Events chronological, unique, in the window; replies after what they answer; versions in order."""
    out = []
    ids = [e.id for e in plan.events]
    if len(set(ids)) != len(ids):
        out.append("events: duplicate ids")
    for prev, cur in zip(plan.events, plan.events[1:]):
        if cur.time < prev.time:
            out.append(f"{cur.id} at {cur.time} comes before {prev.id} at {prev.time}")
    by_id = {e.id: e for e in plan.events}
    for e in plan.events:
        if not plan.window_start <= e.time <= plan.window_end:
            out.append(f"{e.id}: time {e.time} is outside the window")
        if e.reply_to and (e.reply_to not in by_id or by_id[e.reply_to].time > e.time):
            out.append(f"{e.id}: reply_to {e.reply_to!r} is missing or later")
    for fact in plan.evolving_facts:
        times = [v.time for v in fact.versions]
        if times != sorted(times):
            out.append(f"fact {fact.id}: versions are not chronological")
    keys: dict[str, list] = {}
    for d in plan.documents:
        keys.setdefault(d.doc_key, []).append(d)
    for key, versions in keys.items():
        versions.sort(key=lambda d: d.version)
        for a, b in zip(versions, versions[1:]):
            if not (a.time < b.time and b.supersedes == a.id):
                out.append(f"document {key}: v{b.version} must come after and supersede v{a.version}")
    return out


def _one(plan: EventPlan, kind: str, ref: str, errors: list[str], label: str):
    found = [e for e in plan.events if e.kind == kind and ref in e.refs]
    if len(found) != 1:
        errors.append(f"{ref}: expected exactly one {kind} event, found {len(found)} ({label})")
        return None
    return found[0]


def check_errors(plan: EventPlan) -> list[str]:
    """Each error introduced, detected and corrected in order, with its specified wrong value."""
    out: list[str] = []
    values = {f"{i.id}:{c}": v for i in plan.items for c, v in i.values.items()}
    values |= {f.id: f.display or f.value for f in plan.invented}
    for err in plan.errors:
        if values.get(err.target) != err.correct_value:
            out.append(f"{err.id}: correct_value {err.correct_value!r} is not the value of {err.target}")
        if err.wrong_value == err.correct_value:
            out.append(f"{err.id}: wrong value equals the correct value")
        if not err.slipped_at < err.noticed_at < err.fixed_at:
            out.append(f"{err.id}: needs slipped_at < noticed_at < fixed_at")
        out += _kind_problems(plan, err)
        known = _known_at(plan, err.target)
        if known is not None and err.slipped_at < known:
            out.append(f"{err.id}: slipped at {err.slipped_at}, before {err.target} is known ({known})")
        steps = [("error_slipped", err.slipped_by, err.slipped_at, err.slip_channel, [err.wrong_value]),
                 ("error_noticed", err.noticed_by, err.noticed_at, err.notice_channel, [err.wrong_value]),
                 ("correction", None, err.fixed_at, err.fix_channel, [err.wrong_value, err.correct_value])]
        for kind, actor, when, where, must in steps:
            ev = _one(plan, kind, err.id, out, err.kind)
            if ev is None:
                continue
            if (actor and ev.actor != actor) or ev.time != when or ev.where != where:
                out.append(f"{err.id}: {kind} event {ev.id} is {ev.actor}@{ev.where} {ev.time}, planned "
                           f"{actor}@{where} {when}")
            missing = [m for m in must if m not in ev.must_contain]
            if missing:
                out.append(f"{err.id}: {kind} event {ev.id} must contain {missing}")
        slip = next((e for e in plan.events if e.kind == "error_slipped" and err.id in e.refs), None)
        if slip and err.correct_value in slip.must_contain:
            out.append(f"{err.id}: the slip already states the correct value")
    return out


def _known_at(plan: EventPlan, target: str):
    for f in plan.invented:
        if f.id == target:
            return f.time
    item = next((i for i in plan.items if i.id == target.split(":")[0]), None)
    return item.completed_at if item else None


def _kind_problems(plan: EventPlan, err) -> list[str]:
    wrong, right = err.wrong_value, err.correct_value
    if err.kind == "swapped_digits" and (sorted(wrong) != sorted(right)):
        return [f"{err.id}: swapped_digits must reorder the digits of {right!r}, got {wrong!r}"]
    if err.kind == "wrong_unit":
        num = lambda s: re.match(r"^[\d.,]+", s.strip()).group(0) if re.match(r"^[\d.,]+", s.strip()) else s
        if num(wrong) != num(right):
            return [f"{err.id}: wrong_unit keeps the number of {right!r}, got {wrong!r}"]
    if err.kind in ("wrong_row", "stale_value") and ":" in err.target:
        item = next((i for i in plan.items if i.id == err.target.split(":")[0]), None)
        table_values = {v for i in plan.items if item and i.table_id == item.table_id for v in i.values.values()}
        if wrong not in table_values:
            return [f"{err.id}: {err.kind} value {wrong!r} must come from another row/column of the same table"]
    return []


def check_access(org: Organization, plan: EventPlan) -> list[str]:
    """The late joiner sees nothing before joining; DM events only between the DM's members."""
    out = []
    joiner = org.person(org.late_joiner_id)
    chans = {c.id: c for c in org.channels}
    for e in plan.events:
        early = joiner.joined_at is not None and e.time < joiner.joined_at
        if early and (e.actor == joiner.id or joiner.id in e.recipients or joiner.id in e.visible_to):
            out.append(f"{e.id}: the late joiner {joiner.id} takes part in or sees an event before joining")
        chan = chans.get(e.where)
        if chan is not None:
            outside = [p for p in e.visible_to if p not in chan.members]
            if outside:
                out.append(f"{e.id}: visible to non-members {outside} of {chan.id}")
            if chan.access == "dm":
                extra = [p for p in [e.actor, *e.recipients] if p not in chan.members]
                if extra:
                    out.append(f"{e.id}: DM {chan.id} involves non-members {extra}")
    for fact in plan.evolving_facts:
        for v in fact.versions:
            if v.speaker == joiner.id and joiner.joined_at and v.time < joiner.joined_at:
                out.append(f"fact {fact.id}: the late joiner speaks before joining")
    return out
