"""Orchestrates the records stage: every event and document of the plan becomes records."""
from __future__ import annotations

import hashlib
import random
from pathlib import Path

from mmeb_assets.provenance import code_version, make_provenance
from mmeb_assets.records import documents, email, logs, meetings, notion, slack
from mmeb_assets.records.chart_units import chart_columns
from mmeb_assets.records.context import RenderContext, to_records
from mmeb_assets.records.report_spec import rules_report_spec
from mmeb_assets.records.slides import rules_deck_spec
from mmeb_assets.schema.records import RecordSet, VersionEdge
from mmeb_assets.schema.source import SourceFacts
from mmeb_assets.schema.workspace import EventPlan, Organization
from mmeb_resources.faults import crash_point
from mmeb_resources.storage import atomic_write_jsonl

TARGET_RANGE = (212, 262)  # the paper's projects hold 203-274 records


class RecordsInputError(ValueError):
    """Inputs that cannot be rendered; the message names the field and the reason."""


def _check_inputs(facts: SourceFacts, org: Organization, plan: EventPlan) -> None:
    if not (facts.seed_id == org.seed_id == plan.seed_id):
        raise RecordsInputError(f"seed ids differ: source_facts={facts.seed_id!r}, organization={org.seed_id!r}, "
                                f"event_plan={plan.seed_id!r}")
    people = {p.id for p in org.people}
    channels = {c.id for c in org.channels}
    for event in plan.events:
        if event.actor not in people:
            raise RecordsInputError(f"event_plan.events[{event.id}].actor: unknown person {event.actor!r}")
        if event.where not in channels | {"email", "notion", "meeting", "files"}:
            raise RecordsInputError(f"event_plan.events[{event.id}].where: unknown channel {event.where!r}")


def _events_by_doc(plan: EventPlan) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for event in plan.events:
        targets = {event.attachment} if event.attachment else set()
        targets |= {r for r in event.refs if any(d.id == r for d in plan.documents)} if event.kind in (
            "document_posted", "notion_update", "log_written") else set()
        for doc_id in targets:
            out.setdefault(doc_id, []).append(event.id)
    return out


def _render_events(ctx: RenderContext, llm) -> None:
    slack_texts = {}
    if llm is not None and not llm.offline:
        from mmeb_assets.records.llm_steps import slack_messages_llm

        slack_texts = slack_messages_llm(ctx, llm)
    for event in ctx.plan.events:
        if slack.is_slack_event(ctx, event):
            if event.id in slack_texts:
                text, meta = slack_texts[event.id]
                ctx.add(slack.slack_draft(ctx, event, text, **meta))
            else:
                ctx.add(slack.slack_draft(ctx, event, slack.message_text(ctx, event)))
        elif event.where == "email" or event.kind in ("welcome", "customer_email") and event.where != "notion":
            for draft in email.email_drafts(ctx, event):
                ctx.add(draft)
        elif event.where == "meeting" or event.kind == "meeting":
            ctx.add(meetings.meeting_draft(ctx, event))
        elif event.where == "notion" and not (event.attachment and ctx.document(event.attachment)):
            ctx.add(notion.notion_event_draft(ctx, event))


