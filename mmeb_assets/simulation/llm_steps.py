"""The LLM path of every generating step: prompt -> JSON -> validation -> regeneration (in LLMResource).

Each step's output has the same shape as the rules twin's draft, so assembly, checks and events are shared.
A step whose request fails for good or whose output never validates uses the rules twin's draft
instead; the reason goes into the provenance's `fallbacks`.
"""
from __future__ import annotations

import json

from mmeb_assets.prompts import PROMPT_DIR, load_prompt
from mmeb_assets.provenance import code_version, content_hash, make_provenance
from mmeb_assets.schema.source import SourceFacts
from mmeb_assets.schema.workspace import EventPlan, Organization
from mmeb_assets.simulation import llm_validate as V
from mmeb_assets.simulation.archetype import ArchetypeChoice, select_archetype, validate_archetype
from mmeb_assets.simulation.config import SimulationConfig, to_slot
from mmeb_assets.simulation.drafts import ErrorsDecisionsDraft, EvolvingFactsDraft, OrgDraft, ScheduleDraft
from mmeb_assets.simulation.items import select_rows, source_rows
from mmeb_assets.simulation.names import FIRST_NAMES
from mmeb_assets.simulation.organization import org_from_draft, rules_org_draft
from mmeb_assets.simulation.plan import assemble_invented, assemble_items, build_event_plan_rules, channel_roles
from mmeb_assets.simulation.schedule import Anchors, rules_schedule
from mmeb_resources.llm import LLMError, failure_reason
from mmeb_assets.simulation.terms import terms
from mmeb_assets.simulation.timeline import worktime

STAGE = "simulation"


def shared_rules() -> str:
    return (PROMPT_DIR / "simulation" / "shared_rules.txt").read_text(encoding="utf-8").strip()


