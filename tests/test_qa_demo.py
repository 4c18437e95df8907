"""The qa families on the three demo seeds, through the real upstream (ingestion, simulation, records)."""
from __future__ import annotations

from collections import Counter

import pytest

from mmeb_assets.provenance import make_provenance
from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.generate import generate_rule_items, make_context
from mmeb_assets.qa.mix import PAPER_MIX, achieved_mix, select_mix
from mmeb_assets.qa.validation import validate_items
from mmeb_assets.schema import TASKS

DEMO_SEEDS = ("aurora-retrieval", "harbor-emissions", "lumen-vision")
FAMILY_TASK = {
    "extraction.cell": "extraction", "extraction.invented": "extraction", "attribution.result": "attribution",
    "attribution.decision": "attribution", "cross_source.applies": "cross_source_conflict",
    "cross_source.stale": "cross_source_conflict", "temporal.as_of": "temporal_conflict",
    "temporal.before": "temporal_conflict", "temporal.latest": "temporal_conflict",
    "unanswerable.perturbed": "unanswerable",
}


def _upstream(seed: str, folder):
    demo = pytest.importorskip("mmeb_assets.seedgen.demo_seeds")
    document = pytest.importorskip("mmeb_assets.ingestion.document")
    rules_facts = pytest.importorskip("mmeb_assets.facts.source_facts_rules")
    api = pytest.importorskip("mmeb_assets.simulation.api")
    render = pytest.importorskip("mmeb_assets.records.render")
    pdf = demo.write_demo_seed(seed, folder / f"{seed}.pdf")
    doc = document.ingest_pdf(pdf, folder, seed)
    facts = rules_facts.RulesSourceFacts().extract(doc, domain="")
    org = api.build_organization(facts, random_seed=0)
    plan = api.build_event_plan(facts, org, random_seed=0)
    records = render.render_records(facts, org, plan, folder, random_seed=0)
    return ProjectIndex(plan=plan, org=org, records=records)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    out = {}
    for seed in DEMO_SEEDS:
        index = _upstream(seed, tmp_path_factory.mktemp(seed))
        items = generate_rule_items(make_context(index, make_provenance(seed, "qa", "rules")))
        kept, dropped = validate_items(items, index)
        selected, _ = select_mix(kept, PAPER_MIX, 60, seed)
        out[seed] = (index, items, kept, dropped, selected)
    return out


@pytest.mark.parametrize("seed", DEMO_SEEDS)
def test_every_family_on_demo_seed(demo, seed):
    index, items, kept, dropped, selected = demo[seed]
    families = Counter(i.generator.split(":", 1)[1] for i in items)
    for family, task in FAMILY_TASK.items():
        assert families[family] >= 1, f"{seed}: no {family} items ({dict(families)})"
    assert {i.task for i in items} == set(TASKS)
    for task in ("computation", "comparison", "interpretation"):
        assert any(i.task == task for i in items), f"{seed}: no {task}"
    assert len(dropped) <= len(items) // 4, Counter(d.validation.category for d in dropped)


@pytest.mark.parametrize("seed", DEMO_SEEDS)
def test_selected_set_size_mix_and_evidence(demo, seed):
    index, items, kept, dropped, selected = demo[seed]
    assert 40 <= len(selected) <= 70
    assert {i.task for i in selected} == set(TASKS)
    mix = achieved_mix(selected)
    assert 0.55 <= mix["ER"] <= 0.8 and 0.15 <= mix["CR"] <= 0.35 and 0 < mix["UNS"] <= 0.1
    for item in selected:
        if item.answer_status == "answerable":
            assert item.evidence and all(e in index.by_id for e in item.evidence)
        else:
            assert not index.mentions_any(item.derivation.absent_terms)


@pytest.mark.parametrize("seed", DEMO_SEEDS)
def test_temporal_gold_matches_plan_version(demo, seed):
    index, items, *_ = demo[seed]
    facts = {f.id: f for f in index.plan.evolving_facts}
    timed = [i for i in items if i.derivation and i.derivation.kind in ("version_at", "version_before")]
    assert timed
    for item in timed:
        assert item.gold.value == facts[item.derivation.fact_key].value_at(item.derivation.boundary_time).value
    for item in (i for i in items if i.derivation and i.derivation.kind == "version_latest"):
        assert item.gold.value == facts[item.derivation.fact_key].versions[-1].value


@pytest.mark.parametrize("seed", DEMO_SEEDS)
def test_cross_source_gold_is_corrected_value_and_stale_record_shows_old(demo, seed):
    index, items, *_ = demo[seed]
    applies = [i for i in items if i.generator == "rules:cross_source.applies"]
    assert applies
    for item in applies:
        error = index.errors_by_target[item.derivation.fact_key]
        assert item.gold.value == error.correct_value
        stale = index.by_id[item.evidence[0]]
        assert index.shows(stale, error.wrong_value) and not index.shows(stale, error.correct_value)


@pytest.mark.parametrize("seed", DEMO_SEEDS)
def test_question_text_reads_as_a_person_would_write_it(demo, seed):
    import re

    index, items, *_ = demo[seed]
    headers = {col for item in index.plan.items for col in item.values}
    for item in items:
        q = item.q
        assert q[0].isupper() and q[-1] in "?." and "  " not in q, q
        assert not re.search(r"\b(the|a|an) (the|a|an)\b", q, re.I), q
        assert not re.search(r"\ban [b-df-hj-np-tv-z][a-z]", q) and not re.search(r"\ba [aeio][a-z]", q), q
        unquoted = re.sub(r"'[^']*'", "", q)   # titles are quoted as they are
        assert " over time" not in unquoted and "_" not in unquoted, q
        for col in headers:
            first = col.split()[0] if col.split() else ""
            if re.fullmatch(r"[A-Z][a-z]{2,}", first) and len(col.split()) > 1:
                assert f"the {col} " not in q and f"What {col} " not in q, (col, q)
