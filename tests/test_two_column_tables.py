"""Tables set in one column of a two-column page (issue 36): the prose of the other column, printed at
the same heights, is neither the table's header nor its row groups; a count out of a total ('12 / 44')
is one value; a table whose numbers sit inside bracketed text is an example."""
from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import BaseDocTemplate, Frame, FrameBreak, PageTemplate, Paragraph, Spacer
from reportlab.platypus import Table as RLTable
from reportlab.platypus import TableStyle

from mmeb_assets.ingestion.document import ingest_pdf
from mmeb_assets.ingestion.table_kind import table_kind
from mmeb_assets.ingestion.table_words import is_value

PROSE = ("annotations still have lower variance than the coarse ones, while the partial annotation keeps "
         "a high correlation with the full one across every value we tried in both datasets we used. ")
SYSTEMS = ["None", "SuperPAL", "Gold", "Oracle", "Random"]


def _two_column_pdf(path: Path, rng: random.Random, table_left: bool) -> dict[str, list[str]]:
    """A page of two columns: prose in one, prose then a captioned table in the other."""
    body = ParagraphStyle("b", fontName="Times-Roman", fontSize=10, leading=12)
    caption = ParagraphStyle("c", parent=body, fontSize=9, leading=11)
    rows = {name: [f"{rng.uniform(0.1, 0.99):.2f}", f"{rng.uniform(10, 99):.1f}"] for name in rng.sample(SYSTEMS, 3)}
    table = RLTable([["Hints", "Agree.", "Time (secs)"], *[[k, *v] for k, v in rows.items()]],
                    colWidths=[80, 55, 65], rowHeights=12)  # rows on the prose's own leading
    table.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), "Times-Roman", 9),
                               ("LINEABOVE", (0, 0), (-1, 0), 1, "black"), ("LINEBELOW", (0, 0), (-1, 0), 0.5, "black"),
                               ("LINEBELOW", (0, -1), (-1, -1), 1, "black")]))
    prose = [Paragraph(PROSE * 12, body), FrameBreak()]  # a full column of running text
    with_table = [Paragraph(PROSE * rng.randint(1, 4), body), Spacer(1, 8), table, Spacer(1, 4),
                  Paragraph("Table 5: Annotator agreement and median time with different hints.", caption),
                  Spacer(1, 6), Paragraph(PROSE * 3, body), FrameBreak()]
    story = (with_table + prose) if table_left else (prose + with_table)
    buffer = io.BytesIO()
    doc = BaseDocTemplate(buffer, pagesize=letter, invariant=1)
    width, height = letter
    frames = [Frame(50, 60, (width - 120) / 2, height - 120, id="left"),
              Frame(70 + (width - 120) / 2, 60, (width - 120) / 2, height - 120, id="right")]
    doc.addPageTemplates([PageTemplate(frames=frames)])
    doc.build(story)
    path.write_bytes(buffer.getvalue())
    return rows


@pytest.mark.parametrize("seed", range(4))
def test_a_table_in_one_column_reads_without_the_other_columns_prose(seed, tmp_path):
    rng = random.Random(seed)
    rows = _two_column_pdf(tmp_path / "two.pdf", rng, table_left=seed % 2 == 0)
    doc = ingest_pdf(tmp_path / "two.pdf", tmp_path / "out", "two-column")
    [table] = [t for t in doc.tables if t.number == 5]
    assert [path for path in table.row_paths] == [[name] for name in rows]
    assert table.column_paths[1:] == [["Agree."], ["Time (secs)"]]
    assert [row[1:] for row in table.rows] == list(rows.values())


def test_a_count_out_of_a_total_is_one_value():
    assert is_value("12 / 44") and is_value("2 / 44") and not is_value("12 / forty")


def test_numbers_inside_bracketed_text_make_an_example_table():
    rows = [["Retrieval", "<player", "1", "team 2> makes a bad pass"], ["SMT", "<player", "1", "team 1> turned over"],
            ["NMT", "<player", "2", "team 2> lost the ball"]]
    assert table_kind(rows, 1)[0] == "example"
    breakdown = [["human", "54", "46", "( 5", "/", "0", "/", "41", ")"], ["base", "51", "49", "(13", "/", "9", "/", "27", ")"]]
    assert table_kind(breakdown, 1)[0] == "results"  # '( 5 / 0 / 41 )' opens no bracket on a word


def test_rows_written_as_tuples_make_an_example_table():
    rows = [["⟨(agent, patient)⟩", "0.059"], ["⟨(agent, in, in, patient)⟩", "0.002"], ["⟨(agent, patient), (x, y)⟩", "0.023"]]
    assert table_kind(rows, 1)[0] == "example"
    assert table_kind([["BERT (base)", "81.2"], ["BERT (large)", "84.0"], ["RoBERTa", "86.1"]], 1)[0] == "results"


@pytest.mark.parametrize("seed", range(4))
def test_a_page_wide_area_is_cut_to_the_captions_column(seed, tmp_path):
    """An extractor's box across the page (camelot's stream mode does this on papers) is read within
    the caption's column; read across the page, the other column's prose heads the rows."""
    import pymupdf

    from mmeb_assets.ingestion.page_columns import caption_column, within_column
    from mmeb_assets.ingestion.table_structure import read_structure

    rows = _two_column_pdf(tmp_path / "two.pdf", random.Random(seed), table_left=seed % 2 == 0)
    page = pymupdf.open(tmp_path / "two.pdf")[0]
    [hit] = page.search_for("Table 5:")
    caption_text = "Table 5: Annotator agreement and median time with different hints."
    caption_bbox = (hit.x0, hit.y0, hit.x0 + 200, hit.y1)
    area = (40.0, hit.y0 - 70, page.rect.width - 40, hit.y0 - 1)
    assert caption_column(page, caption_bbox) is not None
    [read] = read_structure(page, within_column(page, area, caption_bbox), caption_text, caption_bbox)
    assert read.row_paths == [[name] for name in rows] and [row[1:] for row in read.rows] == list(rows.values())
    assert read.column_paths[1:] == [["Agree."], ["Time (secs)"]]
    across = read_structure(page, area, caption_text, caption_bbox)
    assert not across or (across[0].column_paths, across[0].rows) != (read.column_paths, read.rows)  # what the cut keeps out


def test_a_one_column_page_is_not_cut(tmp_path):
    import pymupdf

    from mmeb_assets.ingestion.page_columns import caption_column
    from table_pdfs import random_spec, render_pdf

    render_pdf([random_spec(random.Random(3), 1)], tmp_path / "one.pdf")
    page = pymupdf.open(tmp_path / "one.pdf")[0]
    [hit] = page.search_for("Table 1:")
    assert caption_column(page, (hit.x0, hit.y0, hit.x1, hit.y1)) is None
