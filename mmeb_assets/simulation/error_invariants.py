"""What one scripted error must satisfy for the blocking plan checks to pass, said before any event exists.

Why: the checks (`plan_errors`, `plan_documents`, `plan_drafts`, `plan_access`, `plan_references`) used
to be the first place a bad slip was found, after the whole week was built. The rules twin asks
`error_problems` of every draft it makes and moves on to another target when one fails; the shared
assembly (`error_repair`) asks the same of LLM drafts. The checks stay as strict: they now prove it.
"""
from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace

from mmeb_assets.schema.workspace import InventedFact, Organization, PlanItem, ScriptedError
from mmeb_assets.simulation.checks_plan import _kind_problems
from mmeb_assets.simulation.config import SimulationConfig
from mmeb_assets.simulation.timeline import after, worktime


def known_at(err: ScriptedError, items: dict[str, PlanItem], invented: dict[str, InventedFact]) -> datetime | None:
    """When the correct value is first known: its result completes, or the invented value is measured."""
    if err.target in invented:
        return invented[err.target].time
    item = items.get(err.target.split(":")[0])
    return item.completed_at if item else None


def _text_problems(err: ScriptedError, items: dict[str, PlanItem], invented: dict[str, InventedFact]) -> list[str]:
    """The correct value must not be written by accident before the correction: not by another column of
    the same result (the wrong Notion copy shows every column), nor inside a label, column or name."""
    out = []
    right = err.correct_value
    if err.target in invented:
        around = [invented[err.target].name]
    else:
        item_id, _, col = err.target.partition(":")
        item = items[item_id]
        twins = [c for c, v in item.values.items() if c != col and v == right]
        if twins:
            out.append(f"{err.id}: {right!r} is also the {twins[0]!r} of {item_id}; the wrong Notion copy of the "
                       "row would carry it before the Slack correction")
        around = [item.label, *item.values]
    if len(right) >= 3 and any(right in text for text in around):
        out.append(f"{err.id}: {right!r} is written inside a label or column name of {err.target}")
    return out


def _people_problems(err: ScriptedError, org: Organization) -> list[str]:
    out = []
    chans = {c.id: c for c in org.channels}
    joiner = org.person(org.late_joiner_id)
    for who, chan, role in ((err.slipped_by, err.slip_channel, "slipped_by"),
                            (err.noticed_by, err.notice_channel, "noticed_by"),
                            (err.slipped_by, err.fix_channel, "slipped_by (fix)")):
        if chan not in chans or who not in chans[chan].members:
            out.append(f"{err.id}: {role} {who!r} is not a member of {chan!r}")
    notice = chans.get(err.notice_channel)
    if notice is not None and notice.access == "dm" and set(notice.members) != {err.noticed_by, err.slipped_by}:
        out.append(f"{err.id}: DM {notice.id} is not between {err.noticed_by} and {err.slipped_by}")
    if err.noticed_by == err.slipped_by:
        out.append(f"{err.id}: the person who slips cannot be the one who notices")
    if joiner.joined_at and joiner.id in (err.slipped_by, err.noticed_by) and err.slipped_at < joiner.joined_at:
        out.append(f"{err.id}: the late joiner takes part before joining")
    return out


def _time_problems(err: ScriptedError, known: datetime | None, org: Organization, config: SimulationConfig,
                   anchors) -> list[str]:
    out = []
    if known is None or not known < err.slipped_at < err.noticed_at < err.fixed_at:
        out.append(f"{err.id}: needs known ({known}) < slipped < noticed < fixed")
    if not (org.window_start <= err.slipped_at and err.fixed_at <= org.window_end):
        out.append(f"{err.id}: outside the window")
    if err.fixed_at >= worktime(config, anchors.report_v2):
        out.append(f"{err.id}: fixed at {err.fixed_at}, not before report v2")
    if after(config, err.fixed_at, config.notion_lag_hours) <= err.fixed_at:
        out.append(f"{err.id}: no working time left after the fix for Notion to catch up")
    return out


def error_problems(err: ScriptedError, org: Organization, items: dict[str, PlanItem],
                   invented: dict[str, InventedFact], config: SimulationConfig, anchors,
                   channels: dict[str, str] | None = None) -> list[str]:
    """Empty when this error, scripted as the events do, passes every blocking check."""
    out = []
    if not err.wrong_value.strip() or err.wrong_value == err.correct_value:
        out.append(f"{err.id}: wrong value {err.wrong_value!r} must differ from {err.correct_value!r}")
    out += _kind_problems(SimpleNamespace(items=list(items.values())), err)
    out += _text_problems(err, items, invented)
    out += _people_problems(err, org)
    out += _time_problems(err, known_at(err, items, invented), org, config, anchors)
    return out


def straddles_report_v1(err: ScriptedError, items: dict[str, PlanItem], invented: dict[str, InventedFact],
                        config: SimulationConfig, anchors) -> bool:
    """Report v1 shows this error's wrong value: known and slipped before v1, corrected after it."""
    v1 = worktime(config, anchors.report_v1)
    known = known_at(err, items, invented)
    return known is not None and known <= v1 and err.slipped_at <= v1 < err.fixed_at