def _render_documents(ctx: RenderContext, llm) -> None:
    by_doc = _events_by_doc(ctx.plan)
    for doc in sorted(ctx.plan.documents, key=lambda d: (d.time, d.id)):
        event_ids = by_doc.get(doc.id, [])
        if doc.kind == "report":
            spec, generator = rules_report_spec(ctx, doc), {}
            if llm is not None and not llm.offline:
                from mmeb_assets.records.llm_steps import report_spec_llm

                spec, generator = report_spec_llm(ctx, llm, doc)
            for draft in documents.report_drafts(ctx, doc, spec, event_ids, generator):
                ctx.add(draft)
        elif doc.kind == "deck":
            chart = ""
            cols = chart_columns(ctx.plan, ctx.facts, [i for i in doc.item_ids if i not in doc.pending_item_ids])
            if cols:
                path = ctx.project_dir / "assets" / f"{doc.id}_chart.png"
                documents.chart_png(ctx, doc, cols[0], path)
                chart = ctx.rel(path)
            for draft in documents.deck_drafts(ctx, doc, rules_deck_spec(ctx, doc, chart), event_ids):
                ctx.add(draft)
        elif doc.kind == "notion_tracker":
            for draft in notion.tracker_drafts(ctx, doc, event_ids):
                ctx.add(draft)
        elif doc.kind == "run_log":
            ctx.add(logs.run_log_draft(ctx, doc, event_ids))
        else:
            draft = documents.image_draft(ctx, doc, event_ids)
            if draft is not None:
                ctx.add(draft)


def _render_derived(ctx: RenderContext) -> None:
    """Notion pages the plan does not already script as notion events, and the benchmark sheets."""
    scripted = {r for e in ctx.plan.events if e.where == "notion" for r in e.refs}
    groups = [notion.evidence_table_drafts(ctx), documents.source_table_drafts(ctx)]
    if not scripted & {d.id for d in ctx.plan.decisions}:
        groups.append(notion.decision_log_drafts(ctx))
    if not scripted & {f.id for f in ctx.plan.evolving_facts}:
        groups.append(notion.fact_page_drafts(ctx))
    if not scripted & {i.id for i in ctx.plan.invented}:
        groups.append(notion.ops_metric_drafts(ctx))
    for group in groups:
        for draft in group:
            ctx.add(draft)
    config = logs.config_txt_draft(ctx)
    if config is not None:
        ctx.add(config)


def _trim_extras(ctx: RenderContext, limit: int) -> None:
    """Drop derived extras (sheets, then evidence tables, then customer replies) above `limit`;
    records that realize planned events are never dropped."""
    while len(ctx.drafts) > limit:
        extras = [(d.optional, n) for n, d in enumerate(ctx.drafts) if d.optional > 0]
        if not extras:
            return
        _, index = max(extras)
        del ctx.drafts[index]


def target_count(seed_id: str, random_seed: int) -> int:
    digest = hashlib.sha256(f"{seed_id}:{random_seed}".encode()).hexdigest()
    return random.Random(int(digest[:16], 16)).randint(*TARGET_RANGE)


def render_records(facts: SourceFacts, org: Organization, plan: EventPlan, project_dir: Path, *,
                   random_seed: int, llm=None) -> RecordSet:
    """Render every record of one project under `project_dir` and export `records.jsonl` there."""
    _check_inputs(facts, org, plan)
    project_dir = Path(project_dir)
    code = code_version("records")
    ctx = RenderContext(facts=facts, org=org, plan=plan, project_dir=project_dir, random_seed=random_seed,
                        code=code)
    _render_events(ctx, llm)
    _render_documents(ctx, llm)
    crash_point("records")  # tests: killed with PDFs, slides and images written, before records.jsonl
    _render_derived(ctx)
    _trim_extras(ctx, TARGET_RANGE[1])
    budget = target_count(org.seed_id, random_seed) - len(ctx.drafts)
    for draft in slack.replies(ctx, max(budget, 0)):
        ctx.add(draft)
    records = to_records(ctx)
    graph = [VersionEdge(older=r.supersedes, newer=r.id, doc_key=r.doc_key) for r in records if r.supersedes]
    generator = llm.generator_name if llm is not None else "rules"
    result = RecordSet(seed_id=org.seed_id, records=records, version_graph=graph,
                       provenance=make_provenance(org.seed_id, "records", generator, code=code,
                                                  random_seed=random_seed, model=getattr(llm, "model", "") or "",
                                                  inputs={"facts": facts, "org": org, "plan": plan},
                                                  fallbacks=ctx.llm_fallbacks))
    atomic_write_jsonl(project_dir / "records.jsonl", records)
    return result
