"""Figures, abbreviations and quotes of the seed's prose: asked in the document's own words."""
from __future__ import annotations

import random

import pytest

from mmeb_assets.facts.acronyms import expansion_of
from mmeb_assets.facts.quantities import blanked, quantity_statements, topic_of
from mmeb_assets.schema.source import Fact
from mmeb_assets.simulation.errors import misquoted_figure

ASKED = [
    ("Memorized secrets SHALL be at least 8 characters in length if chosen by the subscriber.", "8",
     "memorized secrets SHALL be at least how many characters in length if chosen by the subscriber?", "8 characters"),
    ("The biometric system SHALL allow no more than 5 consecutive failed authentication attempts.", "5",
     "the biometric system SHALL allow no more than how many consecutive failed authentication attempts?",
     "5 consecutive failed authentication attempts"),
    ("In calendar year 2004, FAA employees received an OSI increase of 2.13 percent.", "2.13",
     "in calendar year 2004, FAA employees received an OSI increase of what percent?", "2.13 percent"),
    ("In fiscal year 2005, OCSE made over $450 million in incentive payments to states.", "450",
     "in fiscal year 2005, OCSE made over how much in incentive payments to states?", "$450 million"),
    ("Confirmation codes sent by postal mail SHALL be valid for a maximum of 7 days.", "7",
     "confirmation codes sent by postal mail SHALL be valid for a maximum of how many days?", "7 days"),
    ("States not meeting their performance levels for 1 year must complete a program improvement plan.", "1",
     "states not meeting their performance levels for how many years must complete a program improvement plan?",
     "1 year"),
]

LEFT_OUT = [
    ("The probability is 1.0 for High, 0.5 for Medium, and 0.1 for Low in this matrix.", "0.5"),  # names nothing
    ("As discussed in Section 3.4.2, General Records Schedule (GRS) 24 specifies how records are kept.", "24"),
    ("The top candidate out of the 15 candidates is equivalent to the output of the baseline model.", "15"),
    ("States were guaranteed a payment from 6 to 10 percent of their total collections each year.", "10"),
    ("Revision 2 was published in 2012 after a long period of public comment on the draft.", "2012"),
    ("We ran the model twice; both runs gave 12 errors and 12 warnings in the final log output.", "12"),
    ("Participants were fastest to answer Gists (average 3.34 seconds, σ = 10.99) in the study.", "3.34"),  # an aside
]
NOT_ALONE = [
    "She also notices that it was highly cited with 500 citations, suggesting that it is influential.",  # a scenario
    "“I would have 10 tabs opened about faceted search at the same time when reading papers.”",  # a quote
    "Participants rated this estimation as accurate in 100% of the sessions we observed in the study.",  # 'this' what?
]


@pytest.mark.parametrize("sentence", NOT_ALONE)
def test_a_sentence_that_leans_on_another_is_no_statement(sentence):
    from mmeb_assets.facts.quantities import _stands_alone

    assert not _stands_alone(sentence)
    assert _stands_alone("In this paper we collected 500 citations from 12 venues over two years of work.")


@pytest.mark.parametrize("sentence, value, asked, stated", ASKED)
def test_a_figure_is_asked_in_its_sentence(sentence, value, asked, stated):
    assert blanked(sentence, value) == (asked, stated)


@pytest.mark.parametrize("sentence, value", LEFT_OUT)
def test_a_figure_that_names_nothing_is_left_out(sentence, value):
    assert blanked(sentence, value) is None


def _fact(sentence: str, value: str, page: int = 3) -> Fact:
    return Fact(measure="x", value=value, unit="count", page=page, source=sentence)


def test_statements_skip_sentences_that_point_back_or_illustrate():
    facts = [_fact("This authorization must occur at least every 3 years for each system.", "3"),
             _fact("For example, the organization may not want to spend $1,000 on a control.", "1,000"),
             _fact("Memorized secrets SHALL be at least 8 characters in length if chosen by the subscriber.", "8", 23)]
    found = quantity_statements(facts, first_number=4)
    assert [(s.id, s.kind, s.subject, s.stated, s.page) for s in found] == [
        ("statement_04", "quantity", "memorized secrets", "8 characters", 23)]
    assert found[0].asked.endswith("at least how many characters in length if chosen by the subscriber?")


