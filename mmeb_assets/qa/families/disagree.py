"""Cross-source conflicts that need every side: two sources that disagree, and what settles them.

`disagree`: the original post and a later copy (a report page, a slide, a Notion entry) give different
values; neither is named as wrong, so the reader needs both and the correction that says which holds.
The right value here is the one posted first. `lagging`: a value changed in a message while a
Notion board (or another source) still showed the old one; the value that applies is the one posted
later. Together they keep the gold's position (first- or last-posted) from being a shortcut.
"""
from __future__ import annotations

from datetime import timedelta

from mmeb_assets.qa.families.base import GenContext, draft, ids
from mmeb_assets.qa.families.conflict import _correction_record, _stale_records, _target
from mmeb_assets.qa.families.temporal import announced_changes, version_record
from mmeb_assets.qa.phrasing import sentence, source_name
from mmeb_assets.qa.text import channel_ref, moment_between, when
from mmeb_assets.schema import Derivation, QAItem, Record

ORIGINAL_KINDS = {"result_posted", "invented_fact"}


def generate(ctx: GenContext) -> list[QAItem]:
    return _disagree(ctx) + _evolving_disagree(ctx) + _lagging(ctx)


def _medium(record: Record) -> str:
    """Where a change was posted when no channel names it: 'a screenshot' for an image (the planning
    sheet), else the source ('notion', 'email')."""
    return "a screenshot" if record.source == "image" else record.source


def where(record: Record) -> str:
    """'the #results message of Mon Mar 2 at 15:03' / 'a Notion page' — how a question points at a record."""
    if record.source == "slack" and record.channel and not record.channel.startswith("dm-"):
        return f"the {channel_ref(record.channel)} message of {when(record.timestamp)}"
    if record.source == "notion" and record.title:
        return f"the Notion page '{record.title}'"
    if record.source in ("pdf_page", "slide") and record.title:
        return f"{'page' if record.source == 'pdf_page' else 'slide'} {record.page or 1} of the '{record.title}'"
    return f"{source_name(record.source, definite=True)} of {when(record.timestamp)}"


def _original(ctx: GenContext, error) -> Record | None:
    """The first record that posted the right value, before the slip."""
    ref = error.target.partition(":")[0]
    found = ctx.index.value_record(error.correct_value, ref=ref, kinds=ORIGINAL_KINDS)
    return found if found is not None and found.timestamp < error.slipped_at else None


def _disagree(ctx: GenContext) -> list[QAItem]:
    out = []
    for error in ctx.index.plan.errors:
        correction = _correction_record(ctx, error)
        original = _original(ctx, error)
        if correction is None or original is None:
            continue
        stale = [r for r, _ in _stale_records(ctx, error, correction) if r.source != original.source]
        if not stale:
            continue
        copy = stale[0]
        phrase, key = _target(ctx, error)
        q = (f"{sentence(where(original))} and {where(copy)} give different values for the {phrase}. "
             f"Which value is right?")
        answer = (f"{error.correct_value}: {where(copy)} shows {error.wrong_value}, which was corrected to "
                  f"{error.correct_value} in {channel_ref(correction.channel) or correction.source} on "
                  f"{when(correction.timestamp)}.")
        out.append(draft(
            ctx, "cross_source_conflict", "cross_source.disagree", q, answer, value=error.correct_value,
            evidence=ids([original, copy, correction]),
            steps=[(f"The first post gives {error.correct_value}.", [original.id]),
                   (f"The later copy gives {error.wrong_value}.", [copy.id]),
                   (f"The correction settles it: {error.wrong_value} -> {error.correct_value}.", [correction.id])],
            derivation=Derivation(kind="corrected_value", operands=[error.wrong_value, error.correct_value],
                                  result=error.correct_value, fact_key=key, premise_values=[],
                                  competing_values=[error.wrong_value]),
        ))
    return out


