"""Meeting notes: attendees, what was reviewed (values as known at the time), decisions, actions."""
from __future__ import annotations

from mmeb_assets.records.content import evolving_state, item_cells
from mmeb_assets.records.context import Draft, RenderContext
from mmeb_assets.records.headers import source_header
from mmeb_assets.records.slack import finalize
from mmeb_assets.schema.workspace import Event


def meeting_draft(ctx: RenderContext, event: Event) -> Draft:
    plan, when = ctx.plan, event.time
    attendees = [a for a in (event.recipients or ctx.people_ids()) if a in ctx.people_ids()]
    attendees = ctx.visible_to(sorted(set(attendees) | {event.actor}, key=ctx.people_ids().index), when)
    lines = [f"Title: {event.summary}", "Attendees: " + ", ".join(ctx.name(a) for a in attendees), "",
             "Reviewed:"]
    fixed = {e.target for e in plan.errors if e.fixed_at <= when}
    live_wrong = {e.target: e.wrong_value for e in plan.errors if e.slipped_at <= when < e.fixed_at}
    for item in plan.items:
        if item.completed_at <= when and (not event.refs or item.id in event.refs or item.kind == "release"):
            cells = ", ".join(f"{c} {v}" for c, v in item_cells(item, live_wrong))
            lines.append(f"- {item.label}: {cells}")
    for err in plan.errors:
        if err.id in event.refs and err.target in fixed:
            lines.append(f"- Correction confirmed: {err.wrong_value} -> {err.correct_value} ({err.target.split(':')[-1]}).")
    decisions = [d for d in plan.decisions if d.time <= when]
    if decisions:
        lines += ["", "Decisions:"] + [f"- {d.title}: {d.body}" for d in decisions]
    state = evolving_state(plan, when)
    if state:
        lines += ["", "Open items:"] + [f"- {s}: {v}" for s, v in state]
    owners = sorted({i.owner for i in plan.items if i.completed_at > when}) or [event.actor]
    lines += ["", "Action items:"] + [f"- {ctx.name(o)}: finish the remaining runs" for o in owners]
    text = finalize("\n".join(lines), event)
    header = source_header("meeting", when, author=ctx.name(event.actor), title=event.summary)
    return Draft(source="meeting", timestamp=when, author=event.actor, title=event.summary,
                 recipients=[ctx.org.person(a).email for a in attendees], text=f"{header}\n{text}",
                 event_ids=[event.id], access=attendees)
