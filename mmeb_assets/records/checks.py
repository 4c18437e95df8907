"""Programmatic checks of a rendered RecordSet. Each returns a list of findings (empty = pass)."""
from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from mmeb_assets.records.checks_files import check_files
from mmeb_assets.records.headers import contains_value
from mmeb_assets.schema.records import RecordSet
from mmeb_assets.schema.source import SourceFacts
from mmeb_assets.schema.workspace import EventPlan, Organization

def check_ids(rs: RecordSet) -> list[str]:
    out, seen = [], set()
    for r in rs.records:
        if r.id in seen:
            out.append(f"duplicate record id {r.id}")
        seen.add(r.id)
        if not r.id.startswith(rs.seed_id + "-"):
            out.append(f"{r.id}: id does not start with the seed id {rs.seed_id!r}")
        if r.image_path and (r.image_path.startswith("/") or ".." in Path(r.image_path).parts):
            out.append(f"{r.id}: image_path {r.image_path!r} is not relative to the project folder")
        if r.modality == "visual" and not r.image_path:
            out.append(f"{r.id}: visual record without image_path")
        if not r.text.startswith("["):
            out.append(f"{r.id}: stored text lacks its source header")
    orders = [r.order for r in rs.records]
    if orders != sorted(orders) or len(set(orders)) != len(orders):
        out.append("record order is not a strict sequence")
    return out


def check_event_messages(rs: RecordSet, org: Organization, plan: EventPlan) -> list[str]:
    """Each channel event: exactly one Slack message, by its actor, at its time, in its channel."""
    channels = {c.id for c in org.channels}
    by_event = defaultdict(list)
    for r in rs.records:
        for eid in r.event_ids:
            by_event[eid].append(r)
    out = []
    for e in plan.events:
        if e.where in channels:
            msgs = [r for r in by_event[e.id] if r.source == "slack"]
            if len(msgs) != 1:
                out.append(f"event {e.id}: {len(msgs)} Slack messages (expected exactly 1)")
                continue
            m = msgs[0]
            if m.author != e.actor or m.timestamp != e.time or m.channel != e.where:
                out.append(f"event {e.id}: message {m.id} is by {m.author} at {m.timestamp} in {m.channel}, "
                           f"planned {e.actor} at {e.time} in {e.where}")
        elif not by_event[e.id]:
            out.append(f"event {e.id} ({e.where}): no record realizes it")
    return out


def check_speakers(rs: RecordSet, org: Organization) -> list[str]:
    members = {c.id: set(c.members) for c in org.channels}
    out = []
    for r in rs.records:
        if r.source == "slack":
            if r.channel not in members:
                out.append(f"{r.id}: unknown channel {r.channel!r}")
            elif r.author not in members[r.channel]:
                out.append(f"{r.id}: {r.author} is not a member of #{r.channel}")
    return out


def check_access(rs: RecordSet, org: Organization) -> list[str]:
    people = {p.id: p for p in org.people}
    members = {c.id: set(c.members) for c in org.channels}
    out = []
    for r in rs.records:
        for pid in r.access:
            person = people.get(pid)
            if person is None:
                out.append(f"{r.id}: access lists unknown person {pid!r}")
            elif person.joined_at is not None and r.timestamp < person.joined_at:
                out.append(f"{r.id}: {pid} can see it but joined at {person.joined_at} (record {r.timestamp})")
        if r.source == "slack" and r.channel in members and not set(r.access) <= members[r.channel]:
            out.append(f"{r.id}: access {sorted(set(r.access) - members[r.channel])} outside #{r.channel}")
        if r.author in people and r.author not in r.access:
            out.append(f"{r.id}: its author {r.author} is not in its access list")
    return out


def check_event_values(rs: RecordSet, plan: EventPlan) -> list[str]:
    """Must-contain values verbatim in the realizing text records; must-not-contain values absent."""
    events = {e.id: e for e in plan.events}
    out = []
    for r in rs.records:
        if r.modality != "text":
            continue
        for eid in r.event_ids:
            e = events.get(eid)
            if e is None:
                out.append(f"{r.id}: unknown event id {eid}")
                continue
            for v in e.must_contain:
                if not contains_value(r.text, v):
                    out.append(f"{r.id} ({eid}): must-contain value {v!r} missing")
            for v in e.must_not_contain:
                if v not in e.must_contain and contains_value(r.text, v):
                    out.append(f"{r.id} ({eid}): must-not-contain value {v!r} written in stored text")
    return out


