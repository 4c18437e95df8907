"""An index of the plan's conflicts, so question writers need not rediscover them."""
from __future__ import annotations

from mmeb_assets.schema.workspace import Conflict, DocumentPlan, Event, EvolvingFact, ScriptedError


def error_conflicts(errors: list[ScriptedError], events: list[Event], docs: list[DocumentPlan]) -> list[Conflict]:
    out = []
    for err in errors:
        mine = [e for e in events if err.id in e.refs]
        fix = next((e for e in mine if e.kind == "correction"), None)
        if fix is None:
            continue
        old = [e.id for e in mine if e.kind in ("error_slipped", "notion_update") and err.wrong_value in e.must_contain
               and err.correct_value not in e.must_contain]
        notion_fix = [e for e in mine if e.kind == "notion_update" and err.correct_value in e.must_contain]
        shown = [d.id for d in docs if err.id in d.error_ids_shown_wrong]
        out.append(Conflict(
            id=f"conf_{len(out) + 1:02d}", kind="cross_source", subject=err.target, old_value=err.wrong_value,
            new_value=err.correct_value, old_event_ids=old, new_event_ids=[fix.id] + [e.id for e in notion_fix],
            document_ids=shown, from_time=fix.time, until=min((e.time for e in notion_fix), default=None),
            error_id=err.id))
    return out


def fact_conflicts(facts: list[EvolvingFact], events: list[Event], start: int) -> list[Conflict]:
    out = []
    for fact in facts:
        for old, new in zip(fact.versions, fact.versions[1:]):
            if old.value == new.value:
                continue
            carry = lambda v: [e.id for e in events if fact.id in e.refs and v in e.must_contain]
            board = [e for e in events if e.kind == "notion_update" and fact.id in e.refs and new.value in e.must_contain
                     and e.time >= new.time]
            out.append(Conflict(
                id=f"conf_{start + len(out) + 1:02d}", kind="temporal", subject=fact.id, old_value=old.value,
                new_value=new.value, old_event_ids=carry(old.value), new_event_ids=carry(new.value),
                from_time=new.time, until=min((e.time for e in board), default=None)))
    return out


def plan_conflicts(errors, facts, events, docs) -> list[Conflict]:
    first = error_conflicts(errors, events, docs)
    return first + fact_conflicts(facts, events, len(first))
