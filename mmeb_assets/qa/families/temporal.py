"""Temporal conflict: the value in force at a named time, just before a revision, or its history."""
from __future__ import annotations

from datetime import timedelta

from mmeb_assets.qa.families.base import GenContext, draft, ids, is_year
from mmeb_assets.qa.phrasing import metric, the
from mmeb_assets.qa.text import moment_between, when
from mmeb_assets.schema import Derivation, EvolvingFact, FactVersion, QAItem, Record


def version_record(ctx: GenContext, fact: EvolvingFact, version: FactVersion) -> Record | None:
    """The record stating this version: the event at its time that refs the fact, else a same-time match."""
    index = ctx.index
    for event in index.plan.events:
        if fact.id in event.refs and abs((event.time - version.time).total_seconds()) < 60:
            found = index.event_records(event.id, version.value)
            if found:
                return found[0]
    near = [r for r in index.find(version.value) if abs((r.timestamp - version.time).total_seconds()) < 60]
    return near[0] if near else None


def announced_changes(ctx: GenContext):
    """(fact, old, new, announcing record) for every real change of an evolving fact (not a slip or
    its correction) whose new value some record states."""
    for fact in ctx.index.plan.evolving_facts:
        for old, new in zip(fact.versions, fact.versions[1:]):
            if old.value == new.value or new.cause != "change":
                continue
            announced = version_record(ctx, fact, new)
            if announced is not None:
                yield fact, old, new, announced


def final_record(ctx: GenContext, fact: EvolvingFact) -> Record | None:
    """Where the final value stands at the end of the week: the tracker entry updated to it, else its message."""
    index, last = ctx.index, fact.versions[-1]
    boards = [r for e in index.plan.events if e.kind == "notion_update" and fact.id in e.refs and e.time >= last.time
              for r in index.event_records(e.id, last.value)]
    return boards[-1] if boards else version_record(ctx, fact, last)


def _boundary(a: FactVersion, b: FactVersion):
    """A round time strictly between two versions (the question names it), in working hours if possible."""
    return moment_between(a.time, b.time)


def generate(ctx: GenContext) -> list[QAItem]:
    out = []
    for fact in ctx.index.plan.evolving_facts:
        records = [version_record(ctx, fact, v) for v in fact.versions]
        if len(fact.versions) < 2 or any(r is None for r in records):
            continue
        out += _as_of(ctx, fact, records) + _before(ctx, fact, records) + _history(ctx, fact, records)
    return out + _document_versions(ctx)


def _others(fact: EvolvingFact, value: str) -> list[str]:
    return [v.value for v in fact.versions if v.value != value]


def _as_of(ctx, fact, records) -> list[QAItem]:
    out = []
    for i in range(len(fact.versions) - 1):
        current, nxt = fact.versions[i], fact.versions[i + 1]
        moment = _boundary(current, nxt)
        if moment is None or current.value == nxt.value or nxt.cause == "correction":
            continue   # inside a slip window "what was it" has two readings (stated vs. true)
        if fact.value_at(moment) != current or (i == 0 and len(fact.versions) >= 3):
            continue   # with later revisions to ask about, the first-stated value is not asked (position would answer it)
        q = f"As of {when(moment)}, what was the {fact.subject}?"
        evidence = ids([records[i], records[i + 1]])
        out.append(draft(
            ctx, "temporal_conflict", "temporal.as_of", q, current.value, value=current.value, evidence=evidence,
            boundary=when(moment),
            steps=[(f"On {when(current.time)} the {fact.subject} was stated as {current.value}.", [records[i].id]),
                   (f"It changed only on {when(nxt.time)}, after {when(moment)}.", [records[i + 1].id]),
                   (f"So at {when(moment)} it was {current.value}.", [])],
            derivation=Derivation(kind="version_at", operands=[current.value], result=current.value, fact_key=fact.id,
                                  competing_values=_others(fact, current.value), boundary_time=moment),
        ))
    return out