def _evolving_disagree(ctx: GenContext) -> list[QAItem]:
    """A value stated, restated wrongly (a slip), and corrected back: the two statements and the fix."""
    out = []
    for fact in ctx.index.plan.evolving_facts:
        versions = fact.versions
        for n in range(1, len(versions) - 1):
            first, slip, fix = versions[n - 1], versions[n], versions[n + 1]
            if slip.cause != "slip" or fix.cause != "correction" or first.value != fix.value or slip.value == fix.value:
                continue
            records = [version_record(ctx, fact, v) for v in (first, slip, fix)]
            if not all(records) or len(ids(records)) < 3:
                continue
            q = (f"{sentence(where(records[0]))} and {where(records[1])} give different values for the "
                 f"{fact.subject}. Which one is right?")
            answer = f"{fix.value}: the {slip.value} was a slip, corrected on {when(fix.time)}."
            out.append(draft(
                ctx, "cross_source_conflict", "cross_source.evolving_disagree", q, answer, value=fix.value,
                evidence=ids(records),
                steps=[(f"First stated as {first.value}.", [records[0].id]),
                       (f"Restated as {slip.value}.", [records[1].id]),
                       (f"Corrected back to {fix.value} on {when(fix.time)}.", [records[2].id])],
                derivation=Derivation(kind="corrected_value", operands=[slip.value, fix.value], result=fix.value,
                                      fact_key=fact.id, premise_values=[],
                                      competing_values=[v.value for v in versions if v.value != fix.value]),
            ))
    return out


def _lagging(ctx: GenContext) -> list[QAItem]:
    """A change announced in one source while another still shows the previous value."""
    out = []
    for fact, old, new, announced in announced_changes(ctx):
        lag = _lagging_record(ctx, fact, old, new, announced)
        if lag is None:
            continue
        record, moment = lag
        q = (f"On {when(moment)}, {where(record)} still gave the {fact.subject} as {old.value}. "
             f"Which value was in force at that time?")
        answer = (f"{new.value}: it was changed from {old.value} in "
                  f"{channel_ref(announced.channel) or _medium(announced)} on {when(announced.timestamp)}.")
        out.append(draft(
            ctx, "cross_source_conflict", "cross_source.lagging", q, answer, value=new.value,
            evidence=ids([record, announced]), boundary=when(moment),
            steps=[(f"{sentence(where(record))} shows {old.value}.", [record.id]),
                   (f"On {when(announced.timestamp)} it was changed to {new.value}.", [announced.id]),
                   (f"So at {when(moment)} the value in force was {new.value}.", [])],
            derivation=Derivation(kind="corrected_value", operands=[old.value, new.value], result=new.value,
                                  fact_key=fact.id, premise_values=[old.value],
                                  competing_values=[v.value for v in fact.versions if v.value != new.value]),
        ))
    return out


def _lagging_record(ctx: GenContext, fact, old, new, announced) -> tuple[Record, object] | None:
    """A non-message record showing `old` that no update of the same source replaced until after `new`."""
    if announced is None:
        return None
    index = ctx.index
    later = [v.time for v in fact.versions if v.time > new.time]
    horizon = min(later) if later else index.plan.window_end
    before = sorted((e for e in index.plan.events if fact.id in e.refs and e.time <= new.time
                     and e.kind in ("notion_update", "customer_email")), key=lambda e: e.time, reverse=True)
    for event in before:
        records = [r for r in index.event_records(event.id, old.value)
                   if r.source != announced.source and not index.shows(r, new.value)]
        if not records:
            continue
        caught_up = [e.time for e in index.plan.events if fact.id in e.refs and e.where == event.where
                     and new.time <= e.time and new.value in e.must_contain]
        moment = _round_between(new.time, min(caught_up + [horizon]))
        return (records[0], moment) if moment is not None else None
    return None


def _round_between(start, end):
    """A quarter-hour inside (start, end), in working hours when possible; None when the window is too short."""
    if end - start < timedelta(minutes=40):
        return None
    return moment_between(start, end)
