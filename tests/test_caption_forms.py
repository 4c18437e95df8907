"""Caption forms of real reports: a table numbered as an exhibit, and one set in small capitals, whose
text layer reads 'tABLE 1.' (the capital drawn full size, the rest as small capitals)."""
from __future__ import annotations

import pytest

from mmeb_assets.ingestion.pdf_text import _caption_of


@pytest.mark.parametrize("text, kind, number", [
    ("Table 3: Results on the dev set.", "table", 3),
    ("Exhibit 2.2. Number of Children Randomly Assigned", "table", 2),
    ("tABLE 1. number of deaths and age-adjusted death rates", "table", 1),
    ("fIGURE 2. age-adjusted death rates by state", "figure", 2),
    ("Table A-2. Mean absolute percentage errors (MAPEs), by lead time", "table", 2),
    ("Table SA3. Distribution of confirmed salmonellosis cases in humans", "table", 3),
    ("Exhibit 2a. Summary of ITT Cognitive Impacts for 4-Year-Olds", "table", 2),
    ("Exhibit B.4 State Implementation of the 1 Percent Rule", "table", 4),
    ("Table 3 - European ABCP issuance", "table", 3),
    ("Exhibit 19 Percentage of Schools Identified for Improvement", "table", 19),
    ("Figure S1: Distribution of answer lengths", "figure", 1),
    ("Table: 5 Public Health Outlay 2012-13 (Budget Estimates)", "table", 5),
    ("TABLE. Inequality in income, premature mortality, and health-related quality of life", "table", 0),
])
def test_a_caption_is_read_in_the_forms_reports_print(text, kind, number):
    found = _caption_of(text)
    assert found is not None and found[:2] == (kind, number)


@pytest.mark.parametrize("text, label", [("Table A-2. Mean", "A2"), ("Table SA3. Distribution", "SA3"),
                                         ("Exhibit 2a. Summary", "2a"), ("Exhibit 2b. Summary", "2b"),
                                         ("Table 3.4: Perceived", "3_4"), ("Table 3: Results", "3")])
def test_lettered_labels_keep_tables_apart(text, label):
    """'Table A-2' and 'Table 2', 'Exhibit 2a' and 'Exhibit 2b' are different tables: the label keeps them apart."""
    assert _caption_of(text)[2] == label


@pytest.mark.parametrize("text", ["table 1 shows the number of deaths", "Table 2 shows the results", "Table 2",
                                  "Table: the values below", "TABLE. 12 rows", "Table. See below",
                                  "Tables are listed below", "Table 1 The results of the study are shown in this "
                                  "table which runs on for many words in one line just as a paragraph does here"])
def test_prose_that_mentions_a_table_is_no_caption(text):
    assert _caption_of(text) is None


@pytest.mark.parametrize("caption, title", [("Table A-2. Mean errors", "Mean errors"), ("Exhibit 2a. Summary", "Summary"),
                                            ("Table 3 - European ABCP issuance", "European ABCP issuance"),
                                            ("Exhibit B.4 State rules", "State rules"), ("Greenhouse gases", "Greenhouse gases")])
def test_a_caption_title_is_the_caption_without_its_label(caption, title):
    from mmeb_assets.schema.source import caption_title

    assert caption_title(caption) == title


def test_a_caption_block_opening_on_a_blank_line_keeps_its_label(tmp_path):
    """A text layer whose caption block starts ' \\nTable 3.4: ...' (eu-023 of ICDAR 2013): the label
    is the caption's own, not a repeat of it, so the table is kept as a 'Table N' table."""
    import pymupdf

    from mmeb_assets.ingestion.pdf_text import read_pages

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), " ", fontsize=10)
    page.insert_text((72, 112), "Table 3.4: Perceived well-being of students", fontsize=10)
    page.insert_text((72, 400), "Body text of the report follows here.", fontsize=10)
    _pages, captions = read_pages(doc)
    assert [c.text for c in captions] == ["Table 3.4: Perceived well-being of students"]


def test_unnumbered_table_captions_on_one_page_get_labels_apart():
    """An unnumbered 'TABLE.' caption (MMWR prints them) is a table of its own, labelled by its page and
    place, so two of them never merge as one table 'number 0'."""
    import pymupdf

    from mmeb_assets.ingestion.pdf_text import read_pages

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((50, 80), "TABLE. Inequality in income by year")
    page.insert_text((50, 400), "TABLE. Premature mortality by state")
    _pages, captions = read_pages(doc)
    labels = [c.label for c in captions if c.kind == "table"]
    assert len(labels) == 2 and len(set(labels)) == 2 and all(c.number == 0 for c in captions)
