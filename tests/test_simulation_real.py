"""The simulation on real ingested SourceFacts: demo seeds and the public PDFs in ../shared/seeds."""
from __future__ import annotations

from collections import Counter

import pytest

from mmeb_assets.seedgen.demo_seeds import demo_figure_hints, ensure_seed_pdf
from mmeb_assets.ingestion.document import ingest_pdf
from mmeb_assets.facts.source_facts import extract_source_facts
from mmeb_assets.manifests import load_manifest
from mmeb_assets.simulation import SimulationConfig, build_event_plan, build_organization, derive_random_seed
from mmeb_assets.simulation.checks_content import check_plan
from mmeb_assets.simulation.checks_org import check_organization
from mmeb_resources.llm import LLMResource


def _facts(pdf, out_dir, seed_id, title, domain, hints=None):
    doc = ingest_pdf(pdf, out_dir, seed_id, title=title)
    return extract_source_facts(doc, LLMResource(), domain=domain, figure_hints=hints)


def _simulate_and_check(facts, archetype):
    config = SimulationConfig(archetype=archetype)
    seed = derive_random_seed(facts.seed_id)
    org = build_organization(facts, random_seed=seed, config=config)
    plan = build_event_plan(facts, org, random_seed=seed, config=config)
    assert check_organization(org) == []
    assert {k: v for k, v in check_plan(facts, org, plan).items() if v} == {}
    again = build_event_plan(facts, build_organization(facts, random_seed=seed, config=config), random_seed=seed,
                             config=config)
    assert again.model_dump_json() == plan.model_dump_json()
    slack = sum(1 for e in plan.events if e.where not in ("email", "notion", "meeting", "files"))
    assert 120 <= slack <= 200 and len(plan.events) >= 190
    assert any(len(f.versions) >= 3 for f in plan.evolving_facts)
    assert len({e.kind for e in plan.errors}) >= 3
    return org, plan


@pytest.mark.parametrize("seed_id", ["aurora-retrieval", "harbor-emissions", "lumen-vision"])
def test_demo_seeds(tmp_path, seed_id):
    manifest = load_manifest("demo")
    entry = manifest.seed(seed_id)
    pdf = ensure_seed_pdf(entry, tmp_path / f"{seed_id}.pdf")
    facts = _facts(pdf, tmp_path / seed_id, seed_id, entry.title, entry.domain, demo_figure_hints(seed_id))
    org, plan = _simulate_and_check(facts, entry.archetype)
    assert org.archetype == entry.archetype
    assert {"report", "deck", "notion_tracker", "chart_image", "seed_figure", "run_log"} <= {d.kind for d in plan.documents}


def test_specter(tmp_path, specter_pdf):
    facts = _facts(specter_pdf, tmp_path / "specter", "specter", None, "Scientific document representation")
    org, plan = _simulate_and_check(facts, None)
    assert org.archetype == "research_lab"
    assert Counter(i.kind for i in plan.items)["release"] >= 1


def test_nist(tmp_path, nist_pdf):
    facts = _facts(nist_pdf, tmp_path / "nist", "nist-ai-rmf", None, "AI risk management")
    org, plan = _simulate_and_check(facts, None)
    assert org.archetype == "analysis_firm"
    assert all(len(v) <= 80 for i in plan.items for v in i.values.values())
