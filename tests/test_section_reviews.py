"""Documents with few facts: small projects built on reviews of their own sections, never on non-facts.

A framework or questionnaire prints one measured quantity or none. Its week is built on the facts it
has plus reviews of its numbered sections, whose values are the team's own (drawn from the seed id,
never a number printed in the document); a document with neither is refused in one line.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mmeb_assets.facts.attach import attach_facts
from mmeb_assets.facts.sections import document_sections
from mmeb_assets.facts.source_facts_rules import RulesSourceFacts
from mmeb_assets.provenance import make_provenance
from mmeb_assets.schema.source import PageText, SourceDocument, TextBlock
from mmeb_assets.simulation import SeedRefused, build_event_plan, build_organization, refusal_reason
from mmeb_assets.simulation.checks_content import check_plan
from mmeb_assets.simulation.reviews import REVIEW_TABLE, review_table

TITLES = ["AI system record", "Risk assessment", "Data management", "Bias mitigation", "Issue reporting",
          "Third party communication", "Govern", "Map", "Measure", "Manage", "Human-AI Configuration"]
NOISE = ["Do you keep a record of the AI systems your organisation uses? a. Yes b. No",
         "Published November 2024 under reference 14110 at 1401 Constitution Avenue.",
         "See section 4.2 and Table 3 for the questions that follow."]


def _document(blocks_per_page: list[list[str]], title: str = "Guidance under test") -> SourceDocument:
    pages = []
    for number, texts in enumerate(blocks_per_page, start=1):
        blocks = [TextBlock(page=number, bbox=(50, 80 + 60 * i, 500, 120 + 60 * i), text=t) for i, t in enumerate(texts)]
        blocks.append(TextBlock(page=number, bbox=(280, 780, 300, 792), text=str(number)))
        pages.append(PageText(page=number, text="\n".join(b.text for b in blocks), blocks=blocks))
    return SourceDocument(seed_id="guidance", provenance=make_provenance("guidance", "ingestion", "rules"),
                          title=title, path="g.pdf", sha256="0", n_pages=len(pages), pages=pages, tables=[],
                          figures=[], numeric_claims=[])


def _facts(doc: SourceDocument):
    return attach_facts(RulesSourceFacts().extract(doc, domain=""), doc)


def test_numbered_titles_are_read_on_one_or_two_lines_and_list_items_are_not():
    doc = _document([["1. AI system record", NOISE[0]], ["2\nRisk assessment", "1. Yes"],
                     ["3.1 Govern", "4. These strategies are", NOISE[1]], ["5.2\nMap\nmore text here", NOISE[2]]])
    assert document_sections(doc) == ["AI system record", "Risk assessment", "Govern"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(titles=st.lists(st.sampled_from(TITLES), min_size=0, max_size=9, unique=True),
       noise=st.lists(st.sampled_from(NOISE), min_size=1, max_size=3),
       measured=st.lists(st.integers(8, 46), min_size=0, max_size=2, unique=True))
def test_a_document_with_few_facts_builds_on_its_sections_or_is_refused(titles, noise, measured):
    said = [f"The survey reached {v} percent of managers in the {s} sector." for v, s in zip(measured, ("retail", "energy"))]
    pages = [[f"{n}. {t}", *noise] for n, t in enumerate(titles, start=1)] or [list(noise)]
    pages[0] += said
    facts = _facts(_document(pages))
    assert {f.value for f in facts.facts} == {str(v) for v in measured}
    if not titles and not measured:
        reason = refusal_reason(facts)
        assert reason and "'Guidance under test'" in reason and "0 numbered section title(s)" in reason
        with pytest.raises(SeedRefused) as caught:
            build_organization(facts, random_seed=3)
        assert "\n" not in str(caught.value)
        return
    table = review_table(facts)
    values = [v for row in table for v in row.values()]
    assert len(values) == len(set(values)), "a review value repeats within the project"
    assert not set(values) & {str(v) for v in measured}, "a review value equals a fact of the document"
    org = build_organization(facts, random_seed=3)
    plan = build_event_plan(facts, org, random_seed=3)
    assert {k: v for k, v in check_plan(facts, org, plan).items() if v} == {}
    reviewed = [i for i in plan.items if i.table_id == REVIEW_TABLE]
    # reviews are the last resort: a document that states a figure ('8 percent of managers') is asked about it
    assert bool(reviewed) == (bool(titles) and not facts.statements)
    assert all(i.label.endswith(" review") and i.label[:-7] in titles for i in reviewed)
    assert all(i.values == table[i.row_index] for i in reviewed)


def test_reviews_are_drawn_per_seed_and_only_when_facts_are_few():
    pages = [[f"{n}. {t}"] for n, t in enumerate(TITLES[:6], start=1)]
    one, two = _facts(_document(pages)), _facts(_document(pages))
    assert review_table(one) == review_table(two)
    other = one.model_copy(update={"seed_id": "another-guidance"})
    assert review_table(other) != review_table(one)
    rich = _facts(_document(pages + [[f"The survey reached {v} percent of {who} in the sector."] for v, who in
                                     zip((41, 52, 63, 74, 85), ("managers", "analysts", "auditors", "engineers",
                                                                "clerks"))]))
    assert len(rich.facts) == 5
    org = build_organization(rich, random_seed=1)
    plan = build_event_plan(rich, org, random_seed=1)
    assert plan.items and not any(i.table_id == REVIEW_TABLE for i in plan.items)
