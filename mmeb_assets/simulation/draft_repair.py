"""Item-level repair of event drafts: one event whose draft misses a required value, or writes a value
it must not, is repaired on its own (and the repair recorded) instead of failing the seed's plan."""
from __future__ import annotations

from mmeb_assets.schema.workspace import EventPlan


def repair_drafts(plan: EventPlan) -> EventPlan:
    """Missing must-contain values are appended to the draft; forbidden or image-only values are
    replaced by 'that figure'. Each repair names the event and the values."""
    pixel = {v for d in plan.documents for v in d.pixel_only_values}
    repairs: list[str] = []
    events = []
    for event in plan.events:
        draft, summary = event.draft, event.summary
        forbidden = [v for v in dict.fromkeys([*event.must_not_contain, *pixel]) if v and v not in event.must_contain]
        for value in forbidden:
            if value in draft or value in summary:
                draft, summary = draft.replace(value, "that figure"), summary.replace(value, "that figure")
                repairs.append(f"{event.id}: replaced {value!r}, which its draft must not contain")
        missing = [m for m in event.must_contain if m not in draft]
        if missing:
            draft = (draft.rstrip() + " (" + ", ".join(missing) + ")").strip()
            repairs.append(f"{event.id}: appended {missing}, which its draft lacked")
        events.append(event if (draft, summary) == (event.draft, event.summary)
                      else event.model_copy(update={"draft": draft, "summary": summary}))
    if not repairs:
        return plan
    provenance = plan.provenance.model_copy(update={"repairs": [*plan.provenance.repairs, *repairs]})
    return plan.model_copy(update={"events": events, "provenance": provenance})
