"""Turns items, facts, errors, decisions, versions and documents into the week's events."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime

from mmeb_assets.schema.workspace import Event, Organization
from mmeb_assets.simulation.config import SimulationConfig
from mmeb_assets.simulation.phrasing import voiced
from mmeb_assets.simulation.timeline import after


@dataclass
class Pending:
    key: str
    time: datetime
    actor: str
    kind: str
    where: str
    summary: str
    must: list[str] = field(default_factory=list)
    must_not: list[str] = field(default_factory=list)
    refs: list[str] = field(default_factory=list)
    recipients: list[str] = field(default_factory=list)
    attachment: str | None = None
    title: str = ""
    reply_to: str = ""
    core: str = ""


class EventBook:
    """Collects events with stable keys; `finish` orders them and assigns chronological ids."""

    def __init__(self, org: Organization, config: SimulationConfig, rng: random.Random):
        self.org, self.config, self.rng = org, config, rng
        self.pending: list[Pending] = []

    def add(self, key: str, time: datetime, actor: str, kind: str, where: str, summary: str, **kw) -> Pending:
        if any(p.key == key for p in self.pending[-50:]):
            key = f"{key}#{len(self.pending)}"
        ev = Pending(key=key, time=time, actor=actor, kind=kind, where=where, summary=summary,
                     must=list(dict.fromkeys(kw.pop("must", []))), must_not=list(dict.fromkeys(kw.pop("must_not", []))),
                     **kw)
        self.pending.append(ev)
        return ev

    def later(self, when: datetime, hours: float) -> datetime:
        return after(self.config, when, hours)

    def slack_count(self) -> int:
        return sum(1 for p in self.pending if p.where not in ("email", "notion", "meeting", "files"))

    def visible_to(self, where: str, actor: str, recipients: list[str], when: datetime) -> list[str]:
        org = self.org
        joiner = org.person(org.late_joiner_id)
        if where == "email" or where == "meeting":
            people = [actor, *[r for r in recipients if r != "customer"]]
        elif where in ("notion", "files"):
            people = [p.id for p in org.people]
        else:
            people = org.channel(where).members
        ordered = [p.id for p in org.people if p.id in set(people)]
        if joiner.joined_at and when < joiner.joined_at:
            ordered = [p for p in ordered if p != joiner.id]
        return ordered

    def finish(self) -> list[Event]:
        ordered = sorted(enumerate(self.pending), key=lambda pair: (pair[1].time, pair[0]))
        ids = {p.key: f"ev_{n:04d}" for n, (_, p) in enumerate(ordered, start=1)}
        events = []
        for n, (_, p) in enumerate(ordered, start=1):
            core = p.core or (p.summary + ("" if p.summary.endswith(".") else "."))
            missing = [m for m in p.must if m not in core]
            if missing:
                core += " (" + ", ".join(missing) + ")"
            events.append(Event(
                id=f"ev_{n:04d}", time=p.time, actor=p.actor, kind=p.kind, where=p.where, summary=p.summary,
                must_contain=p.must, must_not_contain=[v for v in p.must_not if len(v) >= 3 and not any(v in m for m in p.must)], refs=p.refs,
                recipients=p.recipients, attachment=p.attachment, title=p.title,
                reply_to=ids.get(p.reply_to, ""),
                visible_to=self.visible_to(p.where, p.actor, p.recipients, p.time),
                draft=voiced(self.org.person(p.actor), core, self.rng, p.where, keep=p.must)))
        return events
