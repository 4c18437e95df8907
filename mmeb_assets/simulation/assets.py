"""Dagster assets of the simulation stage: `organization` and `event_plan`, per seed project."""

from collections import Counter
from datetime import datetime
from typing import Optional

import dagster as dg

from mmeb_assets.manifests import load_manifest
from mmeb_assets.partitions import seed_partitions_def
from mmeb_assets.provenance import code_version
from mmeb_assets.schema.source import SourceFacts
from mmeb_assets.schema.workspace import EventPlan, Organization
from mmeb_assets.simulation.api import build_event_plan, build_organization
from mmeb_assets.simulation.config import SimulationConfig
from mmeb_assets.simulation.manifest_seeds import project_random_seed
from mmeb_assets.versioning import versioned
from mmeb_resources.llm import LLMResource

STAGE = "simulation"


class SimulationRunConfig(dg.Config):
    """Run config of both assets; empty means the defaults of `SimulationConfig`."""

    random_seed: Optional[int] = None
    start: str = "2026-03-02T09:00"
    days: int = 7
    n_people: int = 6
    n_errors: int = 4
    n_evolving_facts: int = 5
    n_invented: int = 5
    n_decisions: int = 4
    slack_events_target: int = 150
    max_items: int = 16
    late_joiner_day: int = 3
    notion_lag_hours: float = 14.0
    skip_weekends: bool = True

    def to_config(self, archetype: Optional[str] = None) -> SimulationConfig:
        return SimulationConfig(start=datetime.fromisoformat(self.start), days=self.days, n_people=self.n_people,
                                n_errors=self.n_errors, n_evolving_facts=self.n_evolving_facts,
                                n_invented=self.n_invented, n_decisions=self.n_decisions,
                                slack_events_target=self.slack_events_target, max_items=self.max_items,
                                late_joiner_day=self.late_joiner_day, notion_lag_hours=self.notion_lag_hours,
                                skip_weekends=self.skip_weekends, archetype=archetype)


def manifest_archetype(seed_id: str) -> Optional[str]:
    try:
        return load_manifest().seed(seed_id).archetype
    except KeyError:
        return None


def org_markdown(org: Organization) -> str:
    rows = [f"| {p.name} | {p.role} | {p.owns} | {p.voice} | {p.joined_at or ''} |" for p in org.people]
    chans = [f"| #{c.id} | {c.access} | {', '.join(c.members)} | {c.purpose} |" for c in org.channels]
    return (f"**{org.company_name}** ({org.archetype}: {org.archetype_reason})\n\n{org.tagline}. Customer: "
            f"{org.customer.name} ({org.customer.contact}). Codename **{org.project_codename}**, system "
            f"`{org.internal_model_name}`.\n\n| person | role | owns | voice | joined |\n|---|---|---|---|---|\n"
            + "\n".join(rows) + "\n\n| channel | access | members | purpose |\n|---|---|---|---|\n" + "\n".join(chans))


def plan_markdown(plan: EventPlan, limit: int = 25) -> str:
    key = [e for e in plan.events if e.kind not in ("status_update",)][:limit]
    lines = [f"| {e.time:%a %H:%M} | {e.actor} | {e.kind} | {e.where} | {e.summary[:90]} |" for e in key]
    errs = [f"- {e.id} {e.kind}: {e.target} {e.correct_value!r} -> slipped {e.wrong_value!r} by {e.slipped_by} "
            f"{e.slipped_at:%a %H:%M}, noticed {e.noticed_by} in {e.notice_channel} {e.noticed_at:%a %H:%M}, "
            f"fixed {e.fixed_at:%a %H:%M}" for e in plan.errors]
    facts = [f"- {f.id} {f.kind} ({f.subject}): " + " -> ".join(f"{v.value} [{v.time:%a %H:%M}]" for v in f.versions)
             for f in plan.evolving_facts]
    return ("**Errors**\n" + "\n".join(errs) + "\n\n**Evolving facts**\n" + "\n".join(facts)
            + "\n\n**Timeline excerpt**\n\n| time | actor | kind | where | summary |\n|---|---|---|---|---|\n"
            + "\n".join(lines))


@dg.asset(partitions_def=seed_partitions_def, code_version=code_version(STAGE), group_name=STAGE,
          ins={"source_facts": dg.AssetIn("source_facts")},
          description="The project's invented company: archetype and reason, customer, milestones, team, channels, "
                      "late joiner. A manifest entry's `archetype` overrides the choice.")
def organization(context: dg.AssetExecutionContext, config: SimulationRunConfig, source_facts: SourceFacts,
                 llm: LLMResource) -> dg.MaterializeResult[Organization]:
    seed = context.partition_key
    random_seed = project_random_seed(seed, config.random_seed)
    org = build_organization(source_facts, random_seed=random_seed, config=config.to_config(manifest_archetype(seed)),
                             llm=llm)
    return versioned(org, {
        "archetype": org.archetype, "people": len(org.people), "channels": len(org.channels),
        "random_seed": random_seed, "generator": org.provenance.generator,
        "preview": dg.MetadataValue.md(org_markdown(org))})


@dg.asset(partitions_def=seed_partitions_def, code_version=code_version(STAGE), group_name=STAGE,
          ins={"source_facts": dg.AssetIn("source_facts"), "organization": dg.AssetIn("organization")},
          description="The scripted week: items, invented facts, errors, decisions, evolving facts, document "
                      "schedule and every event with actor, time, place and required values.")
def event_plan(context: dg.AssetExecutionContext, config: SimulationRunConfig, source_facts: SourceFacts,
               organization: Organization, llm: LLMResource) -> dg.MaterializeResult[EventPlan]:
    seed = context.partition_key
    random_seed = project_random_seed(seed, config.random_seed)
    base = config.to_config(organization.archetype).model_dump(exclude={"start", "days"})
    sim = SimulationConfig.for_window(organization.window_start, organization.window_end, **base)
    plan = build_event_plan(source_facts, organization, random_seed=random_seed, config=sim, llm=llm)
    kinds = Counter(e.kind for e in plan.events)
    places = Counter("slack" if e.where not in ("email", "notion", "meeting", "files") else e.where for e in plan.events)
    return versioned(plan, {
        "events": len(plan.events), "items": len(plan.items), "errors": len(plan.errors),
        "decisions": len(plan.decisions), "evolving_facts": len(plan.evolving_facts),
        "invented_facts": len(plan.invented), "documents": len(plan.documents), "random_seed": random_seed,
        "events_by_kind": dg.MetadataValue.json(dict(sorted(kinds.items()))),
        "events_by_place": dg.MetadataValue.json(dict(sorted(places.items()))),
        "preview": dg.MetadataValue.md(plan_markdown(plan))})
