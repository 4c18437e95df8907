"""The LLM path of the records stage: Slack days per channel (with the naturalness review and one
rewrite when the score is 2 or less) and report content specs. Outputs are checked against pydantic
schemas and the validators below; `llm.generate_json` regenerates with the accumulated errors.
A channel-day or report whose request fails for good or whose output never validates keeps the
rules twin; the reason is appended to `ctx.llm_fallbacks` (the record set's provenance)."""
from __future__ import annotations

import re
from collections import defaultdict

from pydantic import BaseModel, Field

from mmeb_assets.prompts import load_prompt
from mmeb_assets.records.content import (
    doc_decisions, doc_facts, doc_invented, expected_doc_values, invented_value, item_cells, items_of,
    pending_only_values, shown_wrong,
)
from mmeb_assets.records.chart_units import chart_columns
from mmeb_assets.records.context import RenderContext
from mmeb_assets.records.headers import contains_value
from mmeb_assets.records.report_spec import ReportSpec
from mmeb_assets.records.slack import finalize, is_slack_event
from mmeb_assets.schema.workspace import DocumentPlan, Event
from mmeb_resources.llm import LLMError, failure_reason

FORBIDDEN = re.compile(r"\b(paper|publication|preprint|conference|arxiv)\b", re.IGNORECASE)
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
REVIEW_MIN_EVENTS = 6
REWRITE_AT_OR_BELOW = 2


class SlackMessageOut(BaseModel):
    event_id: str
    time: str = Field(description="HH:MM")
    actor: str
    text: str


class SlackDayOut(BaseModel):
    messages: list[SlackMessageOut]


class NaturalnessReview(BaseModel):
    score: int = Field(ge=1, le=5)
    problems: list[str] = []


def slack_day_errors(out: SlackDayOut, events: list[Event], allowed_numbers: set[str] | None = None) -> list[str]:
    """Programmatic checks of one channel-day: ids, actors, times, must / must-not values, numbers."""
    errors: list[str] = []
    by_id = {e.id: e for e in events}
    seen: dict[str, int] = defaultdict(int)
    for m in out.messages:
        seen[m.event_id] += 1
        e = by_id.get(m.event_id)
        if e is None:
            errors.append(f"message for unknown event id {m.event_id!r}")
            continue
        if m.actor != e.actor:
            errors.append(f"{e.id}: actor must be {e.actor!r}, not {m.actor!r}")
        if m.time != e.time.strftime("%H:%M"):
            errors.append(f"{e.id}: time must be {e.time:%H:%M}, not {m.time!r}")
        for v in e.must_contain:
            if not contains_value(m.text, v):
                errors.append(f"{e.id}: must contain {v!r} verbatim")
        for v in e.must_not_contain:
            if v not in e.must_contain and contains_value(m.text, v):
                errors.append(f"{e.id}: must not contain {v!r}")
        if FORBIDDEN.search(m.text):
            errors.append(f"{e.id}: never mention a publication or paper")
        allowed = set(NUMBER.findall(" ".join([e.summary, e.title, *e.must_contain]))) | (allowed_numbers or set())
        extra = [n for n in NUMBER.findall(m.text) if n not in allowed]
        if extra:
            errors.append(f"{e.id}: numbers not in the event description: {sorted(set(extra))}")
    for e in events:
        if seen[e.id] != 1:
            errors.append(f"{e.id}: needs exactly one message, got {seen[e.id]}")
    return errors


def _event_line(ctx: RenderContext, e: Event) -> str:
    doc = ctx.document(e.attachment) if e.attachment else None
    return (f"- {e.id} | {e.time:%H:%M} | {e.actor} ({ctx.name(e.actor)}) | {e.kind} | {e.summary} | "
            f"MUST CONTAIN: {e.must_contain or '-'} | MUST NOT CONTAIN: {e.must_not_contain or '-'} | "
            f"{f'{doc.title} v{doc.version} ({doc.kind})' if doc else '-'}")


def _day_variables(ctx: RenderContext, channel_id: str, day_events: list[Event], context: list[str]) -> dict:
    chan = ctx.org.channel(channel_id)
    first = day_events[0].time
    state = "; ".join(f"{s}: {v.value}" for s, v in
                      ((f.subject, f.value_at(first)) for f in ctx.plan.evolving_facts) if v) or "nothing special"
    return {
        "company": ctx.org.company_name, "system": ctx.org.internal_model_name, "channel": f"#{chan.id}",
        "purpose": chan.purpose, "members": ", ".join(f"{m} ({ctx.name(m)})" for m in chan.members),
        "voices": "\n".join(f"- {ctx.name(m)}: {ctx.org.person(m).voice}" for m in chan.members),
        "day": first.strftime("%A %Y-%m-%d"), "state": state,
        "context": "\n".join(context[-6:]) or "(no earlier messages)", "feedback": "",
        "events": "\n".join(_event_line(ctx, e) for e in day_events),
    }


