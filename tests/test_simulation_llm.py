"""The simulation's LLM path over real HTTP (tests/openai_test_server.py), with one invalid reply per run
that must be regenerated with the validation errors fed back."""
from __future__ import annotations

import json

from mmeb_assets.simulation import SimulationConfig, build_event_plan, build_organization
from mmeb_assets.simulation.archetype import select_archetype
from mmeb_assets.simulation.checks_content import check_plan
from mmeb_assets.simulation.checks_org import check_organization
from mmeb_assets.simulation.config import rng_for
from mmeb_assets.simulation.decisions import rules_decisions
from mmeb_assets.simulation.errors import assemble_errors, rules_errors
from mmeb_assets.simulation.evolving import assemble_evolving, rules_evolving
from mmeb_assets.simulation.organization import rules_org_draft
from mmeb_assets.simulation.plan import assemble_invented, assemble_items, channel_roles
from mmeb_assets.simulation.samples import sample_research_facts
from mmeb_assets.simulation.schedule import Anchors, rules_schedule, source_value_set
from mmeb_resources.llm import LLMResource
from openai_test_server import Fault, OpenAITestServer

SEED = 21


def scripted_replies(facts, config):
    """What a well-behaved model would answer at each step (built from the rules twin's drafts)."""
    choice = select_archetype(facts)
    org_draft = rules_org_draft(facts, choice.archetype, random_seed=SEED, config=config)
    org = build_organization(facts, random_seed=SEED, config=config)
    ch = channel_roles(org)
    schedule = rules_schedule(facts, org, random_seed=SEED, config=config, code_channels=(ch["work"], ch["results"]))
    items, invented = assemble_items(schedule, facts, config), assemble_invented(schedule, config)
    anchors = Anchors.of(org, config)
    err_drafts = rules_errors(org, items, invented, config, anchors, rng_for(SEED, "errors"), ch,
                              source_value_set(facts))
    errors = assemble_errors(err_drafts, items, invented, config)
    evo = rules_evolving(org, config, anchors, rng_for(SEED, "evolving"), ch, facts)
    decisions = rules_decisions(org, items, invented, errors, assemble_evolving(evo, config), config, anchors,
                                rng_for(SEED, "decisions"), ch)
    return {
        "archetype": json.dumps({"archetype": choice.archetype, "reason": "The team runs its own benchmark runs."}),
        "organization": org_draft.model_dump_json(),
        "schedule": schedule.model_dump_json(),
        "errors_decisions": json.dumps({"errors": [e.model_dump() for e in err_drafts],
                                        "decisions": [d.model_dump() for d in decisions]}),
        "evolving_facts": json.dumps({"facts": [f.model_dump() for f in evo]}),
    }


STEP_MARKERS = [("Pick exactly one archetype", "archetype"), ("You design a small fictional company", "organization"),
                ("You schedule one week", "schedule"), ("You script the human slips", "errors_decisions"),
                ("You script facts that drift", "evolving_facts")]


def step_of(payload: dict) -> str:
    text = " ".join(m["content"] for m in payload["messages"])
    return next(step for marker, step in STEP_MARKERS if marker in text)


class Script:
    def __init__(self, replies: dict, broken: dict):
        self.replies, self.broken, self.calls = replies, broken, []

    def __call__(self, payload):
        step = step_of(payload)
        self.calls.append((step, payload["messages"][-1]["content"]))
        if step in self.broken and sum(1 for s, _ in self.calls if s == step) == 1:
            return self.broken[step]
        return self.replies[step]


def _broken_org(replies: dict) -> str:
    draft = json.loads(replies["organization"])
    leads = next(c for c in draft["channels"] if c["id"].endswith("leads"))
    leads["members"].append(draft["late_joiner_id"])          # the junior may not see restricted channels
    return json.dumps(draft)


def _broken_errors(replies: dict) -> str:
    data = json.loads(replies["errors_decisions"])
    data["errors"][0]["noticed"], data["errors"][0]["fixed"] = data["errors"][0]["fixed"], data["errors"][0]["noticed"]
    return json.dumps(data)


def test_llm_path_regenerates_invalid_replies_and_passes_the_checks(mmeb_home):
    facts, config = sample_research_facts(), SimulationConfig()
    replies = scripted_replies(facts, config)
    script = Script(replies, {"organization": _broken_org(replies), "errors_decisions": _broken_errors(replies),
                              "schedule": "this is not JSON at all"})
    with OpenAITestServer(script) as server:
        llm = LLMResource(backend="openai", base_url=server.base_url, model="test-model", use_cache=False)
        org = build_organization(facts, random_seed=SEED, config=config, llm=llm)
        plan = build_event_plan(facts, org, random_seed=SEED, config=config, llm=llm)
    steps = [s for s, _ in script.calls]
    assert steps.count("organization") == 2 and steps.count("errors_decisions") == 2 and steps.count("schedule") == 2
    retry = [c for s, c in script.calls if s == "organization"][1]
    assert "failed validation" in retry and "restricted" in retry
    retry = [c for s, c in script.calls if s == "errors_decisions"][1]
    assert "slipped < noticed < fixed" in retry
    assert org.provenance.generator == "openai:test-model" and org.provenance.prompt_hash
    assert org.archetype_reason == "The team runs its own benchmark runs."
    assert plan.provenance.generator == "openai:test-model"
    assert check_organization(org) == []
    assert {k: v for k, v in check_plan(facts, org, plan).items() if v} == {}
    rules_org = build_organization(facts, random_seed=SEED, config=config)
    rules_plan = build_event_plan(facts, rules_org, random_seed=SEED, config=config)
    assert [e.model_dump() for e in plan.events] == [e.model_dump() for e in rules_plan.events]


def test_llm_path_survives_transient_http_faults_and_gives_up_on_persistent_invalid_output(mmeb_home):
    facts, config = sample_research_facts(), SimulationConfig()
    replies = scripted_replies(facts, config)
    state = {"n": 0}

    def flaky(payload):
        state["n"] += 1
        if state["n"] == 1:
            return Fault(503)
        return replies[step_of(payload)]

    with OpenAITestServer(flaky) as server:
        llm = LLMResource(backend="openai", base_url=server.base_url, model="test-model", use_cache=False)
        org = build_organization(facts, random_seed=SEED, config=config, llm=llm)
    assert check_organization(org) == []
    broken = _broken_org(replies)
    with OpenAITestServer(lambda p: broken if step_of(p) == "organization" else replies[step_of(p)]) as server:
        llm = LLMResource(backend="openai", base_url=server.base_url, model="test-model", max_json_tries=2, use_cache=False)
        org = build_organization(facts, random_seed=SEED, config=config, llm=llm)  # falls back to the rules twin
    assert org.provenance.fallbacks and org.provenance.fallbacks[0].startswith("organization: no valid output")
    assert "restricted" in org.provenance.fallbacks[0]
    rules_org = build_organization(facts, random_seed=SEED, config=config)
    assert [p.model_dump() for p in org.people] == [p.model_dump() for p in rules_org.people]
