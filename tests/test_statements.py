"""Statements read from prose: component lists whose count matches their parts, and definitions."""
from pathlib import Path

import pytest

from mmeb_assets.facts.statements import components_of, definition_of

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


def test_a_whole_with_as_many_parts_as_it_counts():
    found = components_of("The Framework Core consists of five concurrent and continuous Functions—Identify, "
                          "Protect, Detect, Respond, Recover.")
    assert found == ("components", "the Framework Core", "Functions",
                     "Identify, Protect, Detect, Respond, Recover", "five")
    parts = components_of("The Framework consists of three parts: the Framework Core, the Implementation Tiers, "
                          "and the Framework Profiles.")
    assert parts and parts[3] == "Framework Core, Implementation Tiers, Framework Profiles"


@pytest.mark.parametrize("sentence", [
    "The Framework consists of three parts: the Core and the Tiers.",  # two parts named, three counted
    "The survey has four sections, and we report two of them here in detail today.",
    "This approach includes five steps.",
])
def test_no_statement_when_the_parts_do_not_match_the_count(sentence):
    assert components_of(sentence) is None


def test_definitions_keep_their_first_clause():
    found = definition_of("Risk tolerance refers to the organization’s or AI actor’s (see Appendix A) readiness "
                          "to bear the risk in order to achieve its objectives.")
    assert found == ("definition", "Risk tolerance", "definition",
                     "the organization’s or AI actor’s readiness to bear the risk in order to achieve its objectives", "")
    assert definition_of("Explainability refers to a representation of the mechanisms underlying AI systems’ oper- "
                         "ation, whereas interpretability refers to the meaning of output.")[3] == \
        "a representation of the mechanisms underlying AI systems’ operation"


@pytest.mark.parametrize("sentence", [
    "The AI RMF refers to an AI system as an engineered or machine-based system that can generate outputs.",
    "This means that the results cannot be compared across the two years of the survey.",
    "The Framework provides a means of expressing cybersecurity requirements to business partners.",
    "The label no means that a comment did not contain a mention of a resource.",
    "Difficulty means that the PDF baseline is associated with a 1.9835 higher difficulty score than Paper Plain.",
])
def test_not_definitions(sentence):
    assert definition_of(sentence) is None


@pytest.mark.skipif(not (SEEDS / "nist-csf-1-1.pdf").is_file(), reason="needs ../shared/seeds/nist-csf-1-1.pdf")
def test_the_csf_states_its_five_functions(tmp_path):
    from mmeb_assets.facts.statements import statements
    from mmeb_assets.ingestion.document import ingest_pdf

    document = ingest_pdf(SEEDS / "nist-csf-1-1.pdf", tmp_path, "nist-csf")
    found = {s.subject: s for s in statements(document)}
    assert found["the Framework Core"].stated == "Identify, Protect, Detect, Respond, Recover"
    assert found["the Framework Core"].page == 10


def test_a_list_ends_where_a_relative_clause_starts():
    found = components_of("The flight control system for 737 MAX airplanes includes two flight control computers, "
                          "FCC A and FCC B, which process inputs from the pilots and aircraft sensors.")
    assert found and found[2:] == ("flight control computers", "FCC A, FCC B", "two")


def test_a_glossary_entry_with_a_colon_is_a_definition():
    found = definition_of("Transparency: refers to the communication of appropriate information about an AI system "
                          "to relevant people, in a way that they understand.")
    assert found and found[1] == "Transparency" and found[3].startswith("the communication of appropriate information")


def test_means_as_a_noun_is_no_definition():
    assert definition_of("Confirmation codes sent by means other than physical mail SHALL be valid for a maximum "
                         "of 10 minutes.") is None


def test_a_definition_too_long_to_say_whole_is_not_cut_short():
    long = ("Confidentiality refers to preserving authorized restrictions on information access and disclosure, "
            "including means for protecting personal privacy and proprietary information, and preventing access by, "
            "or disclosure to, unauthorized ones in every system the agency operates or funds.")
    found = definition_of(long)
    assert found is None or not found[3].endswith("...")