def _j(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _when(config: SimulationConfig, dt) -> str:
    day, hhmm = to_slot(config, dt)
    return f"day {day} {hhmm}"


def llm_archetype(facts: SourceFacts, config: SimulationConfig, llm) -> tuple[ArchetypeChoice, str]:
    if config.archetype:
        return select_archetype(facts, config.archetype), ""
    template = load_prompt(STAGE, "archetype")
    t = facts.textual
    res = llm.generate_json(template, {
        "shared_rules": shared_rules(), "title": facts.title, "one_sentence": t.one_sentence,
        "task_summary": t.task_summary, "components": _j(t.components),
        "tables": _j([{"caption": x.caption, "header": x.header} for x in facts.tables])},
        ArchetypeChoice, stage=f"{STAGE}.archetype", validate=validate_archetype)
    return res.value, res.prompt_hash


def llm_organization(facts: SourceFacts, *, random_seed: int, config: SimulationConfig, llm) -> Organization:
    fallbacks: list[str] = []
    try:
        choice, arch_hash = llm_archetype(facts, config, llm)
    except LLMError as exc:
        choice, arch_hash = select_archetype(facts, config.archetype), ""
        fallbacks.append(f"archetype: {failure_reason(exc)}")
    t, tx = terms(choice.archetype), facts.textual
    template = load_prompt(STAGE, "organization")
    variables = {
        "shared_rules": shared_rules(), "org_frame": t["V_org_frame"], "method_name": tx.method_name,
        "one_sentence": tx.one_sentence, "task_summary": tx.task_summary, "components": _j(tx.components),
        "pipeline_steps": _j(tx.pipeline_steps), "days": config.days, "start": config.start.date().isoformat(),
        "last_day": config.days - 1, "deliverable": t["V_deliverable"], "milestone_a_day": config.days - 3,
        "milestone_b_day": config.days - 1, "n_people": config.n_people,
        "avoid_names": ", ".join(FIRST_NAMES[random_seed % 50: random_seed % 50 + 5]),
        "joiner_day": config.late_joiner_day, "joiner_time": "10:00", "system_word": t["V_system_word"]}

    def build(draft: OrgDraft, prov=None) -> Organization:
        return org_from_draft(draft, seed_id=facts.seed_id, archetype=choice.archetype, reason=choice.reason,
                              config=config, provenance=prov or make_provenance(facts.seed_id, STAGE, "check"))

    try:
        res = llm.generate_json(template, variables, OrgDraft, stage=f"{STAGE}.organization",
                                validate=lambda d: V.validate_org_draft(d, build, config))
        draft, org_hash = res.value, res.prompt_hash
    except LLMError as exc:
        draft, org_hash = rules_org_draft(facts, choice.archetype, random_seed=random_seed, config=config), ""
        fallbacks.append(f"organization: {failure_reason(exc)}")
    prov = make_provenance(facts.seed_id, STAGE, llm.generator_name, model=llm.model,
                           prompt_hash=content_hash([arch_hash, org_hash]), code=code_version(STAGE),
                           random_seed=random_seed, inputs={"facts": facts.model_dump(mode="json", exclude={"provenance"}),
                                                            "config": config.model_dump(mode="json")},
                           fallbacks=fallbacks)
    return build(draft, prov)


def _people(org: Organization) -> str:
    return _j([{"id": p.id, "name": p.name, "role": p.role, "voice": p.voice} for p in org.people])


def _channels(org: Organization) -> str:
    return _j({c.id: c.members for c in org.channels})


def _common(facts: SourceFacts, org: Organization, config: SimulationConfig) -> dict:
    t = terms(org.archetype)
    joiner = org.person(org.late_joiner_id)
    return {"shared_rules": shared_rules(), "org_frame": t["V_org_frame"], "company": org.company_name,
            "product": org.product, "internal_model_name": org.internal_model_name,
            "method_name": facts.textual.method_name, "customer": f"{org.customer.name} ({org.customer.contact})",
            "people": _people(org), "channels": _channels(org), "last_day": config.days - 1,
            "joiner": joiner.id, "joined": _when(config, joiner.joined_at), "items": t["V_items"],
            "item": t["V_item"], "item_done": t["V_item_done"], "id_rule": t["V_id_in_text_rule"]}


def llm_schedule(facts, org, config, llm) -> tuple[ScheduleDraft, str]:
    anchors = Anchors.of(org, config)
    rows = select_rows(source_rows(facts, org.archetype), config.max_items * 2)
    variables = _common(facts, org, config) | {
        "milestones": f"{org.milestone_a.name} {_when(config, org.milestone_a.due)}; "
                      f"{org.milestone_b.name} {_when(config, org.milestone_b.due)}",
        "report_v1_day": to_slot(config, worktime(config, anchors.report_v1))[0],
        "rows": _j([{k: r[k] for k in ("table_id", "row_index", "kind", "values")} for r in rows]),
        "config_facts": _j([c.model_dump() for c in facts.textual.config_facts]), "max_items": config.max_items,
        "n_invented": config.n_invented, "id_prefix": "run" if org.archetype == "research_lab" else "ana"}
    res = llm.generate_json(load_prompt(STAGE, "schedule"), variables, ScheduleDraft, stage=f"{STAGE}.schedule",
                            validate=lambda d: V.validate_schedule(d, facts, org, config))
    return res.value, res.prompt_hash


def llm_errors_decisions(facts, org, config, llm, schedule: ScheduleDraft) -> tuple[ErrorsDecisionsDraft, str]:
    anchors = Anchors.of(org, config)
    items, invented = assemble_items(schedule, facts, config), assemble_invented(schedule, config)
    at = lambda f: _when(config, worktime(config, f))
    variables = _common(facts, org, config) | {
        "lead": org.lead_id, "pm": org.pm_id, "report_author": org.report_author_id,
        "runs": _j([{"id": i.id, "kind": i.kind, "label": i.label, "owner": i.owner, "done": _when(config, i.completed_at),
                     "table_id": i.table_id, "values": i.values} for i in items]),
        "invented": _j([{"id": f.id, "name": f.name, "value": f.display, "owner": f.owner, "channel": f.channel,
                         "at": _when(config, f.time)} for f in invented]),
        "report_v1": at(anchors.report_v1), "report_v2": at(anchors.report_v2), "deck_v1": at(anchors.deck_v1),
        "n_errors": config.n_errors, "n_decisions": config.n_decisions}
    res = llm.generate_json(load_prompt(STAGE, "errors_decisions"), variables, ErrorsDecisionsDraft,
                            stage=f"{STAGE}.errors_decisions",
                            validate=lambda d: V.validate_errors_decisions(d, items, invented, org, config, anchors))
    return res.value, res.prompt_hash


def llm_evolving(facts, org, config, llm, schedule: ScheduleDraft, errors: ErrorsDecisionsDraft):
    kinds = ["owner", "deadline", "option", "budget or size", "name", "size or budget"][:config.n_evolving_facts]
    variables = _common(facts, org, config) | {
        "runs": _j([{"id": i.id, "label": i.label} for i in schedule.items]),
        "invented": _j([{"id": f.id, "name": f.name} for f in schedule.invented]),
        "errors": _j([e.wrong_value for e in errors.errors]), "n_facts": config.n_evolving_facts,
        "kinds": ", ".join(kinds)}
    res = llm.generate_json(load_prompt(STAGE, "evolving_facts"), variables, EvolvingFactsDraft,
                            stage=f"{STAGE}.evolving_facts",
                            validate=lambda d: V.validate_evolving(d, org, config, kinds))
    return res.value, res.prompt_hash


def llm_event_plan(facts: SourceFacts, org: Organization, *, random_seed: int, config: SimulationConfig,
                   llm) -> EventPlan:
    """Schedule, errors + decisions, evolving facts: each from the LLM, or the rules twin's draft."""
    fallbacks: list[str] = []
    drafts: dict = {}
    ch = channel_roles(org)
    try:
        schedule, h1 = llm_schedule(facts, org, config, llm)
        drafts["schedule"] = schedule
    except LLMError as exc:
        schedule, h1 = rules_schedule(facts, org, random_seed=random_seed, config=config,
                                      code_channels=(ch["work"], ch["results"])), ""
        fallbacks.append(f"schedule: {failure_reason(exc)}")
    try:
        errs, h2 = llm_errors_decisions(facts, org, config, llm, schedule)
        drafts |= {"errors": errs.errors, "decisions": errs.decisions}
    except LLMError as exc:
        errs, h2 = ErrorsDecisionsDraft(errors=[], decisions=[]), ""
        fallbacks.append(f"errors_decisions: {failure_reason(exc)}")
    try:
        evolving, h3 = llm_evolving(facts, org, config, llm, schedule, errs)
        drafts["evolving"] = evolving.facts
    except LLMError as exc:
        h3 = ""
        fallbacks.append(f"evolving_facts: {failure_reason(exc)}")
    plan = build_event_plan_rules(facts, org, random_seed=random_seed, config=config, drafts=drafts,
                                  generator=llm.generator_name, model=llm.model,
                                  prompt_hash=content_hash([h1, h2, h3]))
    if not fallbacks:
        return plan
    return plan.model_copy(update={"provenance": plan.provenance.model_copy(update={"fallbacks": fallbacks})})