def _day_numbers(ctx: RenderContext, day_events: list[Event]) -> set[str]:
    """Numbers a message may use without being told: names, labels and dates of the project."""
    words = [ctx.org.internal_model_name, ctx.org.project_codename, day_events[0].time.strftime("%d %Y %H:%M")]
    words += [i.label for i in ctx.plan.items] + [i.dataset for i in ctx.plan.items]
    words += [e.time.strftime("%H:%M") for e in day_events] + [f"{d.title} v{d.version}" for d in ctx.plan.documents]
    words += [ctx.org.milestone_a.name, ctx.org.milestone_b.name, ctx.org.product]
    last = day_events[-1].time
    words += [v.value for f in ctx.plan.evolving_facts for v in f.versions if v.time <= last]  # "moves from X"
    return set(NUMBER.findall(" ".join(words)))


def slack_messages_llm(ctx: RenderContext, llm) -> dict[str, tuple[str, dict]]:
    """event id -> (text, provenance fields) for every channel event, one LLM call per channel-day."""
    tpl, review_tpl = load_prompt("records", "slack_day"), load_prompt("records", "naturalness")
    groups: dict[tuple[str, str], list[Event]] = defaultdict(list)
    for e in ctx.plan.events:
        if is_slack_event(ctx, e):
            groups[(e.where, e.time.strftime("%Y-%m-%d"))].append(e)
    context: dict[str, list[str]] = defaultdict(list)
    out: dict[str, tuple[str, dict]] = {}
    for (channel_id, _day), day_events in sorted(groups.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        texts = _one_day(ctx, llm, tpl, review_tpl, channel_id, day_events, context[channel_id])
        for e in day_events:
            if e.id in texts:
                out[e.id] = texts[e.id]
                context[channel_id].append(f"{e.time:%H:%M} {ctx.name(e.actor)}: {texts[e.id][0]}")
    return out


def _one_day(ctx, llm, tpl, review_tpl, channel_id, day_events, context) -> dict[str, tuple[str, dict]]:
    variables = _day_variables(ctx, channel_id, day_events, context)
    allowed = _day_numbers(ctx, day_events)

    def validate(value: SlackDayOut) -> list[str]:
        return slack_day_errors(value, day_events, allowed)

    try:
        result = llm.generate_json(tpl, variables, SlackDayOut, stage="records.slack", validate=validate)
    except LLMError as exc:  # this channel-day keeps the deterministic twin; its records say 'rules'
        ctx.llm_fallbacks.append(f"slack {channel_id} {variables['day']}: {failure_reason(exc)}")
        return {}
    day = result.value
    if len(day_events) >= REVIEW_MIN_EVENTS:
        day = _review_and_rewrite(ctx, llm, tpl, review_tpl, variables, day, validate)
    by_event = {e.id: e for e in day_events}
    meta = {"generator": llm.generator_name, "prompt_hash": tpl.hash, "model": llm.model}
    return {m.event_id: (finalize(m.text, by_event[m.event_id]), meta) for m in day.messages}


def _review_and_rewrite(ctx, llm, tpl, review_tpl, variables, day: SlackDayOut, validate) -> SlackDayOut:
    convo = "\n".join(f"{m.time} {ctx.name(m.actor)}: {m.text}" for m in day.messages)
    review_vars = {"channel": variables["channel"], "day": variables["day"], "voices": variables["voices"],
                   "conversation": convo}
    try:
        review = llm.generate_json(review_tpl, review_vars, NaturalnessReview, stage="records.naturalness").value
    except LLMError as exc:
        ctx.llm_fallbacks.append(f"naturalness review {variables['channel']} {variables['day']}: "
                                 f"draft kept unreviewed ({failure_reason(exc)})")
        return day
    if review.score > REWRITE_AT_OR_BELOW:
        return day
    feedback = (f"\nA reviewer scored the previous draft of today {review.score}/5 for naturalness. Fix these "
                "problems in the new draft:\n- " + "\n- ".join(review.problems or ["reads as scripted"]) + "\n")
    try:
        return llm.generate_json(tpl, {**variables, "feedback": feedback}, SlackDayOut, stage="records.slack",
                                 validate=validate).value
    except LLMError as exc:
        ctx.llm_fallbacks.append(f"rewrite {variables['channel']} {variables['day']}: first draft kept "
                                 f"({failure_reason(exc)})")
        return day


def _spec_text(spec: ReportSpec) -> str:
    parts = [spec.title]
    for page in spec.pages:
        for b in page.blocks:
            parts += [b.text, *b.items, *b.header, *(c for row in b.rows for c in row)]
    return " ".join(" ".join(parts).split())


def report_spec_errors(spec: ReportSpec, ctx: RenderContext, doc: DocumentPlan) -> list[str]:
    errors = []
    text = _spec_text(spec)
    for v in expected_doc_values(ctx.plan, doc):
        if not contains_value(text, " ".join(v.split())):
            errors.append(f"value {v!r} of an available result must appear exactly")
    for v in pending_only_values(ctx.plan, doc):
        if contains_value(text, v):
            errors.append(f"value {v!r} belongs to a pending result and must not appear")
    if doc.pending_item_ids and "pending" not in text.lower():
        errors.append("results not yet available must be described as pending")
    if FORBIDDEN.search(text):
        errors.append("never mention a publication, paper or conference")
    figures = {f.id for f in ctx.facts.figures}
    charts = set(chart_columns(ctx.plan, ctx.facts, [i for i in doc.item_ids if i not in doc.pending_item_ids]))
    for page in spec.pages:
        for b in page.blocks:
            if b.kind == "figure" and b.ref not in figures:
                errors.append(f"figure ref {b.ref!r} is not one of {sorted(figures)}")
            if b.kind == "chart" and b.ref not in charts:
                errors.append(f"chart ref {b.ref!r} is not one of {sorted(charts)}")
    if len(spec.pages) < 4:
        errors.append("write at least 4 pages")
    return errors


def report_spec_llm(ctx: RenderContext, llm, doc: DocumentPlan) -> tuple[ReportSpec, dict]:
    """The LLM writes the spec; on failure after the allowed tries the rules spec is used."""
    from mmeb_assets.records.report_spec import rules_report_spec

    tpl = load_prompt("records", "report_spec")
    try:
        result = llm.generate_json(tpl, report_variables(ctx, doc), ReportSpec, stage="records.report",
                                   validate=lambda s: report_spec_errors(s, ctx, doc))
    except LLMError as exc:
        ctx.llm_fallbacks.append(f"report {doc.id}: {failure_reason(exc)}")
        return rules_report_spec(ctx, doc), {}
    return result.value, {"generator": llm.generator_name, "prompt_hash": tpl.hash, "model": llm.model}


def report_variables(ctx: RenderContext, doc: DocumentPlan) -> dict:
    org, tx, plan = ctx.org, ctx.facts.textual, ctx.plan
    wrong = shown_wrong(doc, plan)
    done = [i for i in items_of(plan, doc.item_ids) if i.id not in doc.pending_item_ids]
    runs = "\n".join(f"- {i.label} ({i.kind}, {ctx.name(i.owner)}): " + ", ".join(f"{c} {v}" for c, v in item_cells(i, wrong))
                     for i in done) or "none yet"
    error_instruction = ("Some values above are what the author believed at writing time; copy them exactly as "
                         "listed, do not correct them." if doc.error_ids_shown_wrong else "All values are final.")
    return {
        "company": org.company_name, "product": org.product, "name": org.internal_model_name,
        "one_sentence": tx.one_sentence, "task": tx.task_summary,
        "steps": "\n".join(f"{n}. {s}" for n, s in enumerate(tx.pipeline_steps, 1)) or "-",
        "config": "\n".join(f"- {c.name}: {c.value}" for c in tx.config_facts) or "-",
        "version": doc.version, "title": doc.title, "author": ctx.name(doc.author),
        "date": doc.time.strftime("%Y-%m-%d %H:%M"), "milestone_a": org.milestone_a.name, "runs": runs,
        "pending": ", ".join(i.label for i in items_of(plan, doc.pending_item_ids)) or "none",
        "invented": "; ".join(f"{i.name}: {invented_value(i, wrong)}" for i in doc_invented(plan, doc)) or "none",
        "decisions": "; ".join(f"{d.title}: {d.body}" for d in doc_decisions(plan, doc)) or "none",
        "facts": "; ".join(f"{s}: {v}" for s, v in doc_facts(plan, doc)) or "none",
        "figures": "; ".join(f"{f.id}: {f.caption}" for f in ctx.facts.figures if f.id in doc.figure_ids) or "none",
        "charts": ", ".join(chart_columns(plan, ctx.facts, [i.id for i in done])) or "none",
        "tables": "all" if done else "none", "error_instruction": error_instruction,
        "report_structure": ("a title page with a summary; method and configuration; results with the inline "
                             "table of every run and one paragraph per run; a page with a chart and the table "
                             "image; one page per figure with its caption; operations and decisions; timeline "
                             "and next steps"),
    }
