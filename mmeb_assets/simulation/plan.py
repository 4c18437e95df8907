"""Orchestrates one project's week: schedule -> errors -> evolving facts -> decisions -> documents -> events."""
from __future__ import annotations

import re

from mmeb_assets.provenance import code_version, make_provenance
from mmeb_assets.schema.source import SourceFacts
from mmeb_assets.schema.workspace import EventPlan, InventedFact, Organization, PlanItem
from mmeb_assets.simulation import chatter, scripted
from mmeb_assets.simulation.conflicts import plan_conflicts
from mmeb_assets.simulation.config import SimulationConfig, rng_for, slot_time
from mmeb_assets.simulation.decisions import assemble_decisions, rules_decisions
from mmeb_assets.simulation.documents import DocumentPlanner
from mmeb_assets.simulation.drafts import ScheduleDraft
from mmeb_assets.simulation.error_repair import repair_errors
from mmeb_assets.simulation.errors import assemble_errors, rules_errors
from mmeb_assets.simulation.events import EventBook
from mmeb_assets.simulation.evolving import assemble_evolving, rules_evolving
from mmeb_assets.simulation.schedule import Anchors, display, rules_schedule, source_value_set
from mmeb_assets.simulation.organization import general_channel, is_leads
from mmeb_assets.simulation.pictures import mark_pictured, mark_pictured_facts
from mmeb_assets.simulation.timeline import worktime


def channel_roles(org: Organization) -> dict[str, str]:
    """Which channel plays which part: results (public), work (restricted), customer prep (restricted)."""
    general = general_channel(org)
    public = [c.id for c in org.channels if c.access == "public" and c.id != general] or [general]
    restricted = [c for c in org.channels if c.access == "restricted" and not is_leads(c.id)]
    work = next((c.id for c in restricted if org.lead_id in c.members and len(c.members) > 3), None)
    customer = next((c.id for c in restricted if c.id != work and org.pm_id in c.members), None)
    leads = next((c.id for c in org.channels if is_leads(c.id)), work or public[0])
    return {"results": public[0], "work": work or leads, "customer": customer or leads, "leads": leads,
            "general": general}


def assemble_items(draft: ScheduleDraft, facts: SourceFacts, config: SimulationConfig) -> list[PlanItem]:
    from mmeb_assets.simulation.items import source_values
    from mmeb_assets.simulation.statement_items import stated_figure
    out = []
    for d in draft.items:
        values = source_values(facts, d.table_id, d.row_index)
        if values is None:
            raise ValueError(f"item {d.id}: table_id={d.table_id!r} row_index={d.row_index} not in source_facts")
        out.append(PlanItem(id=d.id, kind=d.kind, label=d.label, owner=d.owner,
                            completed_at=slot_time(config, d.done.day, d.done.time), dataset=d.dataset,
                            table_id=d.table_id, row_index=d.row_index, values=values,
                            **stated_figure(facts, d.table_id, d.row_index)))
    return sorted(out, key=lambda i: (i.completed_at, i.id))


def with_pending_result(items: list[PlanItem], config: SimulationConfig, anchors: Anchors) -> list[PlanItem]:
    """Report v1 must describe a later result as pending: if a drafted schedule (an LLM's) finishes
    everything before it, its last result lands after the release instead (the twin already does)."""
    v1 = worktime(config, anchors.report_v1)
    if not items or any(i.completed_at > v1 for i in items):
        return items
    moved = items[-1].model_copy(update={"completed_at": worktime(config, anchors.release + 0.02)})
    return items[:-1] + [moved]


def assemble_invented(draft: ScheduleDraft, config: SimulationConfig) -> list[InventedFact]:
    return [InventedFact(id=d.id, name=d.name, value=d.value, unit=d.unit, owner=d.owner, channel=d.channel,
                         time=slot_time(config, d.at.day, d.at.time), rationale=d.rationale,
                         display=display(d.value, d.unit)) for d in draft.invented]


def describe_target(items: list[PlanItem], invented: list[InventedFact]):
    by_item, by_inv = {i.id: i for i in items}, {f.id: f for f in invented}

    def describe(target: str) -> str:
        if target in by_inv:
            return f"the {by_inv[target].name}"
        item_id, _, col = target.partition(":")
        return f"{col} of {by_item[item_id].label}"
    return describe


def page_title_of(items: list[PlanItem], invented: list[InventedFact]):
    """The Notion page a target lives on, so its correction edits that page under the same title:
    the item's results log, or the metric's own operations page (issue 53: one page per topic)."""
    by_item, by_inv = {i.id: i for i in items}, {f.id: f for f in invented}

    def page_title(target: str) -> str:
        if target in by_inv:
            return scripted.ops_title(by_inv[target].name)
        return scripted.log_title(by_item[target.partition(":")[0]].label)
    return page_title


PIXEL_VALUE = re.compile(r"^[\w%$€£+\-]*\d[\w.,%$€£+\-/ ]*$")
COMMON_NUMBER = re.compile(r"^(?:(?:1[89]|20)\d\d|[1-9]\d*00)$")  # a year, or a round axis tick (500, 2000)


