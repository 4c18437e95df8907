"""Issue 27 item 2: results shared only as a table screenshot, so the answer needs the image.

A share of each week's items is posted as a screenshot: no text record (Slack, Notion, tracker, evidence
table, meeting notes, logs) types their values, the screenshot's pixels carry them, and the questions
about them cite images. Items whose values text must restate (the release, error targets, values a
decision cites) stay typed. Each property also runs against a planted defect to show it fails.
"""
from __future__ import annotations

import re

import pytest

from generated_projects import planned_projects, rendered_projects
from mmeb_assets.records.content import IN_SCREENSHOT
from mmeb_assets.records.headers import contains_value

N_PLANNED = 40
N_RENDERED = 3


def distinctive(value: str) -> bool:
    """A value no text says by chance: 3+ characters with a digit, not a year-like round number."""
    return len(value) >= 3 and bool(re.search(r"\d", value)) and not re.fullmatch(r"(19|20)\d\d|\d+0{2,}", value)


def only_pictured(plan) -> set[str]:
    """Distinctive values of pictured items that nothing typed also holds (two items may share '95.5')."""
    typed = {v for i in plan.items if not i.pictured for v in i.values.values()}
    typed |= {f.value for f in plan.invented} | {f.display for f in plan.invented}
    typed |= {e.wrong_value for e in plan.errors} | {e.correct_value for e in plan.errors}
    typed |= {v.value for f in plan.evolving_facts for v in f.versions} | {c for d in plan.decisions for c in d.cites}
    return {v for i in plan.items if i.pictured for v in i.values.values()
            if distinctive(v) and not any(contains_value(t, v) for t in typed)}


def test_a_share_of_items_is_pictured_and_never_one_text_must_restate():
    projects = planned_projects(N_PLANNED)
    pictured = [i for p in projects for i in p.plan.items if i.pictured]
    assert len(pictured) >= 0.3 * sum(len(p.plan.items) for p in projects)
    for p in projects:
        targets = {e.target.split(":")[0] for e in p.plan.errors}
        cited = {c for d in p.plan.decisions for c in d.cites}
        shots = {d.item_ids[0]: d for d in p.plan.documents if d.doc_key.startswith("result_")}
        for item in p.plan.items:
            if not item.pictured:
                assert item.id not in shots
                continue
            assert item.kind != "release" and item.id not in targets and not cited & set(item.values.values())
            # a stated figure is shared as the snipped passage, a result as its table; definitions stay typed
            assert shots[item.id].kind == ("excerpt_image" if item.kind == "statement" else "table_image")
            assert item.kind != "statement" or item.asked
            assert shots[item.id].time >= item.completed_at


def test_no_event_of_the_plan_types_a_pictured_value():
    for p in planned_projects(N_PLANNED):
        values = only_pictured(p.plan)
        for event in p.plan.events:
            written = [v for v in values if contains_value(event.draft, v) or v in event.must_contain]
            assert not written, (p.org.seed_id, event.id, written, event.draft)


@pytest.fixture(scope="module")
def rendered():
    return rendered_projects(N_RENDERED)


def pictured_leaks(project) -> list[str]:
    """(record, value) for every text record that types a pictured value, and pictured values that
    no image record draws."""
    values = only_pictured(project.plan)
    out = [f"{r.id}: {v}" for r in project.records.records if r.modality == "text"
           for v in values if contains_value(r.text, v)]
    drawn = " ".join(r.pixel_text for r in project.records.records if r.modality == "visual")
    out += [f"not drawn: {v}" for v in values if not contains_value(drawn, v)]
    return out


def test_pictured_values_live_only_in_images(rendered):
    assert any(i.pictured for p in rendered for i in p.plan.items)
    for p in rendered:
        assert pictured_leaks(p) == [], p.org.seed_id
    pointers = [r for p in rendered for r in p.records.records if r.source == "notion" and IN_SCREENSHOT in r.text]
    assert pointers, "the Notion pages show where the figures are"


