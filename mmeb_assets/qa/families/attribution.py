"""Attribution: who posted, sent, noticed, decided or authored something."""
from __future__ import annotations

from collections import Counter

from mmeb_assets.qa.families.base import GenContext, cell_phrase, draft, ids, item_phrase
from mmeb_assets.qa.text import channel_ref
from mmeb_assets.schema import Derivation, QAItem


def generate(ctx: GenContext) -> list[QAItem]:
    return (_results(ctx) + _welcome(ctx) + _noticed(ctx) + _flag_and_fix(ctx) + _decisions(ctx) + _invented(ctx)
            + _documents(ctx) + _customer_emails(ctx))


def _flag_and_fix(ctx: GenContext) -> list[QAItem]:
    """Who flagged a slipped value and who corrected it: the slip, the flag and the correction are all needed."""
    index, out = ctx.index, []
    for error in index.plan.errors:
        flags = [e for e in index.events_of({"error_noticed"}, ref=error.id) if e.actor == error.noticed_by]
        fixes = index.events_of({"correction"}, ref=error.id)
        slips = index.events_of({"error_slipped"}, ref=error.id)
        if not (flags and fixes and slips):
            continue
        flag = next(iter(index.event_records(flags[0].id)), None)
        fix = next(iter(index.event_records(fixes[0].id, error.correct_value)), None)
        slip = next(iter(index.event_records(slips[0].id, error.wrong_value)), None)
        flagger, fixer = index.person_name(error.noticed_by), index.person_name(fixes[0].actor)
        if not (flag and fix and slip) or flagger not in index.surface(flag) or fixer not in index.surface(fix):
            continue
        target = _target_phrase(ctx, error.target)
        q = (f"Who flagged the {target} that {index.first_name(error.slipped_by)} gave as {error.wrong_value}, "
             f"and who posted the correction?")
        value = flagger if flagger == fixer else f"{flagger}; {fixer}"
        answer = f"{flagger} flagged it and posted the correction" if flagger == fixer else \
            f"{flagger} flagged it; {fixer} posted the correction"
        out.append(draft(
            ctx, "attribution", "attribution.flag_and_fix", q, answer, value=value, evidence=ids([slip, flag, fix]),
            steps=[(f"{index.first_name(error.slipped_by)} gave {error.wrong_value}.", [slip.id]),
                   (f"{flagger} flagged it.", [flag.id]), (f"{fixer} posted the correction.", [fix.id])],
            derivation=Derivation(kind="author", operands=list(dict.fromkeys([flagger, fixer])), result=value,
                                  fact_key=f"{error.id}:flag-fix",
                                  premise_values=[index.first_name(error.slipped_by), error.wrong_value]),
        ))
    return out


def _customer_emails(ctx: GenContext) -> list[QAItem]:
    """Who wrote an e-mail to (or from) the customer on a given day, when only one such e-mail exists that day."""
    index, out = ctx.index, []
    emails = index.events_of({"customer_email"})
    per_day = Counter(e.time.date() for e in emails)
    contact = index.org.customer.contact
    for event in emails:
        if per_day[event.time.date()] != 1:
            continue
        day = f"{event.time:%a} {event.time:%b} {event.time.day}"
        if event.actor == "customer" or index.person_name(event.actor) == contact:
            q = f"Who at {index.org.customer.name} e-mailed the team on {day}?"
        else:
            q = f"Who e-mailed {contact} of {index.org.customer.name} on {day}?"
        made = _author_item(ctx, "attribution.customer_email", q, event.actor, event.id, "the customer e-mail")
        if made:
            made.boundary = day
            out.append(made)
    return out[:2]


def _author_item(ctx: GenContext, family: str, q: str, person_id: str, event_id: str, what: str) -> QAItem | None:
    records = [r for r in ctx.index.event_records(event_id) if r.author or r.source == "email"]
    if not records:
        return None
    record = records[0]
    name = ctx.index.person_name(person_id)
    if name not in ctx.index.surface(record):
        return None
    return draft(ctx, "attribution", family, q, name, value=name, evidence=[record.id],
                 steps=[(f"Find the record of {what}.", [record.id]), (f"Its author is {name}.", [record.id])],
                 derivation=Derivation(kind="author", operands=[name], result=name, fact_key=event_id))


