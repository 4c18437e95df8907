"""Validation of an Organization (used by the LLM validator and the `organization` asset check)."""
from __future__ import annotations

import re

from mmeb_assets.schema.workspace import Organization

DM_ID = re.compile(r"^dm-([a-z0-9][a-z0-9_-]*)-([a-z0-9][a-z0-9_-]*)$")
BANNED = re.compile(r"\b(paper|publication|conference|arxiv|proceedings)\b", re.I)


def check_organization(org: Organization) -> list[str]:
    problems: list[str] = []
    ids = [p.id for p in org.people]
    if not 5 <= len(ids) <= 8:
        problems.append(f"people: {len(ids)} people, expected 5-8")
    if len(set(ids)) != len(ids):
        problems.append(f"people: duplicate ids {sorted({i for i in ids if ids.count(i) > 1})}")
    names = [p.name for p in org.people]
    if len(set(names)) != len(names):
        problems.append("people: duplicate names")
    for role in ("lead_id", "pm_id", "report_author_id", "late_joiner_id"):
        if getattr(org, role) not in ids:
            problems.append(f"{role}={getattr(org, role)!r} is not a person")
    if len({org.lead_id, org.pm_id, org.report_author_id, org.late_joiner_id}) < 4:
        problems.append("lead, pm, report author and late joiner must be four different people")
    for p in org.people:
        if p.id == org.late_joiner_id:
            if p.joined_at is None or not org.window_start < p.joined_at < org.window_end:
                problems.append(f"late joiner {p.id}: joined_at {p.joined_at} must fall inside the window")
        elif p.joined_at is not None:
            problems.append(f"person {p.id}: only the late joiner has joined_at")
        if not p.voice.strip() or not p.owns.strip():
            problems.append(f"person {p.id}: needs 'owns' and 'voice'")
    problems += _channel_problems(org, set(ids))
    if org.milestone_a.kind != "internal" or org.milestone_b.kind != "external":
        problems.append("milestone_a must be internal and milestone_b external")
    if not org.window_start <= org.milestone_a.due < org.milestone_b.due <= org.window_end:
        problems.append("milestones: need window_start <= A < B <= window_end")
    if "@" not in org.customer.email:
        problems.append(f"customer email {org.customer.email!r} is not an address")
    for field in ("company_name", "tagline", "product", "project_sentence"):
        if BANNED.search(getattr(org, field)):
            problems.append(f"{field} mentions a publication")
        if re.search(r"\d", getattr(org, field)):
            problems.append(f"{field} must not carry numbers (they would leak results before they are scheduled)")
    return problems


def _channel_problems(org: Organization, ids: set[str]) -> list[str]:
    problems = []
    cids = [c.id for c in org.channels]
    if len(set(cids)) != len(cids):
        problems.append("channels: duplicate ids")
    for c in org.channels:
        unknown = [m for m in c.members if m not in ids]
        if unknown:
            problems.append(f"channel {c.id}: unknown members {unknown}")
        if c.access == "dm":
            match = DM_ID.match(c.id)
            if len(c.members) != 2 or not match or f"dm-{'-'.join(sorted(c.members))}" != c.id:
                problems.append(f"channel {c.id}: a DM is 'dm-<a>-<b>' (sorted ids) with exactly its two members")
        elif org.late_joiner_id in c.members and c.access == "restricted":
            problems.append(f"channel {c.id}: the late joiner has limited access and cannot be in restricted channels")
    kinds = {c.access for c in org.channels}
    for need in ("public", "restricted", "dm"):
        if need not in kinds:
            problems.append(f"channels: need at least one {need} channel")
    if not any(org.late_joiner_id in c.members for c in org.channels if c.access == "public"):
        problems.append("the late joiner must be in at least one public channel")
    return problems
