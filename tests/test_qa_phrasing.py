"""Question templates over varied names: articles, case of metric names, acronyms, plurals, non-ASCII."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mmeb_assets.qa.families.base import cell_phrase, value_question
from mmeb_assets.qa.phrasing import indefinite, metric, source_name, the
from mmeb_assets.schema import PlanItem

ACRONYMS = ["MRR", "nDCG@10", "F1", "BLEU", "PM2.5", "GPU", "AUC", "mAP", "SLA", "R@5"]
WORDS = ["visual", "tokens", "accuracy", "latency", "recall", "throughput", "cost", "queries", "trucks",
         "énergie", "größe", "час", "berths", "images", "unit", "hour", "score"]
UNITS = ["", " (ms)", " (%)", " (GB)", " (t CO₂e)"]


def _word(acronym: bool) -> st.SearchStrategy[str]:
    return st.sampled_from(ACRONYMS) if acronym else st.sampled_from(WORDS)


@st.composite
def headers(draw) -> str:
    words = [draw(_word(draw(st.booleans()))) for _ in range(draw(st.integers(1, 3)))]
    first = words[0]
    if first not in ACRONYMS and draw(st.booleans()):
        words[0] = first[0].upper() + first[1:]   # seeds print headers capitalized ('Visual tokens')
    return " ".join(words) + draw(st.sampled_from(UNITS))


@st.composite
def labels(draw) -> str:
    kind = draw(st.sampled_from(["acronym", "model", "phrase", "article", "series"]))
    if kind == "acronym":
        return draw(st.sampled_from(["SPECTER", "LLaVA-1.5", "R2", "BM25", "GPT-4o", "ÅKE-7B"]))
    if kind == "model":
        return draw(st.sampled_from(["Aurora + pruning", "Full Aurora", "Baseline: Dense bi-encoder", "Lumen-S"]))
    phrase = " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3)))
    phrase = phrase[0].upper() + phrase[1:]
    if kind == "article":
        return "The " + phrase
    return phrase + (" over time" if kind == "series" else "")


def _item(label: str, col: str, dataset: str = "") -> PlanItem:
    return PlanItem(id="run_01", kind="baseline", label=label, values={col: "81.2"}, dataset=dataset,
                    owner="p1", completed_at="2026-03-02T10:00:00")


def _reads_well(q: str) -> None:
    assert q[0].isupper() and q.endswith("?") and "  " not in q, q
    assert not re.search(r"\b(the|a|an) (the|a|an)\b", q, re.I), q
    assert not re.search(r"\bthe The\b|\bover time\b", q), q


@settings(max_examples=150, deadline=None)
@given(headers(), labels(), st.sampled_from(["", "HelpDesk-40K", "ChartBench-S"]))
def test_value_question_reads_as_a_person_would_ask_it(col, label, dataset):
    q = value_question(_item(label, col, dataset), col)
    _reads_well(q)
    shown = metric(col)
    assert f"the {shown} of " in q
    first = col.split()[0]
    if first in ACRONYMS:
        assert shown.startswith(first)   # acronyms keep their case
    elif first[0].isupper():
        assert shown[0].islower()   # 'What value was recorded for the visual tokens ...', not 'What Visual tokens was'
    assert shown.lower() == " ".join(col.split()).lower()   # nothing else changes, non-ASCII kept


@settings(max_examples=150, deadline=None)
@given(labels())
def test_row_labels_get_an_article_unless_they_are_names(label):
    phrase = the(label)
    assert not phrase.lower().startswith(("the the ", "the a ", "the an "))
    assert "over time" not in phrase
    core = re.sub(r"^(the|a|an) ", "", phrase, flags=re.I)
    assert core == re.sub(r"^(the|a|an) ", "", re.sub(r"\s+over time$", "", label), flags=re.I)
    if label in ("SPECTER", "LLaVA-1.5", "R2", "BM25", "GPT-4o", "ÅKE-7B"):
        assert phrase == label


@settings(max_examples=100, deadline=None)
@given(headers(), labels())
def test_cell_phrase_is_a_noun_phrase_after_the(col, label):
    phrase = "the " + cell_phrase(_item(label, col), col)
    _reads_well(phrase[0].upper() + phrase[1:] + "?")


def test_indefinite_article_follows_the_sound():
    cases = {"MRR": "an", "F1 score": "an", "SLA": "an", "GPU": "a", "unit": "a", "hour": "an", "euro": "a",
             "image": "an", "e-mail": "an", "8-bit model": "an", "11,000 queries": "an", "110 queries": "a",
             "Notion page": "a", "élan": "an", "one-off": "a", "UN report": "a", "R2 run": "an"}
    for phrase, article in cases.items():
        assert indefinite(phrase) == f"{article} {phrase}", phrase


def test_source_names_carry_the_right_article():
    names = {s: source_name(s) for s in ("slack", "email", "notion", "meeting", "txt", "log", "pdf_page", "slide",
                                         "image", "widget")}
    assert names["email"] == "an e-mail" and names["image"] == "an image" and names["notion"] == "a Notion page"
    assert names["widget"] == "a widget record"
    assert all("_" not in n for n in names.values())


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.characters(categories=["Lu", "Ll", "Nd"]), min_size=1, max_size=12))
def test_metric_changes_at_most_the_case_of_the_first_letter(word):
    out = metric(word)
    assert out.lower() == word.lower() and out[1:] == word[1:]


def test_questions_name_their_project_once_and_keep_names_cased():
    from mmeb_assets.qa.phrasing import scope_to_project

    scoped = scope_to_project("What value was recorded for the Graduation rate in 2023?", "Kestrel", "Brightwell Labs")
    assert scoped == "For the Kestrel project at Brightwell Labs, what value was recorded for the Graduation rate in 2023?"
    assert scope_to_project("CET1 ratio: which year is highest?", "Kestrel", "Brightwell Labs").endswith(", CET1 ratio: which year is highest?")
    assert scope_to_project("LLaVA-1.5 or BLIP-2: which scores higher?", "K", "B Labs").endswith(", LLaVA-1.5 or BLIP-2: which scores higher?")
    named = "What value did the Kestrel team at Brightwell Labs measure for the index size?"
    assert scope_to_project(named, "Kestrel", "Brightwell Labs") == named   # already names the company
    with_first = scope_to_project("With the correction applied, is it higher?", "Kestrel", "Brightwell Labs")
    assert ", with the correction" in with_first   # issue 27: 'For the ... at ..., With the correction' was a slip
    assert scope_to_project(scoped, "Kestrel", "Brightwell Labs") == scoped  # idempotent


@pytest.mark.parametrize("header,spoken", [
    ("Visual tokens", "visual tokens"),               # a header capitalized only at its start
    ("Source Sents", "Source Sents"),                 # title case stays as printed
    ("Source →Target Coverage", "Source →Target Coverage"),
    ("Number of Questions", "Number of Questions"),
    ("Accuracy on SQuAD", "accuracy on SQuAD"),       # a name after it is no title case
    ("MRR", "MRR"),
])
def test_a_header_reads_mid_sentence_as_printed_unless_only_its_start_is_capital(header, spoken):
    assert metric(header) == spoken


@pytest.mark.parametrize("label,spoken", [("This work", "the 'This work' row"), ("Ours", "the 'Ours' row"),
                                          ("Thistle model", "the Thistle model")])
def test_a_row_that_points_at_the_paper_itself_is_quoted(label, spoken):
    assert the(label) == spoken


def test_a_question_scoped_to_its_project_reads_as_one_sentence():
    from mmeb_assets.qa.phrasing import scope_to_project

    scoped = scope_to_project("A message in #results gives 70 min as the runtime. Which value applies?", "Quiet Fjord",
                              "Loomline AI")
    assert scoped.startswith("For the Quiet Fjord project at Loomline AI, a message in #results")
    assert scope_to_project("SPECTER scored what?", "Quiet Fjord", "Loomline AI").endswith(", SPECTER scored what?")
