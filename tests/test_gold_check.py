"""The build's own golds: judged right by the rules judge, their value printed in the answer (issue 38)."""
from mmeb_assets.judge.llm import judge_rules
from mmeb_assets.qa.checks import find_gold_problems
from mmeb_assets.qa.families.facts import _without_unit
from mmeb_assets.schema.qa import Derivation, Gold, QAItem
from test_evaluation_fixtures import PROV


def _item(q: str, answer: str, value: str, task: str = "comparison", **derivation) -> QAItem:
    return QAItem(id="g1", project="demo", task=task, q=q, answer_status="answerable",
                  gold=Gold(answer=answer, value=value), generator="rules:test", provenance=PROV,
                  derivation=Derivation(**derivation) if derivation else None)


def test_a_currency_amount_keeps_its_thousands():
    assert _without_unit("EUR 45,500", "EUR") == "45,500"
    assert _without_unit("3,350 respondents", "respondents") == "3,350"


def test_a_gold_value_cut_at_its_comma_is_found():
    cut = _item("What was the highest value the fieldwork budget took during the week?",
                "EUR 45,500 (stated on Wed Mar 4 at 11:54)", "EUR 45,", kind="rank")
    whole = cut.model_copy(update={"gold": Gold(answer=cut.gold.answer, value="45,500", unit="EUR")})
    assert find_gold_problems([cut]) and not find_gold_problems([whole])


def test_members_and_signed_differences_are_read_as_the_answer_writes_them():
    roles = _item("Who flagged it, and who posted the correction?", "Ana Ruiz flagged it; Ben Ode posted the correction",
                  "Ana Ruiz; Ben Ode", task="attribution")
    lower = _item("How much higher or lower is the BLEU of A than that of B?", "3 lower (51 vs 54)", "-3",
                  task="computation", kind="difference")
    assert find_gold_problems([roles, lower]) == []


def test_an_option_named_inside_the_other_is_told_apart():
    item = _item("Which has the higher responses: the Agree Strongly or the Agree, and by how much?",
                 "Agree: 44 vs 25 (by 19)", "Agree", kind="rank")
    assert judge_rules(item, "Agree: 44 vs 25 (by 19)").correct
    assert not judge_rules(item, "Agree Strongly, by 19").correct
