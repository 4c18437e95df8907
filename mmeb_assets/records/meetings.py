"""Meeting notes: attendees, what was reviewed (values as known at the time), decisions, actions."""
from __future__ import annotations

from mmeb_assets.records.content import evolving_state, typed_cells
from mmeb_assets.records.context import Draft, RenderContext
from mmeb_assets.records.headers import source_header
from mmeb_assets.records.slack import finalize
from mmeb_assets.schema.workspace import Event


def _reviewed(ctx: RenderContext, event: Event) -> list[str]:
    plan, when = ctx.plan, event.time
    live_wrong = {e.target: e.wrong_value for e in plan.errors if e.slipped_at <= when < e.fixed_at}
    done = [i for i in plan.items if i.completed_at <= when]
    chosen = [i for i in done if i.id in event.refs] or done[-6:]
    lines = [f"- {i.label}: " + ", ".join(f"{c} {v}" for c, v in typed_cells(i, live_wrong)) for i in chosen]
    for doc_id in event.refs:
        doc = ctx.document(doc_id)
        if doc is not None:
            lines.append(f"- Walked through {doc.title} v{doc.version}.")
    for err in plan.errors:
        if err.fixed_at <= when and (err.id in event.refs or err.fixed_at >= when.replace(hour=0, minute=0)):
            lines.append(f"- Correction confirmed: {err.wrong_value} -> {err.correct_value}.")
    return lines or ["- Scope, owners and milestones for the week."]


def meeting_draft(ctx: RenderContext, event: Event) -> Draft:
    plan, when = ctx.plan, event.time
    people = ctx.people_ids()
    invited = [a for a in (event.recipients or people) if a in people]
    attendees = ctx.visible_to(sorted(set(invited) | {event.actor}, key=people.index), when)
    names = [ctx.name(a) for a in attendees]
    if "customer" in event.recipients:
        names.append(f"{ctx.org.customer.contact} ({ctx.org.customer.name})")
    lines = [f"Title: {event.title or event.summary}", f"Purpose: {event.summary}",
             "Attendees: " + ", ".join(names), "", "Reviewed:", *_reviewed(ctx, event)]
    decisions = [d for d in plan.decisions if d.time <= when]
    if decisions:
        lines += ["", "Decisions so far:"] + [f"- {d.title}: {d.body}" for d in decisions]
    state = evolving_state(plan, when)
    if state:
        lines += ["", "Open items:"] + [f"- {s}: {v}" for s, v in state]
    remaining = [i for i in plan.items if i.completed_at > when and i.owner in attendees]
    actions = [f"- {ctx.name(i.owner)}: {i.label}" for i in remaining[:5]] or [f"- {ctx.name(event.actor)}: send the notes"]
    lines += ["", "Action items:", *actions]
    text = finalize("\n".join(lines), event)
    access = ctx.visible_to(event.visible_to, when) if event.visible_to else attendees
    header = source_header("meeting", when, author=ctx.name(event.actor), title=event.title or event.summary)
    return Draft(source="meeting", timestamp=when, author=event.actor, title=event.title or event.summary,
                 recipients=[ctx.org.person(a).email for a in attendees], text=f"{header}\n{text}",
                 event_ids=[event.id], access=access)