def _results(ctx: GenContext) -> list[QAItem]:
    index = ctx.index
    posts = [e for e in index.plan.events if e.kind == "result_posted"]
    per_item = Counter(ref for e in posts for ref in e.refs if ref in index.items)
    out = []
    for event in posts:
        refs = [r for r in event.refs if r in index.items]
        if len(refs) != 1 or per_item[refs[0]] != 1:
            continue
        item = index.items[refs[0]]
        if item.kind == "statement" and any(e.target.startswith(f"{item.id}:") for e in index.plan.errors):
            continue  # a misquoted statement is quoted again by whoever slips and corrects it
        where = channel_ref(event.where)
        asks = "Who quoted the source document on" if item.kind == "statement" else "Who posted the result for"
        q = f"{asks} {item_phrase(item)}" + (f" in {where}?" if where else "?")
        made = _author_item(ctx, "attribution.result", q, event.actor, event.id, f"the {item.label} result")
        if made:
            out.append(made)
    return out[:5]


def _welcome(ctx: GenContext) -> list[QAItem]:
    out = []
    for event in ctx.index.events_of({"welcome"}):
        records = ctx.index.event_records(event.id)
        if not records:
            continue
        record = records[0]
        kind = "welcome email" if record.source == "email" else f"welcome message in {channel_ref(record.channel)}" \
            if record.channel else "welcome message"
        for rid in event.recipients[:1] or [ctx.index.org.late_joiner_id]:
            q = f"Who sent {ctx.index.person_name(rid)}'s {kind}?"
            made = _author_item(ctx, "attribution.welcome", q, event.actor, event.id, f"the {kind}")
            if made:
                out.append(made)
    return out


def _noticed(ctx: GenContext) -> list[QAItem]:
    index, out = ctx.index, []
    for error in index.plan.errors:
        events = [e for e in index.events_of({"error_noticed"}, ref=error.id) if e.actor == error.noticed_by]
        if not events:
            continue
        target = _target_phrase(ctx, error.target)
        q = f"Who first flagged that the {target} posted by {index.first_name(error.slipped_by)} was wrong?"
        made = _author_item(ctx, "attribution.noticed", q, error.noticed_by, events[0].id, "the flag")
        if made:
            made.derivation.premise_values = [index.first_name(error.slipped_by)]
            out.append(made)
    return out


def _target_phrase(ctx: GenContext, target: str) -> str:
    item_id, _, col = target.partition(":")
    item = ctx.index.items.get(item_id)
    if item and col:
        return cell_phrase(item, col)
    fact = next((f for f in ctx.index.plan.invented if f.id == target), None)
    return fact.name if fact else target


def _decisions(ctx: GenContext) -> list[QAItem]:
    out = []
    for decision in ctx.index.plan.decisions:
        events = ctx.index.events_of({"decision"}, ref=decision.id)
        if not events:
            continue
        q = f"Who made the {ctx.index.org.project_codename} decision '{decision.title.rstrip('.')}'?"
        made = _author_item(ctx, "attribution.decision", q, decision.decided_by, events[0].id, "the decision")
        if made:
            out.append(made)
    return out[:3]


def _invented(ctx: GenContext) -> list[QAItem]:
    out = []
    for fact in ctx.index.plan.invented:
        events = ctx.index.events_of({"invented_fact"}, ref=fact.id)
        if events:
            q = (f"Who reported the {fact.name} that the {ctx.index.org.project_codename} team at "
                 f"{ctx.index.org.company_name} measured?")
            made = _author_item(ctx, "attribution.invented", q, events[0].actor, events[0].id, f"the {fact.name}")
            if made:
                out.append(made)
    return out[:2]


def _documents(ctx: GenContext) -> list[QAItem]:
    index, out = ctx.index, []
    for doc in index.plan.documents:
        if doc.version != 1 or doc.kind not in ("report", "deck"):
            continue
        records = index.doc_records(doc.id)
        name = index.person_name(doc.author)
        record = next((r for r in records if name in index.surface(r)), None)
        if record is None:
            continue
        q = f"Who authored the first version of the {doc.kind} '{doc.title}'?"
        out.append(draft(ctx, "attribution", "attribution.document", q, name, value=name, evidence=[record.id],
                         steps=[(f"Open the {doc.kind} '{doc.title}'.", [record.id]),
                                (f"Its author is {name}.", [record.id])],
                         derivation=Derivation(kind="author", operands=[name], result=name, fact_key=doc.id),
                         boundary="version 1"))
    return out
