"""Validation of the plan's documents, evolving facts and decisions."""
from __future__ import annotations

from mmeb_assets.schema.source import SourceFacts
from mmeb_assets.schema.workspace import EventPlan, Organization

POST_KIND = {"notion_tracker": "notion_update", "run_log": "log_written"}


def check_documents(plan: EventPlan) -> list[str]:
    """Report v1 before corrections (wrong values, pending results), v2 after; every document posted;
    Notion trails the Slack corrections; image-only values never written in an event."""
    out: list[str] = []
    docs = {d.id: d for d in plan.documents}
    items = {i.id: i for i in plan.items}
    errors = {e.id: e for e in plan.errors}
    v1, v2 = docs.get("report_v1"), docs.get("report_v2")
    if v1 is None or v2 is None:
        return ["documents: report_v1 and report_v2 are required"]
    if not v1.error_ids_shown_wrong:
        out.append("report_v1 must show at least one wrong value (written before its correction)")
    if not v1.pending_item_ids:
        out.append("report_v1 must describe at least one later result as pending")
    if any(e.fixed_at > v2.time for e in plan.errors) or v2.error_ids_shown_wrong or not v2.reflects_corrections:
        out.append("report_v2 must come after every correction and show none of the wrong values")
    for d in plan.documents:
        for i in d.item_ids:
            if i in items and items[i].completed_at > d.time:
                out.append(f"{d.id}: includes {i} which completes only at {items[i].completed_at}")
        for i in d.pending_item_ids:
            if i in items and items[i].completed_at <= d.time:
                out.append(f"{d.id}: marks {i} pending although it completed at {items[i].completed_at}")
        for x in d.error_ids_shown_wrong:
            if x in errors and errors[x].slipped_at > d.time:
                out.append(f"{d.id}: shows {x} wrong before the slip happened")
        kind = "fact_update" if d.doc_key.startswith("sheet_") else POST_KIND.get(d.kind, "document_posted")
        posts = [e for e in plan.events if e.attachment == d.id and e.kind == kind]
        if not posts:
            out.append(f"{d.id}: no event shares it")
        for e in posts:
            if e.time < d.time:
                out.append(f"{d.id}: shared by {e.id} at {e.time} before it exists ({d.time})")
            leaked = [v for v in d.pixel_only_values if v not in e.must_not_contain]
            if leaked:
                out.append(f"{d.id}: sharing event {e.id} must not contain the image-only values {leaked}")
    out += _pixel_only(plan)
    out += _notion_trails_slack(plan)
    return out


def _pixel_only(plan: EventPlan) -> list[str]:
    pixel = {v for d in plan.documents for v in d.pixel_only_values}
    return [f"{e.id}: must_contain has the image-only value {m!r}" for e in plan.events for m in e.must_contain
            if any(v in m for v in pixel)]


def _notion_trails_slack(plan: EventPlan) -> list[str]:
    """Every error: a Notion update carrying the correct value, later than the Slack correction."""
    out = []
    for err in plan.errors:
        fixes = [e for e in plan.events if e.kind == "notion_update" and err.id in e.refs
                 and err.correct_value in e.must_contain]
        if not fixes or min(e.time for e in fixes) <= err.fixed_at:
            out.append(f"{err.id}: needs a Notion update with {err.correct_value!r} after the Slack correction")
    trackers = sorted((d for d in plan.documents if d.kind == "notion_tracker"), key=lambda d: d.version)
    if not trackers:
        out.append("documents: a Notion tracker is required")
    elif not any(d.error_ids_shown_wrong for d in trackers):
        out.append("tracker: no version keeps a wrong value after its Slack correction (no cross-source conflict)")
    return out


