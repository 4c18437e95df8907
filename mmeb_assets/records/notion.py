"""Notion: run trackers (one entry per row and version), evidence tables, decision log, fact pages.

Trackers and fact pages are updated later than the Slack correction or change, so the old value
stays visible in Notion for a while (cross-source conflict) and every version keeps its time.
"""
from __future__ import annotations

from datetime import timedelta

from mmeb_assets.records.content import doc_facts, items_of, shown_wrong, typed_cells
from mmeb_assets.records.context import Draft, RenderContext
from mmeb_assets.records.headers import source_header
from mmeb_assets.records.headers import contains_value
from mmeb_assets.records.slack import finalize, item_ref
from mmeb_assets.schema.workspace import DocumentPlan, Event, EventPlan
from mmeb_assets.simulation.scripted import ops_title


def _entry(ctx: RenderContext, when, author, title, body, *, doc_key="", doc=None, event_ids=(), version=1):
    header = source_header("notion", when, author=ctx.name(author), title=title)
    return Draft(source="notion", timestamp=when, author=author, title=title, text=f"{header}\n{body}",
                 doc_id=doc.id if doc else "", version=version, event_ids=list(event_ids),
                 access=ctx.everyone(when), doc_key=doc_key, supersedes_key=doc_key)


def tracker_drafts(ctx: RenderContext, doc: DocumentPlan, event_ids: list[str]) -> list[Draft]:
    """One tracker page per version: a row per run (as of its cut-off) and the status it shows."""
    wrong = shown_wrong(doc, ctx.plan)
    cutoff = doc.as_of or doc.time
    items = items_of(ctx.plan, doc.item_ids)
    cols = [c for i in items for c in i.values]
    cols = list(dict.fromkeys(cols))
    lines = [f"{doc.title} (version {doc.version}), information as of {cutoff:%Y-%m-%d %H:%M}"]
    if items:
        lines.append("| Item | Owner | Status | " + " | ".join(cols) + " |")
        for item in items:
            done = item.completed_at <= cutoff and item.id not in doc.pending_item_ids
            cells = dict(typed_cells(item, wrong))
            vals = [cells.get(c, "") if done else "-" for c in cols]
            lines.append(f"| {item.label} | {ctx.name(item.owner)} | {'done' if done else 'in progress'} | "
                         + " | ".join(vals) + " |")
    else:
        lines.append("No completed runs yet.")
    facts = doc_facts(ctx.plan, doc) if doc.fact_values else []
    if facts:
        lines += ["", "Status:"] + [f"- {s}: {v}" for s, v in facts]
    return [_entry(ctx, doc.time, doc.author, doc.title, "\n".join(lines), doc_key=doc.doc_key, doc=doc,
                   event_ids=event_ids, version=doc.version)]


def evidence_table_drafts(ctx: RenderContext) -> list[Draft]:
    """One evidence table per source table, once its last planned item is done (corrected values)."""
    out = []
    for table in ctx.facts.tables:
        items = [i for i in ctx.plan.items if i.table_id == table.id]
        if not items:
            continue
        when = max(i.completed_at for i in items) + timedelta(hours=1, minutes=30)
        when = max(when, max((e.fixed_at for e in ctx.plan.errors), default=when) + timedelta(minutes=40))
        cols = [c for c in items[0].values]
        shown = {i.id: dict(typed_cells(i, {})) for i in items}   # corrected values; pictured ones stay in images
        rows = "\n".join(f"| {i.label} | " + " | ".join(shown[i.id].get(c, "") for c in cols) + " |" for i in items)
        body = (f"Evidence table for {table.caption.split(':', 1)[-1].strip() or table.id}\n"
                f"| Item | {' | '.join(cols)} |\n{rows}")
        entry = _entry(ctx, when, items[-1].owner, f"Evidence table · {table.id}", body, doc_key=f"evidence:{table.id}")
        entry.optional = 2
        out.append(entry)
    return out


