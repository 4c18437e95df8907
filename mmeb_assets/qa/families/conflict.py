"""Cross-source conflict: a value corrected in one place while another source still shows the old one."""
from __future__ import annotations

import re

from mmeb_assets.qa.families.base import GenContext, cell_phrase, draft, ids
from mmeb_assets.qa.phrasing import sentence, source_name
from mmeb_assets.qa.stale_oracle import stale_titles
from mmeb_assets.qa.text import channel_ref, when
from mmeb_assets.records.notion import page_key
from mmeb_assets.schema import Derivation, QAItem, Record, ScriptedError


def _target(ctx: GenContext, error: ScriptedError) -> tuple[str, str]:
    """(phrase naming the value, fact key)."""
    item_id, _, col = error.target.partition(":")
    item = ctx.index.items.get(item_id)
    if item and col:
        return cell_phrase(item, col), error.target
    fact = next((f for f in ctx.index.plan.invented if f.id == error.target), None)
    return (fact.name if fact else error.target), error.target


def doc_name(ctx: GenContext, doc) -> str:
    """'version 1 of the 'Aurora report'' when later versions exist, else 'the 'Aurora report''."""
    later = any(d.doc_key == doc.doc_key and d.version > doc.version for d in ctx.index.plan.documents)
    named = doc.title.rstrip().lower().endswith(f" v{doc.version}")
    return f"version {doc.version} of the '{doc.title}'" if later and not named else f"the '{doc.title}'"


def _correction_record(ctx: GenContext, error: ScriptedError) -> Record | None:
    index = ctx.index
    for event in index.events_of({"correction"}, ref=error.id):
        found = index.event_records(event.id, error.correct_value)
        if found:
            return found[0]
    candidates = [r for r in index.find(error.correct_value) if r.timestamp >= error.fixed_at
                  and index.shows(r, error.wrong_value)]
    return candidates[0] if candidates else None


def _stale_records(ctx: GenContext, error: ScriptedError, correction: Record) -> list[tuple[Record, str]]:
    """Records that show the wrong value and not the right one: (record, how the question names it)."""
    index, out = ctx.index, []
    for doc in index.plan.documents:
        if error.id in doc.error_ids_shown_wrong:
            for record in index.doc_records(doc.id, error.wrong_value, error.target):
                if not index.shows(record, error.correct_value):
                    out.append((record, doc_name(ctx, doc)))
    for event in index.plan.events:
        if error.id in event.refs and event.kind in ("error_slipped", "notion_update", "status_update"):
            for record in index.event_records(event.id, error.wrong_value):
                if record.id != correction.id and not index.shows(record, error.correct_value):
                    out.append((record, source_name(record.source) if record.source != "slack"
                                else f"a message in {channel_ref(record.channel)}"))
    seen, unique = set(), []
    for record, name in out:
        if record.id not in seen:
            seen.add(record.id)
            unique.append((record, name))
    return unique


def generate(ctx: GenContext) -> list[QAItem]:
    out = []
    for error in ctx.index.plan.errors:
        correction = _correction_record(ctx, error)
        if correction is None:
            continue
        stale = _stale_records(ctx, error, correction)
        if not stale:
            continue
        out += _which_applies(ctx, error, correction, stale)
        made = _which_sources(ctx, error, correction, stale)
        if made:
            out.append(made)
    return out + evolving_corrections(ctx)


def _which_applies(ctx, error, correction, stale) -> list[QAItem]:
    phrase, key = _target(ctx, error)
    out = []
    for record, name in stale[:2]:
        q = f"{sentence(name)} gives {error.wrong_value} as the {phrase}. Which value applies after the correction?"
        evidence = ids([record, correction])
        answer = (f"{error.correct_value}: {_the(error.wrong_value)} was corrected to {error.correct_value} "
                  f"in {channel_ref(correction.channel) or correction.source} on {when(correction.timestamp)}.")
        out.append(draft(
            ctx, "cross_source_conflict", "cross_source.applies", q, answer, value=error.correct_value,
            evidence=evidence,
            steps=[(f"The stale source shows {error.wrong_value}.", [record.id]),
                   (f"The correction states {error.wrong_value} -> {error.correct_value}.", [correction.id]),
                   (f"The corrected value {error.correct_value} applies.", [])],
            derivation=Derivation(kind="corrected_value", operands=[error.wrong_value, error.correct_value],
                                  result=error.correct_value, fact_key=key, premise_values=[error.wrong_value],
                                  competing_values=[error.wrong_value]),
        ))
    return out


def stale_at(ctx: GenContext, error: ScriptedError, at) -> list:
    """Every document stale at time `at`: the version of each document current then (the latest
    posted at or before `at`) that still shows the error's wrong value, in posting order. A document
    planned before the fix but not displaying the target at all (a tracker without invented metrics, a
    chart of another column) shows nothing stale."""
    current: dict[str, object] = {}
    for doc in sorted(ctx.index.plan.documents, key=lambda d: (d.time, d.version)):
        if doc.time <= at:
            current[doc.doc_key] = doc
    return [d for d in current.values() if error.id in d.error_ids_shown_wrong
            and ctx.index.doc_records(d.id, error.wrong_value, error.target)]