def check_evolving(plan: EventPlan) -> list[str]:
    out = []
    kinds = {f.kind for f in plan.evolving_facts}
    if not plan.evolving_facts:
        return ["evolving facts: none planned"]
    if not any(len(f.versions) >= 3 for f in plan.evolving_facts):
        out.append("evolving facts: at least one needs 3 or more versions")
    for f in plan.evolving_facts:
        if not 2 <= len(f.versions) <= 4:
            out.append(f"fact {f.id}: {len(f.versions)} versions, expected 2-4")
        if f.versions and f.versions[0].cause != "initial":
            out.append(f"fact {f.id}: the first version must be 'initial'")
        for n, v in enumerate(f.versions):
            if f.value_at(v.time) is not v:
                out.append(f"fact {f.id}: version {n} is not recoverable at its own time")
            sheets = {d.id for d in plan.documents if f.pictured and d.doc_key == f"sheet_{f.id}"
                      and v.value in d.values.values()}
            match = [e for e in plan.events if f.id in e.refs and e.time == v.time and e.actor == v.speaker
                     and e.where == v.channel and (v.value in e.must_contain or e.attachment in sheets)]
            if len(match) != 1:
                out.append(f"fact {f.id}: version {n} ({v.value!r}) needs exactly one event, found {len(match)}")
    if len(kinds) < min(len(plan.evolving_facts), 3):
        out.append(f"evolving facts: kinds {sorted(kinds)} are not varied")
    return out


def check_decisions(facts: SourceFacts, org: Organization, plan: EventPlan) -> list[str]:
    out = []
    correct = {v for i in plan.items for v in i.values.values()} | {f.display for f in plan.invented}
    correct |= {v.value for f in plan.evolving_facts for v in f.versions}
    for d in plan.decisions:
        if not d.cites:
            out.append(f"decision {d.id}: cites no value")
        for c in d.cites:
            if c not in correct:
                out.append(f"decision {d.id}: cited value {c!r} is not a planned value")
            if c not in d.body + d.rationale:
                out.append(f"decision {d.id}: cited value {c!r} is not written in body or rationale")
            for err in plan.errors:
                if c == err.correct_value and err.fixed_at > d.time and ":" in err.target and \
                        err.target.split(":")[0] in {i.id for i in plan.items if c in i.values.values()}:
                    out.append(f"decision {d.id}: cites {c!r} before {err.id} is corrected")
        ev = [e for e in plan.events if e.kind == "decision" and d.id in e.refs]
        if len(ev) != 1 or ev[0].time != d.time or ev[0].actor != d.decided_by or ev[0].where != d.channel:
            out.append(f"decision {d.id}: needs exactly one decision event by {d.decided_by} in {d.channel} at {d.time}")
        elif any(c not in ev[0].must_contain for c in d.cites):
            out.append(f"decision {d.id}: its event must contain every cited value")
    return out


def check_drafts(plan: EventPlan) -> list[str]:
    """Every event's draft writes its must_contain values verbatim; no draft or summary writes a value
    it must not contain, nor any image-only value."""
    out = []
    pixel = {v for d in plan.documents for v in d.pixel_only_values}
    for e in plan.events:
        if not e.draft.strip():
            out.append(f"{e.id}: empty draft")
        missing = [m for m in e.must_contain if m not in e.draft]
        if missing:
            out.append(f"{e.id}: draft lacks {missing}")
        for text, name in ((e.draft, "draft"), (e.summary, "summary")):
            leaked = [v for v in [*e.must_not_contain, *pixel] if v and v in text]
            if leaked:
                out.append(f"{e.id}: {name} writes {leaked}, which it must not contain")
    return out


def check_plan(facts: SourceFacts, org: Organization, plan: EventPlan) -> dict[str, list[str]]:
    from mmeb_assets.simulation.checks_plan import check_access, check_errors, check_order, check_references
    return {
        "references": check_references(facts, org, plan),
        "order": check_order(org, plan),
        "errors": check_errors(plan),
        "access": check_access(org, plan),
        "documents": check_documents(plan),
        "evolving": check_evolving(plan),
        "decisions": check_decisions(facts, org, plan),
        "drafts": check_drafts(plan),
    }