def test_a_named_thing_said_to_be_a_kind_of_thing_is_a_definition():
    from mmeb_assets.facts.statements import definition_of

    found = definition_of("AI Management Essentials is a self-assessment tool designed to help businesses establish "
                          "robust management practices for the development and use of AI systems.")
    assert found and found[1] == "AI Management Essentials" and found[3].startswith("a self-assessment tool designed")
    found = definition_of("The recipes come from the Gedeone database, that is a collection of 500 Mediterranean "
                          "recipes annotated with their caloric contents.")
    assert found and found[1] == "Gedeone database" and found[3].startswith("a collection of 500")
    assert definition_of("Since SIF is a sum of pretrained fasttext vectors, the resulting dimensionality is 300.") is None
    assert definition_of("BERT is a strong baseline.") is None


@pytest.mark.parametrize("sentence", [
    "Sarah is a first-time reader of medical literature and therefore might differ from some readers.",
    "Maria is a graduate student who uses the tool to read papers for her thesis.",
    "Tom is a software developer working for a company that builds tools for analysts.",
])
def test_a_person_described_by_a_role_is_no_definition(sentence):
    """A persona or participant named in the text is not a term the document defines (Paper Plain's
    walkthrough persona was asked as 'the definition of Sarah')."""
    assert definition_of(sentence) is None


def test_a_named_tool_said_to_be_a_kind_of_thing_stays_a_definition():
    found = definition_of("Grobid is a machine learning library designed to extract structured data from PDFs.")
    assert found and found[1] == "Grobid" and found[3].startswith("a machine learning library designed")


def _page(blocks: list[str]):
    from mmeb_assets.schema.source import PageText, TextBlock

    text_blocks = [TextBlock(page=25, text=t, bbox=(72, 100 + 40 * i, 520, 130 + 40 * i)) for i, t in enumerate(blocks)]
    return PageText(page=25, text="\n".join(blocks), blocks=text_blocks)


GLOSSARY = ["Annex A: Glossary",
            "AI impact assessment: a framework used to consider and identify the potential consequences of an AI "
            "system’s deployment, intended use and foreseeable misuse.",
            "AI policy: information that provides governance direction and support for AI systems according to your "
            "business requirements.",
            "Bias: the disproportionate weighting towards a particular subset of data subjects.",
            "Anonymity: in practice, providing anonymity requires excluding any personal data collection.",
            "Data Protection Impact Assessment: see ICO guidance on DPIAs for further information."]


def test_a_glossary_page_defines_each_term_before_its_colon():
    from mmeb_assets.facts.statements import _glossary_page

    page = _page(GLOSSARY)
    assert _glossary_page(page)
    defined = {s: definition_of(t, glossary=True) for s, t in zip(GLOSSARY, GLOSSARY)}
    assert defined[GLOSSARY[1]][1:4] == ("AI impact assessment", "definition", "a framework used to consider and identify "
                                         "the potential consequences of an AI system’s deployment, intended use and "
                                         "foreseeable misuse")
    assert defined[GLOSSARY[3]][1] == "Bias"
    assert defined[GLOSSARY[4]] is None and defined[GLOSSARY[5]] is None  # a note, a pointer: not what the term is


def test_a_colon_outside_a_glossary_is_no_definition():
    from mmeb_assets.facts.statements import _glossary_page

    assert definition_of(GLOSSARY[3]) is None
    assert not _glossary_page(_page(["Results: the model improves on every split we tried, by a wide margin.",
                                     "Setup: we train for ten epochs with the default settings of the library."]))