def decision_log_drafts(ctx: RenderContext) -> list[Draft]:
    out = []
    for dec in ctx.plan.decisions:
        when = dec.time + timedelta(minutes=35)
        body = (f"Decision: {dec.title}\nDecided by: {ctx.name(dec.decided_by)}\nWhen: {dec.time:%Y-%m-%d %H:%M}\n"
                f"What: {dec.body}\nWhy: {dec.rationale}")
        out.append(_entry(ctx, when, dec.decided_by, f"Decision log · {dec.title}", body,
                          doc_key=f"decision:{dec.id}"))
    return out


def fact_page_drafts(ctx: RenderContext) -> list[Draft]:
    """A project-facts page per evolving fact, edited some hours after each stated version."""
    out = []
    for n, fact in enumerate(ctx.plan.evolving_facts):
        for k, ver in enumerate(fact.versions):
            lag = timedelta(hours=3 + (n + k) % 4, minutes=15 * ((n + 2 * k) % 4))
            when = min(ver.time + lag, ctx.plan.window_end)
            if k + 1 < len(fact.versions) and when >= fact.versions[k + 1].time:
                when = fact.versions[k + 1].time - timedelta(minutes=5)
            body = (f"Project fact: {fact.subject}\nCurrent value: {ver.value}\nSet by: {ctx.name(ver.speaker)} "
                    f"in {ver.channel}\nNote: {ver.note}")
            out.append(_entry(ctx, when, ver.speaker, f"Project facts · {fact.subject}", body,
                              doc_key=f"fact:{fact.id}", version=k + 1))
    return out


def ops_metric_drafts(ctx: RenderContext) -> list[Draft]:
    """The metric's operations page written out in full (value, owner, why it is tracked), as a later
    version of the page its Notion edits made, once every edit of it is in: one page per metric."""
    out = []
    for inv in ctx.plan.invented:
        fixes = [e.fixed_at for e in ctx.plan.errors if e.target == inv.id]
        edits = [e.time for e in ctx.plan.events if e.where == "notion" and page_key(ctx.plan, e) == f"notion:{inv.id}"]
        when = max([inv.time, *fixes, *edits]) + timedelta(hours=1)
        body = (f"Metric: {inv.name}\nValue: {inv.value} {inv.unit}\nOwner: {ctx.name(inv.owner)}\n"
                f"Why we track it: {inv.rationale}")
        key = f"notion:{inv.id}"
        out.append(_entry(ctx, when, inv.owner, ops_title(inv.name), body, doc_key=key))
    return out


def notion_event_draft(ctx: RenderContext, event: Event) -> Draft:
    """A Notion edit the plan scripts: its summary is the entry line; the page title keys versions."""
    title = event.title or f"Notes · {event.summary[:50]}"
    lines = [f"{event.summary.rstrip('.')}."]
    item = item_ref(ctx, event)
    missing = [v for v in event.must_contain if not contains_value(lines[0], v)]
    if item is not None and missing:
        wrong = {e.target: e.wrong_value for e in ctx.plan.errors if e.id in event.refs
                 and e.wrong_value in event.must_contain and e.correct_value not in event.must_contain}
        for col, val in item.values.items():
            shown = wrong.get(f"{item.id}:{col}", val)
            if shown not in event.must_not_contain:
                lines.append(f"{col}: {shown}")
    lines.append(f"Edited by {ctx.name(event.actor)}")
    body = finalize("\n".join(lines), event)
    key = page_key(ctx.plan, event)
    draft = _entry(ctx, event.time, event.actor, title, body, doc_key=key, event_ids=[event.id])
    if event.visible_to:
        draft.access = ctx.visible_to(event.visible_to, event.time)
    return draft


def page_key(plan: EventPlan, event: Event) -> str:
    """Edits about the same run, fact or metric are versions of one Notion entry."""
    known = {i.id for i in plan.items} | {f.id for f in plan.evolving_facts} | {i.id for i in plan.invented}
    for ref in event.refs:
        base = ref.split(":", 1)[0]
        if base in known:
            return f"notion:{base}"
    return f"page:{event.title}" if event.title else ""
