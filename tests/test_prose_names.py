"""Prose without junk: a stated figure named by its whole clause, never a fragment cut mid-phrase; no
section named after a sentence adverb; no heading run into the sentence a figure is asked from."""
from __future__ import annotations
import pytest

from mmeb_assets.facts.quantities import _stands_alone
from mmeb_assets.facts.sections import _title
from mmeb_assets.simulation.statement_items import figure_clause


def test_a_short_sentence_is_quoted_whole_with_its_figure_left_out():
    assert figure_clause("The Twitter feed is updated on a regular basis for its approximately 4,000 followers.",
                         "4,000 followers", "4,000") == \
        "The Twitter feed is updated on a regular basis for its approximately … followers"


def test_a_long_sentence_gives_the_clause_that_holds_the_figure():
    sentence = ("Nondefense energy R&D spending fell from about 10 percent in the late 1970s to about 2 percent "
                "in 2005, and the decline was steepest in the years after the oil price collapse of the mid 1980s "
                "when budgets were cut.")
    clause = figure_clause(sentence, "10 percent", "10")
    assert clause == "Nondefense energy R&D spending fell from about … percent in the late 1970s to about 2 percent in 2005"
    assert not clause.endswith(("the late", "in the", "of the"))


def test_sentence_adverbs_and_running_text_are_no_section_titles():
    assert _title("3 Specifically") == "" and _title("2 Specifically, we review the") == ""
    assert _title("4 Similarly") == "" and _title("1 However") == ""
    assert _title("4.1 Data collection") == "Data collection" and _title("2 Family") == "Family"


def test_a_heading_run_into_a_sentence_is_not_asked():
    assert not _stands_alone("Retirement Services With responsibility for administering the Federal Retirement "
                             "Program, OPM covers more than 7.2 million active employees.")
    assert _stands_alone("In FY 2014 the agency hired 300 staff members across the country.")


def test_a_bounded_figure_is_not_misquoted_into_a_claim_it_entails():
    from mmeb_assets.qa.families.stated import BOUND_BEFORE

    assert BOUND_BEFORE.search("We collect more than ")  # '... more than 100 dialogues': '98' would be entailed
    assert not BOUND_BEFORE.search("The agency hired ")


def test_a_titles_question_mark_is_no_part_of_the_works_name():
    from mmeb_assets.simulation.seed_work import short_title

    assert short_title("Can Language Models Follow Multiple Turns of Entangled Instructions?") == "Entangled Instructions"


def test_a_table_head_read_into_a_sentence_and_a_propositions_number_are_not_asked():
    from mmeb_assets.facts.quantities import blanked

    assert not _stands_alone("Description Type Status Start Date End Date Percentage Increase port capacity "
                             "throughput availability by 10 percent by 2026.")
    assert _stands_alone("The National Highway Traffic Safety Administration reported 36,000 deaths in 2021.")
    assert blanked("The allocation is efficient whenever proposition 1 holds for both countries.", "1") is None
    assert blanked("The agency hired 300 staff members across the country.", "300") is not None


@pytest.mark.parametrize("printed, read", [
    ("Description Type Status Start Date End Date Percentage Increase port capacity throughput availability by "
     "10 percent by 2026.", "Increase port capacity throughput availability by 10 percent by 2026."),
    ("Levels Increase transit ridership in the top transit cities back to 100% of 2019 levels by 2026.",
     "Increase transit ridership in the top transit cities back to 100% of 2019 levels by 2026."),
    ("Million VMT By September 30, 2023, the Department will reduce the rate of fatalities to 1.22.",
     "By September 30, 2023, the Department will reduce the rate of fatalities to 1.22."),
    ("Description Type Start Date End Date MMTCO2e By 2026, cut emissions by 40 percent.",
     "By 2026, cut emissions by 40 percent."),
    ("Description Type Start Date End Date Target [To be determined] Actual", ""),   # a header row, nothing else
    ("A Complete Recipe for stochastic gradient MCMC was given in 2015.",            # prose, as printed
     "A Complete Recipe for stochastic gradient MCMC was given in 2015."),
    ("Hypothetical Interest Rate Increase Potential Impact 2025 2024",               # a head, not a goal
     "Hypothetical Interest Rate Increase Potential Impact 2025 2024"),
    ("The Department will increase grants by 5% by 2025.", "The Department will increase grants by 5% by 2025."),
])
def test_table_heads_read_into_a_sentences_start_are_taken_off(printed, read):
    from mmeb_assets.facts.misreads import without_table_head

    assert without_table_head(printed) == read


