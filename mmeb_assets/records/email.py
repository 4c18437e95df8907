"""E-mails: the late joiner's welcome, customer threads (with the customer's reply), other mail."""
from __future__ import annotations

from datetime import timedelta

from mmeb_assets.records.content import evolving_state
from mmeb_assets.records.context import Draft, RenderContext
from mmeb_assets.records.headers import source_header
from mmeb_assets.records.chatter import first_person
from mmeb_assets.records.slack import _cols_for, finalize
from mmeb_assets.schema.workspace import Event


def _address(ctx: RenderContext, who: str) -> str:
    if who in ("customer", ctx.org.customer.email, ctx.org.customer.contact):
        return ctx.org.customer.email
    try:
        return ctx.org.person(who).email
    except StopIteration:
        return who


def _internal(ctx: RenderContext, ids: list[str]) -> list[str]:
    return [i for i in ids if i in ctx.people_ids()]


def _welcome_body(ctx: RenderContext, event: Event) -> str:
    org, joiner = ctx.org, event.recipients[0] if event.recipients else ctx.org.late_joiner_id
    name = ctx.name(joiner).split()[0]
    team = "\n".join(f"- {p.name}, {p.role}: {p.owns}" for p in org.people if p.id != joiner)
    chans = [c for c in org.channels if joiner in c.members and c.access != "dm"]
    chan_lines = "\n".join(f"- #{c.id}: {c.purpose}" for c in chans)
    state = "\n".join(f"- {s}: {v}" for s, v in evolving_state(ctx.plan, event.time))
    sentence = org.project_sentence.strip().rstrip(".")
    body = (f"Hi {name},\n\nWelcome to {org.company_name}! You are joining the {org.project_codename} project. "
            f"{sentence}. Our product is {org.product}; the internal system is called {org.internal_model_name}.\n\n"
            f"Who is who:\n{team}\n\nYou have been added to:\n{chan_lines}\n\n"
            f"Milestones: {org.milestone_a.name} ({org.milestone_a.due:%a %b %d %H:%M}) and "
            f"{org.milestone_b.name} ({org.milestone_b.due:%a %b %d %H:%M}).")
    if state:
        body += f"\n\nWhere things stand today:\n{state}"
    return body + f"\n\nBest,\n{ctx.name(event.actor)}"


def _customer_body(ctx: RenderContext, event: Event) -> str:
    contact = ctx.org.customer.contact.split()[0]
    parts = _cols_for(ctx, event)
    values = "".join(t for t, _ in parts)
    me = ctx.org.person(event.actor).first_name
    body = f"Hi {contact},\n\n{first_person(event.summary, me)}"
    if values:
        body += f" The current figures: {values}."
    body += (f"\n\nWe remain on track for {ctx.org.milestone_b.name}. Happy to walk through details on a call."
             f"\n\nKind regards,\n{ctx.name(event.actor)}\n{ctx.org.company_name}")
    return finalize(body, event)


def email_drafts(ctx: RenderContext, event: Event) -> list[Draft]:
    to = [_address(ctx, r) for r in event.recipients] or [ctx.org.customer.email]
    if event.kind == "welcome":
        subject, body = event.title or f"Welcome to {ctx.org.project_codename}", _welcome_body(ctx, event)
        body = finalize(body, event)
    elif event.kind == "customer_email":
        subject, body = event.title or f"{ctx.org.project_codename}: update", _customer_body(ctx, event)
    else:
        subject = event.title or event.summary[:70]
        body = finalize(_internal_body(ctx, event), event)
    internal = _internal(ctx, event.visible_to or [event.actor, *event.recipients])
    header = source_header("email", event.time, author=ctx.name(event.actor), recipients=to)
    first = Draft(source="email", timestamp=event.time, author=event.actor, recipients=to, title=subject,
                  text=f"{header}\nSubject: {subject}\n\n{body}", event_ids=[event.id],
                  access=ctx.visible_to(internal, event.time), doc_key=f"email:{event.id}")
    out = [first]
    if event.kind == "customer_email" and ctx.org.customer.email in to:
        out.append(_customer_reply(ctx, event, subject, internal))
    return out


def _internal_body(ctx: RenderContext, event: Event) -> str:
    names = [ctx.org.person(r).first_name for r in event.recipients if r in ctx.people_ids()]
    doc = ctx.document(event.attachment) if event.attachment else None
    lines = [f"Hi {', '.join(names) or 'all'},", "", first_person(event.summary, ctx.org.person(event.actor).first_name)]
    if doc is not None:
        lines.append(f"Attached: {doc.title} (v{doc.version}). Comments in the document or here, please.")
    return "\n".join(lines + ["", "Thanks,", ctx.name(event.actor)])


def _customer_reply(ctx: RenderContext, event: Event, subject: str, internal: list[str]) -> Draft:
    cust = ctx.org.customer
    when = event.time + timedelta(hours=2, minutes=17)
    sender = ctx.org.person(event.actor)
    body = (f"Hi {sender.first_name},\n\nThanks for the update. We will review it with our support leads and "
            f"confirm before {ctx.org.milestone_b.name}. Please keep us posted on any change to the numbers.\n\n"
            f"Best,\n{cust.contact}\n{cust.name}")
    header = source_header("email", when, author=cust.contact, recipients=[sender.email])
    return Draft(source="email", timestamp=when, author=cust.contact, recipients=[sender.email],
                 title=f"Re: {subject}", text=f"{header}\nSubject: Re: {subject}\n\n{body}",
                 access=ctx.visible_to(internal, when), reply_to=event.id, optional=1)
