"""Exhibit tables of evaluation reports (ICDAR 2013 us-007): column heads numbered over a word ('1' over
'Grade') are heads, not a row of values; cells that print 'NA' are gaps, so a sparse grid of effect sizes
is still a results table."""
from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from mmeb_assets.ingestion.document import ingest_pdf

CAPTION = ParagraphStyle("caption", fontName="Helvetica-Bold", fontSize=10, leading=13)
ROWS = [("Color Identification", "0.16", "NA", "NA", "NA"), ("Letter Naming", "0.25", "", "NA", "NA"),
        ("Receptive Vocabulary", "0.09", "", "0.09", ""), ("Spelling", "0.15", "", "", "NA"),
        ("Basic Reading", "NA", "", "", "NA"), ("Academic Skills", "NA", "NA", "", "NA"),
        ("Reading", "NA", "NA", "", "0.11"), ("Writing Sample", "NA", "NA", "", "NA")]


def test_numbered_heads_and_na_cells(tmp_path):
    header = ["Measure", "Age 4\n(Head Start\nYear)", "K", "1\nGrade", "3\nGrade"]
    style = TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black), ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
                        ("ALIGN", (1, 0), (-1, -1), "CENTER"), ("FONTSIZE", (0, 0), (-1, -1), 9)])
    table = Table([header, *ROWS], colWidths=[180, 70, 50, 50, 50], style=style)
    pdf = tmp_path / "exhibit.pdf"
    SimpleDocTemplate(str(pdf), pagesize=letter).build(
        [Paragraph("Exhibit 2a. Summary of impacts for 4-year-olds by year", CAPTION), Spacer(1, 6), table])
    document = ingest_pdf(pdf, tmp_path / "out", "exhibit")
    (parsed,) = document.tables
    assert parsed.kind == "results", parsed.kind_reason
    assert [p[-1] for p in parsed.row_paths] == [r[0] for r in ROWS]  # no header line read as a row
    leaves = [" ".join(p) for p in parsed.column_paths[1:]]
    assert leaves == ["Age 4 (Head Start Year)", "K", "1 Grade", "3 Grade"]
    reading = parsed.rows[[p[-1] for p in parsed.row_paths].index("Reading")]
    assert reading[1:] == ["NA", "NA", "", "0.11"]


def test_a_first_row_of_gaps_under_a_group_label_stays_in_the_body(tmp_path):
    """Exhibit 2b of us-007: the group label, then a row that prints only 'NA', then the first value."""
    header = ["Measure", "Age 3\n(Head Start\nYear)", "K", "1\nGrade", "3\nGrade"]
    rows = [("Language and Literacy", "", "", "", ""), ("Color Identification", "NA", "NA", "NA", "NA"),
            *[r for r in ROWS[1:]]]
    style = TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black), ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
                        ("ALIGN", (1, 0), (-1, -1), "CENTER"), ("FONTSIZE", (0, 0), (-1, -1), 9),
                        ("SPAN", (0, 1), (-1, 1))])
    pdf = tmp_path / "exhibit.pdf"
    SimpleDocTemplate(str(pdf), pagesize=letter).build(
        [Paragraph("Exhibit 2b. Summary of impacts for 3-year-olds by year", CAPTION), Spacer(1, 6),
         Table([header, *rows], colWidths=[180, 70, 50, 50, 50], style=style)])
    (parsed,) = ingest_pdf(pdf, tmp_path / "out", "exhibit").tables
    assert [" ".join(p) for p in parsed.column_paths[1:]] == ["Age 3 (Head Start Year)", "K", "1 Grade", "3 Grade"]
    assert parsed.row_paths[0] == ["Language and Literacy", "Color Identification"]
    assert [p[-1] for p in parsed.row_paths] == [r[0] for r in rows[1:]]


