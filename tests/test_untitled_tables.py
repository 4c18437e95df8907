"""Tables a report prints without a 'Table N' caption: a ruled grid of values under a heading of its
own (ICDAR 2013 eu-001: 'Greenhouse gases' over a grid of release thresholds). They are read, named by
their heading, and their wrapped row labels stay one row; a ruled box of text, a grid under the tail
of a paragraph, and a captioned table are not read as such tables."""
from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from mmeb_assets.facts.extract import extract_facts
from mmeb_assets.ingestion.document import ingest_pdf
from mmeb_assets.ingestion.numbers import parse_number

BODY = ParagraphStyle("body", fontName="Helvetica", fontSize=10, leading=13)
HEAD = ParagraphStyle("head", fontName="Helvetica-Bold", fontSize=12, leading=15)
CELL = ParagraphStyle("cell", fontName="Helvetica", fontSize=9, leading=11)
GRID = TableStyle([("GRID", (0, 0), (-1, -1), 0.6, colors.black), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                   ("SPAN", (1, 0), (3, 0)), ("FONTSIZE", (0, 0), (-1, -1), 9)])
ROWS = [("Ammonia (NH3)", "10 000", "-", "-"),
        ("Chlorine and inorganic compounds (as HCl)", "5 000", "-", "-"),
        ("Arsenic and compounds (as As)", "20", "5", "5"),
        ("Dioxins and furans (as Teq)", "0,0001", "0,0001", "0,0001"),
        ("Cadmium and compounds (as Cd)", "10", "5", "5")]


def _grid(rows=ROWS) -> Table:
    data = [["", "Threshold for releases", "", ""], ["", "to air", "to water", "to land"]]
    data += [[Paragraph(label, CELL), *values] for label, *values in rows]
    return Table(data, colWidths=[120, 80, 80, 80], style=GRID)


def _pdf(path: Path, story: list) -> Path:
    SimpleDocTemplate(str(path), pagesize=A4).build(story)
    return path


def _ingest(tmp_path: Path, story: list):
    pdf = _pdf(tmp_path / "report.pdf", story)
    return ingest_pdf(pdf, tmp_path / "out", "report")


def test_a_ruled_grid_under_its_heading_is_a_table_named_by_the_heading(tmp_path):
    story = [Paragraph("Release thresholds of the register", HEAD), Spacer(1, 8),
             Paragraph("The thresholds below apply to each facility that reports under the register. " * 3, BODY),
             Spacer(1, 16), Paragraph("Heavy metals and gases", HEAD), Spacer(1, 4), _grid()]
    document = _ingest(tmp_path, story)
    assert [(t.number, t.caption) for t in document.tables] == [(None, "Heavy metals and gases")]
    table = document.tables[0]
    assert [p[-1] for p in table.row_paths] == [label for label, *_ in ROWS]  # the wrapped label is one row
    assert table.column_paths[1:] == [["Threshold for releases", c] for c in ("to air", "to water", "to land")]
    chlorine = table.rows[[p[-1] for p in table.row_paths].index("Chlorine and inorganic compounds (as HCl)")]
    assert chlorine[1:] == ["5 000", "-", "-"]
    facts, _ = extract_facts(document)
    named = {(f.subject, f.value) for f in facts if f.table_id == table.id}
    assert ("Chlorine and inorganic compounds (as HCl)", "5 000") in named
    assert ("Dioxins and furans (as Teq)", "0,0001") in named


@pytest.mark.parametrize("lead", [
    "The register lists, for every pollutant and medium, the threshold above which a facility reports its "
    "releases, as set out in the regulation and its annex, in kilograms per year as follows:",
])
def test_a_grid_under_the_tail_of_a_paragraph_is_not_titled_by_it(tmp_path, lead):
    document = _ingest(tmp_path, [Paragraph(lead * 2, BODY), Spacer(1, 6), _grid()])
    untitled = [t for t in document.tables if t.number is None]
    # a fully ruled grid of values is a table even without a title (ICDAR 2013's statistics sheets),
    # but the paragraph's tail never names it
    assert [t.caption for t in untitled] == ["Table on page 1"]


