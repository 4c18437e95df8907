"""The qa stage on the two real seed PDFs (../shared/seeds): every task type, nothing dropped wrongly."""
from __future__ import annotations

from collections import Counter

import pytest

from mmeb_assets.provenance import make_provenance
from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.generate import generate_rule_items, make_context
from mmeb_assets.qa.mix import PAPER_MIX, select_mix
from mmeb_assets.qa.validation import validate_items
from mmeb_assets.schema import TASKS


def _project(pdf, seed, folder) -> ProjectIndex:
    document = pytest.importorskip("mmeb_assets.ingestion.document")
    rules_facts = pytest.importorskip("mmeb_assets.facts.source_facts_rules")
    api = pytest.importorskip("mmeb_assets.simulation.api")
    render = pytest.importorskip("mmeb_assets.records.render")
    doc = document.ingest_pdf(pdf, folder, seed)
    facts = rules_facts.RulesSourceFacts().extract(doc, domain="")
    org = api.build_organization(facts, random_seed=0)
    plan = api.build_event_plan(facts, org, random_seed=0)
    return ProjectIndex(plan=plan, org=org, records=render.render_records(facts, org, plan, folder, random_seed=0))


@pytest.mark.parametrize("which", ["specter", "nist"])
def test_real_seed_covers_every_task(which, request, tmp_path):
    pdf = request.getfixturevalue(f"{which}_pdf")
    index = _project(pdf, which, tmp_path)
    items = generate_rule_items(make_context(index, make_provenance(which, "qa", "rules")))
    kept, dropped = validate_items(items, index)
    selected, _ = select_mix(kept, PAPER_MIX, 60, which)
    assert {i.task for i in selected} == set(TASKS), Counter(i.task for i in selected)
    assert 40 <= len(selected) <= 70
    assert len(dropped) <= len(items) // 4, Counter(d.validation.category for d in dropped)
