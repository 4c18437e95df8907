"""Public entry points: `build_organization` and `build_event_plan` (rules twin, or LLM when online)."""
from __future__ import annotations

from mmeb_assets.provenance import code_version, make_provenance
from mmeb_assets.schema.source import SourceFacts
from mmeb_assets.schema.workspace import EventPlan, Organization
from mmeb_assets.simulation.archetype import select_archetype
from mmeb_assets.simulation.config import SimulationConfig
from mmeb_assets.simulation.organization import org_from_draft, rules_org_draft
from mmeb_assets.simulation.plan import build_event_plan_rules
from mmeb_assets.simulation.refusal import SeedRefused, require_plannable

__all__ = ["build_organization", "build_event_plan", "SeedRefused"]


def build_organization(facts: SourceFacts, *, random_seed: int, config: SimulationConfig | None = None,
                       llm=None) -> Organization:
    """The project's company, team and channels. `config.archetype` (e.g. from the manifest) overrides.
    Raises `SeedRefused` (one line: seed and what it lacks) before drafting anything for unusable facts."""
    require_plannable(facts)
    config = config or SimulationConfig()
    if llm is not None and not llm.offline:
        from mmeb_assets.simulation.llm_steps import llm_organization
        return llm_organization(facts, random_seed=random_seed, config=config, llm=llm)
    choice = select_archetype(facts, config.archetype)
    draft = rules_org_draft(facts, choice.archetype, random_seed=random_seed, config=config)
    prov = make_provenance(facts.seed_id, "simulation", "rules", code=code_version("simulation"),
                           random_seed=random_seed, inputs={"facts": facts.model_dump(mode="json", exclude={"provenance"}),
                                                            "config": config.model_dump(mode="json")})
    return org_from_draft(draft, seed_id=facts.seed_id, archetype=choice.archetype, reason=choice.reason,
                          config=config, provenance=prov)


def build_event_plan(facts: SourceFacts, org: Organization, *, random_seed: int,
                     config: SimulationConfig | None = None, llm=None) -> EventPlan:
    """The scripted week. Same seed + config => byte-identical JSON. Raises `SeedRefused` up front for
    source facts without a number to plan on."""
    require_plannable(facts)
    config = config or SimulationConfig()
    from mmeb_assets.simulation.draft_repair import repair_drafts
    if llm is not None and not llm.offline:
        from mmeb_assets.simulation.llm_steps import llm_event_plan
        return repair_drafts(llm_event_plan(facts, org, random_seed=random_seed, config=config, llm=llm))
    return repair_drafts(build_event_plan_rules(facts, org, random_seed=random_seed, config=config))