def stale_pages(ctx: GenContext, error: ScriptedError, at) -> list[Record]:
    """Notion pages whose version current at `at` the plan wrote with the old value: per page (its
    edits share a key, `records.notion.page_key`), the last edit at or before `at`, when it carries
    the wrong value and not the right one for the error's run or metric (issue 53: a results log or
    metric page left unedited until Notion caught up is as stale as a report)."""
    base = error.target.split(":", 1)[0]
    current = {}
    for event in sorted(ctx.index.plan.events, key=lambda e: e.time):
        if event.where == "notion" and event.time <= at:
            current[page_key(ctx.index.plan, event)] = event
    out = []
    for key, event in current.items():
        if key and base in {r.split(":", 1)[0] for r in event.refs} and error.wrong_value in event.must_contain \
                and error.correct_value not in event.must_contain:
            out += ctx.index.event_records(event.id, error.wrong_value)[:1]
    return out


def _which_sources(ctx, error, correction, stale) -> QAItem | None:
    """Which documents still showed the old value when it was corrected: all of them (reports, decks,
    trackers, logs and Notion pages), each with the record of its current version that shows the
    wrong value (issue 27: golds listed only some; issue 53: Notion pages were never looked at)."""
    docs = stale_at(ctx, error, correction.timestamp)
    shown = [(d.title, next(iter(ctx.index.doc_records(d.id, error.wrong_value, error.target)), None)) for d in docs]
    shown += [(r.title, r) for r in stale_pages(ctx, error, correction.timestamp)]
    if not shown or any(record is None for _, record in shown):
        return None
    seen = stale_titles(ctx.index, error.target, error.wrong_value, error.correct_value, correction.timestamp)
    shown = [(t, r) for t, r in shown if (r.title or t) in seen]  # the old digits on another row are not it
    titles = list(dict.fromkeys((r.title or t) for t, r in shown))
    if not titles or set(titles) != seen:
        return None  # the records show the old value somewhere the plan did not mean it to: no exact gold
    phrase, key = _target(ctx, error)
    evidence = ids([correction] + [record for _, record in shown])
    q = (f"When the {phrase} was corrected in {channel_ref(correction.channel) or correction.source} "
         f"({when(correction.timestamp)}), which documents then current still showed the old value?")
    answer = "; ".join(titles) + f" (showing {error.wrong_value} instead of {error.correct_value})"
    return draft(
        ctx, "cross_source_conflict", "cross_source.stale", q, answer, value="; ".join(titles), evidence=evidence,
        steps=[(f"The correction gives {error.wrong_value} -> {error.correct_value}.", [correction.id])]
              + [(f"'{r.title or t}' still shows {error.wrong_value}.", [r.id]) for t, r in shown],
        derivation=Derivation(kind="stale_sources", operands=titles + [error.wrong_value], result="; ".join(titles),
                              fact_key=key, premise_values=[]),
    )


def evolving_corrections(ctx: GenContext) -> list[QAItem]:
    """An evolving fact stated wrongly (a slip) and corrected later, the correction being its final value."""
    from mmeb_assets.qa.families.temporal import version_record

    out = []
    for fact in ctx.index.plan.evolving_facts:
        last = fact.versions[-1]
        slips = [v for v in fact.versions[:-1] if v.cause == "slip" and v.value != last.value]
        if last.cause != "correction" or not slips:
            continue
        slip = slips[-1]
        records = [version_record(ctx, fact, slip), version_record(ctx, fact, last)]
        if not all(records):
            continue
        where = channel_ref(records[0].channel) or records[0].source
        q = (f"A message in {where} gives the {fact.subject} as {slip.value}. Which {fact.subject} applies after "
             f"the correction of {when(last.time)}?")
        answer = f"{last.value} (corrected from {slip.value} on {when(last.time)})"
        out.append(draft(
            ctx, "cross_source_conflict", "cross_source.evolving", q, answer, value=last.value, evidence=ids(records),
            boundary=f"correction of {when(last.time)}",
            steps=[(f"{when(slip.time)}: the {fact.subject} is given as {slip.value}.", [records[0].id]),
                   (f"{when(last.time)}: corrected to {last.value}.", [records[1].id]),
                   (f"The corrected value {last.value} applies.", [])],
            derivation=Derivation(kind="corrected_value", operands=[slip.value, last.value], result=last.value,
                                  fact_key=fact.id, premise_values=[slip.value],
                                  competing_values=[v.value for v in fact.versions if v.value != last.value]),
        ))
    return out


def _the(value: str) -> str:
    """'the 12 ms', but 'a lexicon studied ...' as it is: a quoted phrase that has its own article."""
    return value if re.match(r"(?:the|a|an)\s", value, re.I) else f"the {value}"