def test_a_ruled_box_of_text_is_not_a_table(tmp_path):
    box = Table([[Paragraph("Box 4: The stabilisation mechanism", CELL)],
                 [Paragraph("Ministers agreed on a mechanism with two components and strict conditions.", CELL)]],
                colWidths=[360], style=TableStyle([("BOX", (0, 0), (-1, -1), 0.8, colors.black),
                                                   ("INNERGRID", (0, 0), (-1, -1), 0.5, colors.black)]))
    document = _ingest(tmp_path, [Paragraph("Background", HEAD), Spacer(1, 4), box])
    assert document.tables == []


def test_a_captioned_grid_is_read_once_under_its_caption(tmp_path):
    story = [Paragraph("Table 2: Release thresholds by medium", BODY), Spacer(1, 4), _grid(),
             Spacer(1, 24), Paragraph("Other gases", HEAD), Spacer(1, 4), _grid(ROWS[:3])]
    document = _ingest(tmp_path, story)
    assert sorted((t.number or 0, t.caption) for t in document.tables) == [
        (0, "Other gases"), (2, "Table 2: Release thresholds by medium")]


@pytest.mark.parametrize("printed, value", [("10 000", 10000.0), ("100 000 000", 1e8), ("0,1", 0.1),
                                            ("0,0001", 0.0001), ("12,5", 12.5), ("12,5%", 12.5),
                                            ("1,234", 1234.0), ("1,234,567", 1234567.0), ("−0,4", -0.4)])
def test_european_print_of_numbers_parses(printed, value):
    assert parse_number(printed) == pytest.approx(value)


@pytest.mark.parametrize("printed", ["1 00", "12 3456", "1,2,3", "10 000 0"])
def test_what_is_no_grouped_or_decimal_number_stays_unparsed(printed):
    assert parse_number(printed) is None


def test_a_walled_head_over_right_aligned_values_stays_one_head(tmp_path):
    """eu-025: 'Very healthy | Quite healthy | Unhealthy' in walled cells over right-aligned counts; the
    first word of 'Quite healthy' overhangs the column to its left, and the walls keep it whole."""
    style = TableStyle([("GRID", (0, 0), (-1, -1), 0.6, colors.black), ("SPAN", (1, 0), (3, 0)),
                        ("ALIGN", (1, 0), (-1, 0), "CENTER"), ("ALIGN", (1, 1), (-1, 1), "CENTER"),
                        ("ALIGN", (1, 2), (-1, -1), "RIGHT"), ("FONTSIZE", (0, 2), (-1, -1), 9),
                        ("FONTSIZE", (0, 0), (-1, 1), 10),
                        ("RIGHTPADDING", (0, 0), (-1, -1), 2)])
    data = [["Gender", "How healthy do you think you are?", "", ""], ["", "Very healthy", "Quite healthy", "Unhealthy"],
            ["Male", "36", "7", "16"], ["Female", "33", "4", "32"], ["Other", "12", "9", "25"]]
    grid = Table(data, colWidths=[72, 70, 70, 70], style=style)
    document = _ingest(tmp_path, [Paragraph("Students' perception of their health by gender", HEAD), Spacer(1, 6), grid])
    (table,) = document.tables
    assert [p[-1] for p in table.column_paths[1:]] == ["Very healthy", "Quite healthy", "Unhealthy"]


def test_title_lines_centred_one_over_another_are_one_title(tmp_path):
    """us-009: 'Universal Society' / 'Sample Indirect Cost Rate Proposal' / 'FYE 12/31/04', centred over
    the grid, each a block of its own; the running header beside them is not part of the title."""
    centred = ParagraphStyle("centred", parent=HEAD, alignment=1, fontSize=10, leading=11)
    story = [Paragraph("Universal Society", centred), Paragraph("Sample Indirect Cost Rate Proposal", centred),
             Paragraph("FYE 12/31/04", centred), Spacer(1, 6), _grid()]
    document = _ingest(tmp_path, story)
    assert [t.caption for t in document.tables] == ["Universal Society Sample Indirect Cost Rate Proposal FYE 12/31/04"]