def test_a_term_the_document_defined_under_a_joined_name_is_defined_once():
    from mmeb_assets.facts.statements import statements

    page = _page(["Robustness or generalizability is defined as the “ability of a system to maintain its level of "
                  "performance under a variety of circumstances” (Source: ISO/IEC TS 5723:2022). Robustness is a goal "
                  "for appropriate system functionality in a broad set of conditions and circumstances, including uses "
                  "of AI systems not initially anticipated."])
    from mmeb_assets.provenance import make_provenance
    from mmeb_assets.schema.source import SourceDocument

    document = SourceDocument(seed_id="rmf", provenance=make_provenance("rmf", "ingestion", "rules"), title="RMF",
                              path="rmf.pdf", sha256="0", n_pages=25, pages=[page], tables=[], figures=[],
                              numeric_claims=[])
    found = [(s.subject, s.stated[:30]) for s in statements(document)]
    assert found == [("Robustness or generalizability", "the “ability of a system to ma")]


def test_an_acronym_introduced_in_the_plural_expands_to_a_singular_word():
    """futoma2017: 'Gaussian processes (GPs)' read as 'Gaussian processe'; 'providers (ISPs)' stays 'provider'."""
    from mmeb_assets.facts.acronyms import _singular

    assert _singular("Gaussian processes") == "Gaussian process"
    assert _singular("internet service providers") == "internet service provider"
    assert _singular("security policies") == "security policy"
    assert _singular("recurrent neural networks") == "recurrent neural network"


def test_a_row_label_opening_every_row_of_a_table_is_no_glossary_term():
    """FIPS 201-2's Table 4-1 prints 'Characteristics: ...' in each row (reading 4 read it as a term)."""
    from mmeb_assets.facts.statements import statements
    from mmeb_assets.provenance import make_provenance
    from mmeb_assets.schema.source import SourceDocument

    rows = [f"Characteristics: {kind} full name of an individual, printed on two lines with {n} point type."
            for kind, n in (("simple", 10), ("longer", 8), ("hyphenated", 7))]
    page = _page(rows + GLOSSARY[1:4])
    document = SourceDocument(seed_id="t", provenance=make_provenance("t", "ingestion", "rules"), title="t",
                              path="t.pdf", sha256="0", n_pages=1, pages=[page], tables=[], figures=[], numeric_claims=[])
    terms = {s.subject for s in statements(document) if s.kind == "definition"}
    assert "Characteristics" not in terms and {"AI policy", "Bias"} <= terms


def test_an_article_before_an_abbreviation_is_not_part_of_the_term():
    found = definition_of("The EM is defined as a weighted count of varieties of intermediate inputs exported.")
    assert found and found[1] == "EM"


def test_a_judgement_about_a_named_thing_is_no_definition():
    assert definition_of("DNS is an essential part of the solution infrastructure that the service depends on.") is None
    found = definition_of("AIME is a resource that is designed to help organisations establish AI management.")
    assert found and found[1] == "AIME"


def test_what_an_organisation_says_it_is_is_no_definition():
    """read7's 10-Q: 'Microsoft is a technology company whose mission is ...' was asked as a definition."""
    assert definition_of("Microsoft is a technology company whose mission is to empower every person on the "
                         "planet to achieve more.") is None
    found = definition_of("AIME is a resource that is designed to help organisations establish AI management.")
    assert found and found[1] == "AIME"


def test_a_which_clause_is_part_of_the_definition_and_below_is_no_term():
    """read8: 'Pseudo-marginal MH is a variant of MH, which relies on unbiased estimators ...' was cut to
    'a variant of MH'; 'Below is a list of these terms' defined 'Below'."""
    found = definition_of("Pseudo-marginal MH is a variant of MH, which relies on unbiased estimators of an "
                          "unnormalized version of the target.")
    assert found and found[3] == ("a variant of MH, which relies on unbiased estimators of an unnormalized version "
                                  "of the target")
    assert definition_of("Below is a list of these terms used in our document, with their meaning.") is None


def test_a_figure_of_speech_about_a_thing_is_no_definition():
    """read8's Commerce plan: 'Broadband is an engine for opportunity in the modern economy ...'."""
    assert definition_of("Broadband is an engine for opportunity in the modern economy and a need for every family.") \
        is None
    assert definition_of("Grobid is a machine learning library designed to extract structured data from PDFs.")
