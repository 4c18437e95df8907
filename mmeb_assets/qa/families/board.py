"""Items over a changed fact and the tracker that mirrors it: the message that announced the change and
the Notion page updated (or not yet updated) to match. Every item needs both records, which are of two
source types, and the who-posted-each-value item needs every version.
"""
from __future__ import annotations

from mmeb_assets.qa.families.base import GenContext, draft, ids
from mmeb_assets.qa.families.disagree import _lagging_record, where
from mmeb_assets.qa.families.temporal import announced_changes, version_record
from mmeb_assets.qa.text import channel_ref, moment_between, when
from mmeb_assets.schema import Derivation, QAItem, Record


def _changes(ctx: GenContext):
    """(fact, old, new, announcing record, board record updated to the new value or None)."""
    index, out = ctx.index, []
    for fact, old, new, announced in announced_changes(ctx):
        boards = [r for e in index.plan.events if e.kind == "notion_update" and fact.id in e.refs
                  and e.time >= new.time for r in index.event_records(e.id, new.value)
                  if not index.shows(r, old.value)]
        out.append((fact, old, new, announced, boards[0] if boards else None))
    return out


def attribution(ctx: GenContext) -> list[QAItem]:
    return _announced_and_mirrored(ctx) + _who_posted_each(ctx)


def _announced_and_mirrored(ctx: GenContext) -> list[QAItem]:
    index, out = ctx.index, []
    for fact, old, new, announced, board in _changes(ctx):
        if board is None or board.source == announced.source:
            continue
        teller, keeper = index.person_name(announced.author), index.person_name(board.author)
        if teller not in index.surface(announced) or keeper not in index.surface(board):
            continue
        q = (f"Who announced that the {fact.subject} was changing to {new.value}, and who updated "
             f"the Notion page '{board.title}' to match?")
        same = teller == keeper
        value = teller if same else f"{teller}; {keeper}"
        answer = f"{teller} did both" if same else f"{teller} announced it; {keeper} updated the page"
        out.append(draft(
            ctx, "attribution", "attribution.announced_mirrored", q, answer, value=value,
            evidence=ids([announced, board]),
            steps=[(f"{teller} announced the change to {new.value}.", [announced.id]),
                   (f"{keeper} updated '{board.title}'.", [board.id])],
            derivation=Derivation(kind="author", operands=list(dict.fromkeys([teller, keeper])), result=value,
                                  fact_key=f"{fact.id}:{new.value}", premise_values=[new.value, old.value]),
        ))
    return out


def _who_posted_each(ctx: GenContext) -> list[QAItem]:
    index, out = ctx.index, []
    for fact in index.plan.evolving_facts:
        if len(fact.versions) < 3:
            continue
        records = [version_record(ctx, fact, v) for v in fact.versions]
        if not all(records) or len(ids(records)) < 3:
            continue
        names = [index.person_name(r.author) for r in records]
        if not all(n in index.surface(r) for n, r in zip(names, records)):
            continue
        q = f"Who posted each of the values the {fact.subject} took during the week, in order?"
        answer = "; ".join(f"{v.value} (posted by {n})" for v, n in zip(fact.versions, names))
        out.append(draft(
            ctx, "attribution", "attribution.each_version", q, answer, value="; ".join(names),
            evidence=ids(records),
            steps=[(f"{when(v.time)}: {n} posted {v.value}.", [r.id]) for v, n, r in zip(fact.versions, names, records)],
            derivation=Derivation(kind="author", operands=list(dict.fromkeys(names)), result="; ".join(names),
                                  fact_key=f"{fact.id}:authors"),
        ))
    return out


def interpretation(ctx: GenContext) -> list[QAItem]:
    """Was the tracker up to date at a named time? No while it lagged behind the announcement, yes after."""
    out = []
    for fact, old, new, announced, board in _changes(ctx):
        lag = _lagging_record(ctx, fact, old, new, announced)
        if lag is not None:
            record, moment = lag
            out.append(_current_item(ctx, fact, record, announced, moment, old.value, new.value, "No"))
        if board is not None and board.source != announced.source:
            later = [v.time for v in fact.versions if v.time > new.time]
            end = min(later) if later else ctx.index.plan.window_end
            moment = moment_between(board.timestamp, end) if board.timestamp < end else None
            if moment is not None:
                out.append(_current_item(ctx, fact, board, announced, moment, new.value, new.value, "Yes"))
    return out


def _current_item(ctx, fact, page: Record, announced: Record, moment, shown: str, current: str, verdict: str) -> QAItem:
    name = where(page)
    q = f"Did {name} give the {fact.subject} that was in force on {when(moment)}?"
    said = f"{channel_ref(announced.channel) or where(announced)} had announced {current}"
    answer = f"{verdict}: it gave {shown}; {said}."
    return draft(
        ctx, "interpretation", "interpretation.tracker_current", q, answer, value=verdict,
        evidence=ids([page, announced]), boundary=when(moment),
        steps=[(f"{name[0].upper() + name[1:]} gives {shown}.", [page.id]),
               (f"The announcement set it to {current}.", [announced.id]),
               (f"So the page was {'up to date' if verdict == 'Yes' else 'behind'} at {when(moment)}.", [])],
        derivation=Derivation(kind="lookup", operands=list(dict.fromkeys([shown, current])), result=verdict,
                              fact_key=f"{fact.id}:{page.id}:current", premise_values=[]),
    )