def _before(ctx, fact, records) -> list[QAItem]:
    out = []
    for i in range(1, len(fact.versions)):
        prev, revision = fact.versions[i - 1], fact.versions[i]
        if prev.value == revision.value or (i == 1 and len(fact.versions) >= 3):
            continue
        q = f"What was the {fact.subject} immediately before the revision posted on {when(revision.time)}?"
        evidence = ids([records[i - 1], records[i]])
        out.append(draft(
            ctx, "temporal_conflict", "temporal.before", q, prev.value, value=prev.value, evidence=evidence,
            boundary=f"revision of {when(revision.time)}",
            steps=[(f"The revision on {when(revision.time)} set the {fact.subject} to {revision.value}.", [records[i].id]),
                   (f"The value stated before it was {prev.value}.", [records[i - 1].id])],
            derivation=Derivation(kind="version_before", operands=[prev.value], result=prev.value, fact_key=fact.id,
                                  competing_values=_others(fact, prev.value),
                                  boundary_time=revision.time - timedelta(seconds=1)),
        ))
    return out


def _history(ctx, fact, records) -> list[QAItem]:
    last = fact.versions[-1]
    evidence = ids(records)
    sequence = " -> ".join(v.value for v in fact.versions)
    out = [draft(
        ctx, "temporal_conflict", "temporal.latest", f"What is the {fact.subject} at the end of the week, after all revisions?",
        last.value, value=last.value, evidence=ids(records[-2:]), boundary="end of the recorded period",
        steps=[(f"Earlier it was {fact.versions[-2].value}.", [records[-2].id]),
               (f"The last revision, on {when(last.time)}, set it to {last.value}.", [records[-1].id])],
        derivation=Derivation(kind="version_latest", operands=[last.value], result=last.value, fact_key=fact.id,
                              competing_values=_others(fact, last.value), boundary_time=ctx.index.plan.window_end),
    )]
    if len(fact.versions) >= 3:
        out.append(draft(
            ctx, "temporal_conflict", "temporal.sequence",
            f"List the values the {fact.subject} took during the week, in order.", sequence, value=sequence,
            evidence=evidence, boundary="whole recorded period",
            steps=[(f"{when(v.time)}: {v.value}.", [r.id]) for v, r in zip(fact.versions, records)][:5],
            derivation=Derivation(kind="version_sequence", operands=[v.value for v in fact.versions], result=sequence,
                                  fact_key=fact.id),
        ))
    return out


def _document_versions(ctx: GenContext) -> list[QAItem]:
    """What the first version of a document showed for a value it later corrected."""
    index, out = ctx.index, []
    for doc in index.plan.documents:
        for error in index.plan.errors:
            if error.id not in doc.error_ids_shown_wrong:
                continue
            item_id, _, col = error.target.partition(":")
            item = index.items.get(item_id)
            pages = index.doc_records(doc.id, error.wrong_value, error.target)
            later = [d for d in index.plan.documents if d.doc_key == doc.doc_key and d.version > doc.version]
            if item is None or not pages or not later:
                continue
            what = f"{col} value" if is_year(col) else metric(col)
            q = f"What {what} did version {doc.version} of the '{doc.title}' show for {the(item.label)}?"
            out.append(draft(
                ctx, "temporal_conflict", "temporal.doc_version", q, error.wrong_value, value=error.wrong_value,
                evidence=[pages[0].id], boundary=f"version {doc.version}",
                steps=[(f"Open version {doc.version} of '{doc.title}'.", [pages[0].id]),
                       (f"It shows {error.wrong_value} for the {col} of {item.label}.", [pages[0].id])],
                derivation=Derivation(kind="lookup", operands=[error.wrong_value], result=error.wrong_value,
                                      fact_key=f"{doc.id}:{error.target}", competing_values=[error.correct_value]),
            ))
    return out
