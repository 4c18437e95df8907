"""Issue 27 item 5: no template slips. Every question family is rendered over generated projects and
each question is read for doubled words, unfilled slots, wrong articles and 'value values' stutter
(a doubled word the seed's own label carries is allowed). The detector is shown to catch each slip,
and a planted template bug (the old 'recorded {metric} values' wording) is caught."""
from __future__ import annotations

import pytest

from generated_projects import rendered_projects
from mmeb_assets.qa.slips import project_names, template_slips

RENDERED = 3


def slips_in(projects) -> list[tuple[str, str, str]]:
    out = []
    for p in projects:
        names = project_names(p.plan, p.org)
        for item in p.items:
            out += [(kind, snippet, item.q) for kind, snippet in template_slips(item.q, names)]
    return out


def test_every_family_renders_without_slips():
    projects = rendered_projects(RENDERED)
    families = {i.generator for p in projects for i in p.items}
    assert len(families) >= 15, sorted(families)
    assert slips_in(projects) == []


@pytest.mark.parametrize("question, kind", [
    ("What value was recorded for the the F1 of BM25?", "doubled word"),
    ("Do the recorded value values support the claim?", "stutter"),
    ("Who owns the {subject} now?", "unfilled slot"),
    ("What was the value for None in 2023?", "unfilled slot"),
    ("Is a MRR of 41.3 above an baseline?", "wrong article"),
    ("Which is higher , the F1 or the EM?", "unfilled slot"),
    ("For the Kestrel project at Brightwell Labs, With the correction applied, is it higher?", "capitalized mid-sentence"),
])
def test_the_detector_catches_each_slip(question, kind):
    assert kind in {k for k, _ in template_slips(question)}


def test_clean_questions_and_quoted_labels_pass():
    assert template_slips("What value was recorded for an MRR of the 'w/o reranker' variant in a 2023 run?") == []
    assert template_slips("How far is Walla Walla from the depot?", ["Walla Walla depot"]) == []
    assert template_slips("Is an 8-bit model a unit of an hour?") == []


def test_a_planted_template_bug_is_caught(monkeypatch):
    """The planted bug: row phrases built with a doubled article ('the the dense baseline')."""
    from mmeb_assets.provenance import make_provenance
    from mmeb_assets.qa.evidence import ProjectIndex
    from mmeb_assets.qa.families import base
    from mmeb_assets.qa.generate import generate_rule_items, make_context
    monkeypatch.setattr(base, "the", lambda label: f"the the {label}")
    p = rendered_projects(RENDERED)[0]
    items = generate_rule_items(make_context(ProjectIndex(plan=p.plan, org=p.org, records=p.records),
                                             make_provenance(p.org.seed_id, "qa", "rules")))
    found = slips_in([type(p)(p.seed, p.facts, p.org, p.plan, p.records, items)])
    assert {kind for kind, _, _ in found} == {"doubled word"}


@pytest.mark.heavy
def test_100_projects_render_without_slips():
    assert slips_in(rendered_projects(100)) == []