def policed_pixel_value(value: str) -> bool:
    """A value that only a figure's pixels may carry: value-like, 3+ characters, and distinctive.
    Years and round ticks ('2000', '500') are said for other reasons everywhere (dates, log steps),
    so an equal string elsewhere is not the figure's fact."""
    value = value.strip()
    return len(value) >= 3 and bool(PIXEL_VALUE.match(value)) and not COMMON_NUMBER.match(value)


def pixel_only(docs, texts: list[str]) -> dict[str, list[str]]:
    """Image-only values that no text of the plan writes; junk strings (e.g. ', 0') are dropped."""
    out = {}
    blob = "\n".join(texts)
    for d in docs:
        cleaned = [v.strip(" ,;:") for v in d.pixel_only_values]
        keep = [v for v in dict.fromkeys(cleaned) if policed_pixel_value(v) and v not in blob]
        d.pixel_only_values = keep
        if keep:
            out[d.id] = keep
    return out


def fill_traffic(book: EventBook, items, errors, channels, config: SimulationConfig, screenshots: int = 0) -> None:
    """Standups, reactions, questions and DMs up to the week's message target; each result or sheet
    screenshot is a record too, so it takes the place of one chatter message (the paper's 200-275)."""
    chatter.standups(book, items, channels["results"])
    target = round(config.slack_events_target * config.days / 7) - screenshots
    room = max(0, target - book.slack_count())
    chatter.reactions(book, items, channels["results"], int(room * 0.45))
    chatter.questions(book, items, errors, channels["results"], int(room * 0.3))
    room = max(0, target - book.slack_count())
    chatter.dms(book, room // 2)


def build_event_plan_rules(facts: SourceFacts, org: Organization, *, random_seed: int, config: SimulationConfig,
                           drafts: dict | None = None, generator: str = "rules", model: str = "",
                           prompt_hash: str = "") -> EventPlan:
    """Assemble the plan; `drafts` carries LLM-made step outputs (schedule, errors_decisions, evolving)."""
    drafts = drafts or {}
    ch = channel_roles(org)
    anchors = Anchors.of(org, config)
    schedule = drafts.get("schedule") or rules_schedule(facts, org, random_seed=random_seed, config=config,
                                                        code_channels=(ch["work"], ch["results"]))
    items, invented = assemble_items(schedule, facts, config), assemble_invented(schedule, config)
    items = with_pending_result(items, config, anchors)
    taken = source_value_set(facts) | {f.display for f in invented}
    if "errors" in drafts:
        error_drafts = drafts["errors"]
    else:
        error_drafts = rules_errors(org, items, invented, config, anchors, rng_for(random_seed, "errors"), ch, taken)
    error_drafts = repair_errors(error_drafts, org, items, invented, config, anchors,
                                 rng_for(random_seed, "errors-repair"), ch, taken)
    errors = assemble_errors(error_drafts, items, invented, config)
    evo_drafts = drafts.get("evolving") or rules_evolving(org, config, anchors, rng_for(random_seed, "evolving"), ch, facts)
    evolving = mark_pictured_facts(assemble_evolving(evo_drafts, config), rng_for(random_seed, "pictured-facts"))
    dec_drafts = drafts.get("decisions") or rules_decisions(org, items, invented, errors, evolving, config, anchors,
                                                            rng_for(random_seed, "decisions"), ch)
    decisions = assemble_decisions(dec_drafts, config)
    items = mark_pictured(items, errors, decisions, rng_for(random_seed, "pictured"))
    docs = DocumentPlanner(facts, org, items, invented, errors, decisions, evolving, config, anchors,
                           rng_for(random_seed, "documents"), ch).build()
    book = EventBook(org, config, rng_for(random_seed, "events"))
    lag = config.notion_lag_hours
    scripted.item_events(book, items, errors, ch, docs, lag)
    scripted.error_events(book, errors, lag, describe_target(items, invented), page_title_of(items, invented))
    scripted.invented_events(book, invented, errors)
    scripted.evolving_events(book, evolving, lag)
    scripted.decision_events(book, decisions)
    chatter.meetings_and_emails(book, anchors, items, docs, evolving, errors)
    fill_traffic(book, items, errors, ch, config,
                 screenshots=sum(d.doc_key.startswith(("result_", "sheet_")) for d in docs))
    texts = [t for p in book.pending for t in (*p.must, p.core, p.summary)]
    texts += [i.label for i in items] + [d.title for d in docs] + [org.project_sentence, org.tagline]
    texts += [v.value for f in evolving for v in f.versions] + [x.body + x.rationale for x in decisions]
    hidden = pixel_only(docs, texts)
    scripted.document_events(book, docs, hidden)
    events = book.finish()
    seed_id = org.seed_id
    return EventPlan(
        seed_id=seed_id,
        provenance=make_provenance(seed_id, "simulation", generator, model=model, prompt_hash=prompt_hash,
                                   code=code_version("simulation"), random_seed=random_seed,
                                   inputs={"facts": facts.model_dump(mode="json", exclude={"provenance"}),
                                           "org": org.model_dump(mode="json", exclude={"provenance"}),
                                           "config": config.model_dump(mode="json")}),
        window_start=org.window_start, window_end=org.window_end, items=items, invented=invented, errors=errors,
        decisions=decisions, evolving_facts=evolving, documents=docs, events=events,
        conflicts=plan_conflicts(errors, evolving, events, docs))