def test_one_statement_per_topic_and_per_figure():
    facts = [_fact("At AAL2, authentication SHALL be repeated at least once per 12 hours of use.", "12"),
             _fact("At AAL3, authentication SHALL be repeated at least once per 12 hours of use.", "12"),
             _fact("The salt SHALL be at least 32 bits in length and be chosen arbitrarily.", "32")]
    assert [s.stated for s in quantity_statements(facts)] == ["12 hours", "32 bits"]


def test_topic_is_the_subject_before_the_verb():
    assert topic_of("At AAL2, authentication of the subscriber SHALL be repeated once per 12 hours.") == \
        "authentication of the subscriber"
    assert topic_of("If a disk image contains thousands of emails, it may be kept for 180 days.") == ""


@pytest.mark.parametrize("before, acronym, expansion", [
    ("an approved Presentation Attack Detection", "PAD", "Presentation Attack Detection"),
    ("the Computer Security Incident Response Team", "CSIRT", "Computer Security Incident Response Team"),
    ("National Institute of Standards and Technology", "NIST", "National Institute of Standards and Technology"),
    ("using multi-factor authentication", "MFA", "multi-factor authentication"),
    ("as reported by Smith and Jones", "IEEE", ""),
    ("the results in Table", "TR", ""),
    ("System and Services Acquisition", "SA", ""),  # the name runs on before its initials: no one expansion
])
def test_an_abbreviation_is_spelled_by_the_words_before_it(before, acronym, expansion):
    assert expansion_of(before, acronym) == expansion


@pytest.mark.parametrize("stated", ["8 characters", "10,000 iterations", "$450 million", "2.13 percent", "80%",
                                    "1 year", "5 consecutive failed authentication attempts"])
def test_a_misquoted_figure_keeps_its_words_and_changes_its_number(stated):
    for seed in range(5):
        wrong = misquoted_figure(stated, random.Random(seed))
        assert wrong and wrong != stated
        strip = lambda text: "".join(c for c in text if not c.isdigit() and c not in ",.")  # noqa: E731
        assert strip(wrong) == strip(stated)
        if "%" in stated or "percent" in stated:
            assert float(wrong.split("%")[0].split()[0]) <= 100


@pytest.mark.parametrize("stated, value, unit", [
    ("8 characters", "8", "characters"), ("14 million news articles", "14 million", ""),
    ("$450 million", "450 million", ""), ("2.13 percent", "2.13", "percent"), ("80%", "80", "%"),
])
def test_a_stated_figure_gold_is_judged_right_in_its_own_words(stated, value, unit):
    """The gold's value and unit are what the judge compares: its own answer, and the bare figure, pass."""
    from mmeb_assets.judge.llm import judge_rules
    from mmeb_assets.qa.families.extraction import figure_value
    from mmeb_assets.provenance import make_provenance
    from mmeb_assets.schema import Derivation, Gold, QAItem

    assert figure_value(stated) == (value, unit)
    item = QAItem(id="q", project="p", task="extraction", q="... how many characters ...?",
                  answer_status="answerable", gold=Gold(answer=stated, value=value, unit=unit), evidence=["r1"],
                  solution=[], generator="rules:extraction.stated_figure", provenance=make_provenance("p", "qa", "rules"),
                  derivation=Derivation(kind="lookup", operands=[value], result=value))
    assert judge_rules(item, stated).correct
    assert judge_rules(item, value).correct


def _text_document(sentences_by_page: list[str]):
    from mmeb_assets.provenance import make_provenance
    from mmeb_assets.schema.source import PageText, SourceDocument, TextBlock

    pages = [PageText(page=n, text=t, blocks=[TextBlock(page=n, bbox=(50, 80, 500, 160), text=t)])
             for n, t in enumerate(sentences_by_page, start=1)]
    return SourceDocument(seed_id="std", provenance=make_provenance("std", "ingestion", "rules"), title="A standard",
                          path="s.pdf", sha256="0", n_pages=len(pages), pages=pages, tables=[], figures=[],
                          numeric_claims=[])


def test_an_abbreviation_the_document_expands_two_ways_is_not_asked():
    from mmeb_assets.facts.acronyms import acronym_statements

    document = _text_document([
        "The generalized format for expressing the security category (SC) of an information system is given here. "
        "The Federal Information Processing Standards (FIPS) apply to every agency.",
        "System and Communications Protection (SC): organizations must monitor and protect their communications."])
    found = {s.subject: s.stated for s in acronym_statements(document)}
    assert found == {"FIPS": "Federal Information Processing Standards"}