def test_survey_statements_rated_in_percent_are_results_and_sample_sentences_with_scores_are_not():
    from mmeb_assets.ingestion.table_kind import table_kind

    survey = [["Gives us a more complete picture of our effectiveness than one system", "69%", "65%"],
              ["Results in staff confusion about our targets for student achievement", "46%", "37%"],
              ["Reduces community support for public schools in the district", "23%", "NA"]]
    samples = [["the food was great and the service was quick", "4.2"],
               ["terrible place and we are never going back again", "1.1"],
               ["nice staff and good food overall at this place", "3.9"]]
    assert table_kind(survey, 1)[0] == "results"
    assert table_kind(samples, 1)[0] == "example"


def test_an_area_cut_at_the_first_value_column_takes_in_the_row_labels():
    """us-019 Table A-2: the grid found from the numbers starts at the first value column; the labels
    set left of it on the rows' lines belong to the table, prose above or beside does not widen it."""
    import pymupdf

    from mmeb_assets.ingestion.page_columns import with_row_labels

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((50, 90), "Table A-2. Mean absolute percentage errors, by lead time", fontsize=9)
    for k, label in enumerate(["Prekindergarten-12 enrollment", "High school graduates", "Total enrollment"]):
        y = 120 + 14 * k
        page.insert_text((50, y), label, fontsize=9)
        for j, value in enumerate(["0.3", "0.6", "0.8", "1.1"]):
            page.insert_text((300 + 40 * j, y), value, fontsize=9)
    area = (296, 108, 470, 152)
    assert with_row_labels(page, area, (50, 82, 400, 92))[0] < 50
    bare = doc.new_page()
    for k in range(3):
        bare.insert_text((300, 120 + 14 * k), "0.3   0.6   0.8", fontsize=9)
    assert with_row_labels(bare, area, (50, 82, 400, 92)) == area


def test_the_unit_over_numbered_heads_counts_the_heads_not_the_values():
    from mmeb_assets.ingestion.table_units import path_unit

    assert path_unit(["Lead time (years)", "5"]) == ""
    assert path_unit(["Accuracy (%)", "dev"]) == "%"


def test_a_results_table_of_values_with_spreads_gives_facts_and_questions_can_compute_with_them():
    """Tables of '21.88 ± 0.31' and '0.84 (+3%)' are results: the facts stage asks ingestion's list test
    (one test, not a copy that took a spread for text), and the QA stage computes with the leading number."""
    from mmeb_assets.facts.tables import list_table_reason
    from mmeb_assets.qa.text import is_numeric_cell, parse_number
    from mmeb_assets.schema.source import Table

    rows = [["base", "21.88 ± 0.31", "0.84 (+3%)"], ["multi", "23.66 ± 0.35", "0.75 (+4%)"],
            ["human", "NA", "0.83 (-1%)"]]
    table = Table(id="table_1", number=1, caption="Table 1: BLEU and accuracy", page=1,
                  header=["Model", "BLEU (%)", "Accuracy"], rows=rows)
    assert list_table_reason(table) == ""
    assert all(is_numeric_cell(c) for c in ("21.88 ± 0.31", "0.84 (+3%)", "3.85(28)"))
    assert not is_numeric_cell("12 (see note)")
    assert parse_number("0.84 (+3%)") == parse_number("0.84")


def test_a_measure_in_brackets_has_no_brackets_of_its_own():
    """eu-025: 'Frequency' (the title's quantity) over 'How often ...' / 'Rarely/Never' read as
    'Frequency (How often ... (Rarely/Never))'; its siblings read 'Frequency (How often ..., About every month)'."""
    from mmeb_assets.facts.tables import measure_name
    from mmeb_assets.schema.source import Table

    table = Table(id="table_p2_2", caption="Frequency of psychosomatic symptoms", page=2,
                  header=["Symptoms", "Rarely/Never"], rows=[["Headache", "128"], ["Back-ache", "219"]],
                  column_paths=[[], ["How often do you have these symptoms", "Rarely/Never"]])
    name = measure_name(table, ["How often do you have these symptoms", "Rarely/Never"], "")
    assert name == "Frequency (How often do you have these symptoms, Rarely/Never)"
