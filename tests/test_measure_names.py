"""The planner asks about prose measures that are names (`simulation/measure_names.py`): noun phrases
pass; verbs, clauses, lone adjectives and words cut at a line break do not become item columns."""
from __future__ import annotations

import pytest

from mmeb_assets.simulation.measure_names import nameable

NAMES = ["total federal outlays", "investigators", "negotiated performance levels", "children", "accuracy",
         "BLEU", "alcohol-related fatalities", "federal expenditures on CSE", "mini-batch size",
         "selected case agencies", "words per sentence", "building sites"]
NOT_NAMES = [("due", ""), ("closer", ""), ("academic", ""), ("second", ""), ("ultimately paid", ""),
             ("past met", ""), ("contractor paid", ""), ("car priced", ""), ("evaluators took part", ""),
             ("people chose a boy wearing a black coat", ""), ("multiple choices questions con-", ""),
             ("managers overall reported using performance information", ""),
             ("consecutive years", ""), ("fiscal years", ""),
             ("receive", "the state is to receive 4 percent of its collections"),
             ("earn", "ProFac can earn 10 percent of the fee"),
             ("provide facilities management services", "awarded a contract by ORC to provide facilities management services")]


@pytest.mark.parametrize("measure", NAMES)
def test_noun_phrases_are_names(measure):
    assert nameable(measure, f"In 2005 there were 12 {measure} in the programme.")


@pytest.mark.parametrize("measure, sentence", NOT_NAMES)
def test_verbs_clauses_and_lone_adjectives_are_not(measure, sentence):
    assert not nameable(measure, sentence)


def test_a_prose_claim_keeps_only_its_named_measures():
    """claim_values, on a claim with one named and one verb measure, keeps the named column only."""
    from mmeb_assets.schema.source import Claim, Fact, SourceFacts, TextualExtraction
    from mmeb_assets.simulation.items import claim_values

    sentence = "In 2005 OCSE made 450 incentive payments, and each state is to receive 4 percent of collections."
    facts = SourceFacts.model_construct(
        textual=TextualExtraction.model_construct(claims=[Claim.model_construct(text=sentence, label="",
                                                                             value_strings=["450", "4"])]),
        facts=[Fact.model_construct(measure="incentive payments", value="450", unit="count", subject="OCSE",
                                          source=sentence),
               Fact.model_construct(measure="receive", value="4", unit="%", subject="", source=sentence)])
    assert claim_values(facts, 0) == {"incentive payments": "450"}