def test_questions_about_pictured_items_cite_an_image(rendered):
    for p in rendered:
        pictured = {i.id for i in p.plan.items if i.pictured}
        asked = [q for q in p.items if q.task == "extraction" and q.derivation.fact_key
                 and q.derivation.fact_key.split(":")[0] in pictured]
        assert asked, p.org.seed_id
        records = p.records.by_id()
        assert all(any(records[e].modality == "visual" for e in q.evidence) for q in asked), \
            [(q.q, q.evidence) for q in asked]


def test_renderers_that_ignore_the_flag_are_caught(rendered, tmp_path):
    """The planted defect: the text renderers (tracker, evidence table, meeting notes) type every value
    again, as before issue 27; the events stay as planned."""
    from mmeb_assets.records.render import render_records

    p = max(rendered, key=lambda q: sum(i.pictured for i in q.plan.items))
    unflagged = p.plan.model_copy(update={"items": [i.model_copy(update={"pictured": False}) for i in p.plan.items]})
    records = render_records(p.facts, p.org, unflagged, tmp_path / "planted", random_seed=p.seed)
    leaked = type(p)(p.seed, p.facts, p.org, p.plan, records, [])
    assert any(not line.startswith("not drawn") for line in pictured_leaks(leaked))


def test_drifting_facts_shared_as_sheet_screenshots(rendered):
    """Each value of a pictured fact (a budget or size, and a format or title when one drifts): its message
    attaches the sheet and does not type the value; the sheet's image draws it; questions on the
    fact's history cite those images."""
    for p in rendered:
        pictured = [f for f in p.plan.evolving_facts if f.pictured]
        kinds = sorted(f.kind for f in pictured)
        assert sum(k in ("budget", "size") for k in kinds) == 1 and len(pictured) <= 2, (p.org.seed_id, kinds)
        assert all(k in ("budget", "size", "option", "name") for k in kinds)
        for fact in pictured:
            _check_sheets(p, fact)


def _check_sheets(p, fact) -> None:
    records = p.records.records
    for n, version in enumerate(fact.versions):
        event = next(e for e in p.plan.events if fact.id in e.refs and e.kind == "fact_update"
                     and e.time == version.time)
        assert event.attachment == f"sheet_{fact.id}_v{n + 1}" and version.value not in event.draft
        shots = [r for r in records if r.doc_id == event.attachment and r.modality == "visual"]
        assert shots and contains_value(shots[0].pixel_text, version.value)
        assert not contains_value(shots[0].text, version.value)
    history = [q for q in p.items if q.derivation.fact_key == fact.id and q.task == "temporal_conflict"]
    by_id = p.records.by_id()
    assert all(any(by_id[e].modality == "visual" for e in q.evidence) for q in history), \
        [(q.q, q.evidence) for q in history]


def test_a_pictured_row_forbids_only_its_distinctive_values_to_text():
    """A row's unit ('minutes', 't', '%') or a year cell is said everywhere for other reasons ('30 minutes
    later', a 2026 date); forbidding it to every text record failed whole seeds of the scale build
    ('must-not-contain value 'minutes' written in stored text'). Only value-like, distinctive cells are
    forbidden; the renderers still leave all of a pictured row's cells out."""
    from mmeb_assets.simulation import build_event_plan, build_organization
    from mmeb_assets.simulation.plan import policed_pixel_value
    from mmeb_assets.simulation.samples import sample_analysis_facts

    facts = sample_analysis_facts("unit-rows")
    for table in facts.tables:
        if "Unit" in table.header:
            table.rows = [[r[0], "minutes", *r[2:]] for r in table.rows]
    seen = 0
    for seed in range(6):
        org = build_organization(facts, random_seed=seed)
        plan = build_event_plan(facts, org, random_seed=seed)
        pictured = {i.id for i in plan.items if i.pictured}
        for event in plan.events:
            if event.kind == "result_posted" and set(event.refs) & pictured:
                assert all(policed_pixel_value(v) for v in event.must_not_contain), event.must_not_contain
                seen += 1
    assert seen
