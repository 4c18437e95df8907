"""A table area an extractor boxed around its values, narrower than the header printed over them
(S2ORC's Table 2: 'Number of papers' had been read as 'Number of pap'): the area widens to the
table's own rules where its edge cuts a word between them, and only there."""
from __future__ import annotations

import pymupdf

from mmeb_assets.ingestion.table_structure import ruled_width


def _page(header_x: float):
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for y in (144, 163, 223):
        page.draw_line((323, y), (510, y))
    page.insert_text((329, 157), "Filter", fontsize=10)
    page.insert_text((header_x, 157), "Number of papers", fontsize=10)
    for n, (label, value) in enumerate([("No title", "20k"), ("No authors", "0.3M"), ("Not English", "15.2M")]):
        page.insert_text((329, 177 + 14 * n), label, fontsize=10)
        page.insert_text((456, 177 + 14 * n), value, fontsize=10)
    page.insert_text((60, 300), "Prose far from the table, across the page, under its rules.", fontsize=10)
    return doc, page


def _rules(page):
    return [(d["rect"].x0, d["rect"].y0, d["rect"].x1) for d in page.get_drawings()]


def test_an_edge_through_a_header_word_widens_to_the_rules():
    doc, page = _page(425)
    area = ruled_width(page, (294.6, 48.7, 490.8, 230.0), _rules(page))
    assert area[0] <= 294.6 and area[2] >= 510
    doc.close()


def test_an_edge_through_no_word_stays():
    doc, page = _page(380)  # the header ends well inside the box
    assert ruled_width(page, (294.6, 48.7, 490.8, 230.0), _rules(page)) == (294.6, 48.7, 490.8, 230.0)
    doc.close()