CLOCK = re.compile(r"\b\d{4}-\d{2}-\d{2} \d{2}:\d{2}\b")


def pixel_only_values(facts: SourceFacts, plan: EventPlan) -> set[str]:
    """Image-only values that no table, claim, config, item or invented fact also states. As in the
    plan's `pixel_only_values`, only value-like strings are policed: 3 characters or more (not axis
    ticks like '2') and holding a digit (a diagram's 'detection head' label is a word anyone may say)."""
    from mmeb_assets.simulation.plan import policed_pixel_value

    stated = {c for t in facts.tables for row in t.rows for c in row} | {h for t in facts.tables for h in t.header}
    stated |= {v for c in facts.textual.claims for v in c.value_strings}
    stated |= {c.value for c in facts.textual.config_facts}
    stated |= {v for i in plan.items for v in i.values.values()} | {i.value for i in plan.invented}
    stated |= {e.wrong_value for e in plan.errors} | {e.correct_value for e in plan.errors}
    stated |= {v.value for f in plan.evolving_facts for v in f.versions}
    stated |= {c for d in plan.decisions for c in d.cites}
    # a stated string holding the digits as a token is no leak: a budget of '380 GPU-hours', a table's '-8.8%'
    return {f.value for v in facts.visual for f in v.image_only_facts
            if policed_pixel_value(f.value) and f.value not in stated
            and not any(contains_value(s, f.value) for s in stated if s)}


def check_pixel_only(rs: RecordSet, facts: SourceFacts, plan: EventPlan) -> list[str]:
    """Image-only values of the seed figures nowhere in stored text; a planned image's own
    pixel-only values not in that image record's stored text."""
    values = pixel_only_values(facts, plan)
    per_doc = {d.id: d.pixel_only_values for d in plan.documents if d.pixel_only_values}
    out = []
    for r in rs.records:
        text = CLOCK.sub(" ", r.text)  # the header's '2026-03-04 11:48' is not a stated '48'
        for v in sorted(values):
            if contains_value(text, v):
                out.append(f"{r.id}: pixel-only value {v!r} appears in stored text")
        if r.modality == "visual":
            for v in per_doc.get(r.doc_id, []):
                if contains_value(text, v):
                    out.append(f"{r.id}: value {v!r} lives only in the pixels of {r.doc_id} but is in its text")
    return out


def check_versions(rs: RecordSet) -> list[str]:
    ids = rs.by_id()
    out = []
    for r in rs.records:
        if r.supersedes:
            old = ids.get(r.supersedes)
            if old is None:
                out.append(f"{r.id}: supersedes missing record {r.supersedes}")
            elif old.version >= r.version or old.timestamp > r.timestamp:
                out.append(f"{r.id}: supersedes {old.id} which is not an earlier version")
    edges = {(e.older, e.newer) for e in rs.version_graph}
    want = {(r.supersedes, r.id) for r in rs.records if r.supersedes}
    if edges != want:
        out.append(f"version_graph differs from supersedes links ({len(edges)} edges, {len(want)} links)")
    return out


def check_scale(rs: RecordSet, low: int = 200, high: int = 275) -> list[str]:
    n = len(rs.records)
    return [] if low <= n <= high else [f"{n} records; the paper's projects hold {low}-{high}"]


def all_findings(rs: RecordSet, facts: SourceFacts, org: Organization, plan: EventPlan,
                 project_dir: Path) -> dict[str, list[str]]:
    return {
        "ids": check_ids(rs), "event_messages": check_event_messages(rs, org, plan),
        "speakers": check_speakers(rs, org), "access": check_access(rs, org),
        "event_values": check_event_values(rs, plan), "pixel_only": check_pixel_only(rs, facts, plan),
        "versions": check_versions(rs), "files": check_files(rs, plan, project_dir, facts), "scale": check_scale(rs),
    }