def test_a_long_sentence_is_quoted_by_its_figures_clause_without_its_connective():
    sentence = ("Additionally, traffic congestion costs the U.S. economy over $160 billion per year, as motorists "
                "lose more than $1,000 every year in wasted time and fuel.")
    assert figure_clause(sentence, "$160 billion", "160") == \
        "traffic congestion costs the U.S. economy over $… billion per year"


def test_the_base_of_a_rate_is_no_value():
    from mmeb_assets.facts.nonfacts import reason_for

    sentence = "KPI 1.4.5.1 Fatalities per 100 Million Persons"
    start = sentence.index("100")
    assert reason_for(sentence, start, start + 3) == "no_measure"


def test_a_figure_whose_subject_is_named_in_the_sentence_before_is_not_quoted_alone():
    assert not _stands_alone("The goal represents approximately 10 percent of operational LEA websites.")
    assert _stands_alone("The agency reviewed approximately 150 operational LEA websites in 2021.")


def test_a_table_cell_and_two_sentences_joined_by_a_note_letter_are_not_quoted():
    assert not _stands_alone("Characteristics: longer full name, two lines not sufficient with 8 point type.")
    assert not _stands_alone("We use 2/3 for the labor share. b Data for Corr NOS are measured for 16 quarters.")


def test_a_figure_no_whole_clause_quotes_is_not_quoted_by_a_window_of_words():
    """reading 6 (DOL): 'an apprenticeship program were approximately $… while the net social' named nothing."""
    sentence = ("DOL's 2012 evaluation found that the net lifetime benefits for persons who completed an apprenticeship "
                "program were approximately $250,000 while the net social benefits were over $50,000 for each of them.")
    assert figure_clause(sentence, "$250,000", "250,000") == ""


def test_a_footnote_number_after_a_full_stop_ends_the_sentence():
    from mmeb_assets.ingestion.numbers import sentences

    assert sentences("Poverty rose to 35.6 per cent of the population.6 In Gaza, 60 per cent live below the line.") \
        == ["Poverty rose to 35.6 per cent of the population.", "In Gaza, 60 per cent live below the line."]


def test_per_cent_figures_compare_only_as_shares_of_one_thing():
    from types import SimpleNamespace

    from mmeb_assets.qa.families.stated import _same_share, _unit

    growth = SimpleNamespace(sentence="The partial recovery has been concentrated in the West Bank, with a growth "
                                      "rate of 7.8 per cent.")
    water = SimpleNamespace(sentence="Poor households pay up to 17 per cent of family income to purchase water.")
    assert _unit("7.8 per cent") == "%" and not _same_share(growth, water, "%")


def test_a_closing_quote_and_a_headings_mark_end_a_sentence():
    from mmeb_assets.ingestion.numbers import sentences

    assert sentences("Research finds “the contribution is roughly $2 trillion.” Key sectors rely on it.") == [
        "Research finds “the contribution is roughly $2 trillion.”", "Key sectors rely on it."]
    assert sentences("Combat Child Labor ~ ILAB reports on more than 150 countries.") == [
        "Combat Child Labor", "ILAB reports on more than 150 countries."]


def test_sentences_printed_in_parallel_under_headings_are_not_quoted_alone():
    """read7's 10-Q: 'Operating expenses increased $2.7 billion or 30%' under one segment's heading and
    '... $1.1 billion or 15%' under another: the words do not say which segment."""
    from mmeb_assets.facts.quantities import _parallel_sentences
    from mmeb_assets.schema.source import Fact

    def fact(sentence):
        return Fact(measure="m", value="1", subject="", page=39, source=sentence)

    parallel = _parallel_sentences([fact("Operating expenses increased $2.7 billion or 30% driven by Azure."),
                                    fact("Operating expenses increased $1.1 billion or 15% driven by Office."),
                                    fact("By September 30, 2026, EPA will certify 300 products."),
                                    fact("By September 30, 2026, EPA will clean up 650 sites."),
                                    fact("More than 3 billion people lack clean fuel."),
                                    fact("More than 93 percent of the population receives safe water.")])
    assert {s.split(" or ")[0][-12:] for s in parallel} == {"$2.7 billion", "$1.1 billion"}


def test_sentences_that_name_their_subjects_after_the_figure_are_not_parallel():
    from mmeb_assets.facts.quantities import _parallel_sentences
    from mmeb_assets.schema.source import Fact

    facts = [Fact(measure="m", value="1", subject="", page=2, source=f"The survey reached {v} percent of {who} in it.")
             for v, who in ((41, "managers"), (52, "analysts"))]
    assert _parallel_sentences(facts) == set()


def test_a_figure_whose_subject_is_the_method_named_before_is_not_quoted_alone():
    assert not _stands_alone("The method only uses 10% of the data at each iteration of the sampler.")
    assert _stands_alone("Quiroz's method only uses 10% of the data at each iteration of the sampler.")
