"""Table and chart images a person can read: over generated tables (long headers, long row labels,
many columns) and charts (long item labels), no two text boxes overlap, each lies inside the image,
each of its lines fits its box, and its lines give back the whole text; the PNG is drawn, written
and opened back, and OCR (tesseract, skipped where absent) reads back every header, row label and
value."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from mmeb_assets.records.images import (bar_chart, chart_layout, excerpt_image, font, save_png, table_image,
                                        table_layout)
from mmeb_assets.records.text_layout import text_width

WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ()%@-", min_size=1, max_size=14)
PHRASE = st.lists(WORD, min_size=1, max_size=12).map(" ".join)
LONG_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=30, max_size=60)  # an id with no space
VALUE = st.one_of(st.floats(-1e6, 1e6, allow_nan=False).map(lambda v: f"{v:,.2f}"), st.integers(0, 10**7).map(str),
                  st.sampled_from(["–", "n/a", "12.4%", "$3.5M"]))


@st.composite
def tables(draw):
    cols = draw(st.integers(1, 12))
    header = draw(st.lists(st.one_of(PHRASE, LONG_WORD), min_size=cols, max_size=cols))
    rows = draw(st.lists(st.lists(VALUE, min_size=cols - 1, max_size=cols + 1), min_size=0, max_size=6))
    rows = [[draw(st.one_of(PHRASE, LONG_WORD))] + row for row in rows]
    return draw(PHRASE), header, rows


def check_boxes(layout) -> None:
    """The rules every drawn text follows (see text_layout.TextBox)."""
    for box in layout.boxes:
        x0, y0, x1, y1 = box.box
        assert 0 <= x0 and 0 <= y0 and x1 <= layout.width and y1 <= layout.height, (box.text, box.box, layout.width)
        face = font(box.size, bold=box.bold)
        assert all(text_width(line, face) <= box.width + 0.01 for line in box.lines), (box.text, box.lines)
        assert "".join(box.lines).replace(" ", "") == box.text.replace(" ", ""), (box.text, box.lines)
    drawn = [b for b in layout.boxes if b.text.strip()]
    for n, a in enumerate(drawn):
        for b in drawn[n + 1:]:
            assert not a.overlaps(b), (a.text, a.box, b.text, b.box)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_no_table_text_overlaps_another_or_is_cut(table):
    title, header, rows = table
    layout = table_layout(title, header, rows)
    check_boxes(layout)
    widest = max([len(header)] + [len(r) for r in rows])
    cells = [b for b in layout.boxes if b.kind != "title"]
    assert len(cells) == widest * (len(rows) + 1)  # no cell of a long row is dropped


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PHRASE, st.lists(st.one_of(PHRASE, LONG_WORD), min_size=1, max_size=14), st.data())
def test_no_chart_label_overlaps_another_or_is_cut(title, labels, data):
    values = data.draw(st.lists(VALUE, min_size=len(labels), max_size=len(labels)))
    check_boxes(chart_layout(title, labels, values))


def test_the_png_is_the_layout(tmp_path):
    """The file written is the layout drawn: its size, and ink inside every non-empty text box."""
    header = ["Configuration of the retrieval pipeline", "Evidence coverage (top-10)", "Recall@10 (slot-split)"]
    rows = [["Hybrid BM25 plus dense re-ranking with cross-encoder review", "0.794", "0.556"]]
    layout = table_layout("Results", header, rows)
    path = save_png(table_image("Results", header, rows), tmp_path / "t.png")
    img = Image.open(path).convert("L")
    assert img.size == (layout.width, layout.height)
    for box in layout.boxes:
        crop = img.crop(tuple(int(v) for v in box.box))
        assert crop.getextrema()[0] < 100, box.text  # dark text drawn in the box


def _ocr_tokens(path: Path) -> set[str]:
    import pytesseract

    img = Image.open(path).convert("L")
    img = img.resize((img.width * 2, img.height * 2))
    return set(_tokens(pytesseract.image_to_string(img, config="--psm 11")))


def _tokens(text: str) -> list[str]:
    return [t for t in re.findall(r"[a-z0-9]+(?:[.,][0-9]+)*", text.lower()) if t]


OCR_TABLES = [
    ("Benchmark sheet · retrieval results on the held-out split",
     ["Configuration of the retrieval pipeline", "Evidence coverage (top ten)", "Recall at ten (answerable)",
      "Mean reciprocal rank", "Latency per query in milliseconds", "Tokens per answer"],
     [["Hybrid lexical and dense ranking with cross encoder review", "0.794", "0.556", "0.412", "184", "12,400"],
      ["Lexical baseline", "0.628", "0.402", "0.331", "22", "9,100"],
      ["Dense retrieval with visual page embeddings", "0.731", "0.498", "0.377", "96", "10,250"]]),
    ("Emissions by sector", ["Sector of the regional economy", "Emissions in 2021", "Emissions in 2022",
                             "Emissions in 2023", "Change since the baseline year"],
     [["Vessels operating in the northern harbour", "412.5", "398.1", "377.9", "-8.4"],
      ["Cargo handling at the container terminals", "96.2", "101.7", "99.0", "2.9"]]),
]


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract-ocr not installed (apt-get install tesseract-ocr)")
@pytest.mark.parametrize("title, header, rows", OCR_TABLES)
def test_ocr_reads_back_every_header_row_label_and_value(tmp_path, title, header, rows):
    pytest.importorskip("pytesseract", reason="pytesseract not installed (the dev extra)")
    path = save_png(table_image(title, header, rows), tmp_path / "table.png")
    read = _ocr_tokens(path)
    asked = [t for cell in header + [c for row in rows for c in row] for t in _tokens(cell)]
    missed = [t for t in asked if t not in read]
    assert len(asked) >= 30 and len(missed) <= 0.05 * len(asked), missed


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract-ocr not installed (apt-get install tesseract-ocr)")
def test_ocr_reads_back_every_chart_label_and_value_and_an_excerpt(tmp_path):
    pytest.importorskip("pytesseract", reason="pytesseract not installed (the dev extra)")
    labels = ["Vessels operating in the northern harbour", "Cargo handled at terminals", "Rail freight",
              "Passenger ferries", "Road haulage within the port"]
    values = ["412.5", "96.2", "33.0", "58.7", "120.4"]
    path = save_png(bar_chart("Emissions by sector in 2023", labels, values), tmp_path / "chart.png")
    read = _ocr_tokens(path)
    asked = [t for text in labels + values for t in _tokens(text)]
    missed = [t for t in asked if t not in read]
    assert len(missed) <= 0.05 * len(asked), missed
    sentence = ("The hybrid configuration reached a recall of 0.794 on the held-out split, while the lexical "
                "baseline stayed at 0.628 across all three evaluation rounds reported by the team.")
    path = save_png(excerpt_image("Excerpt from the evaluation report, section four, retrieval results", sentence),
                    tmp_path / "excerpt.png")
    read = _ocr_tokens(path)
    asked = _tokens(sentence)
    assert len([t for t in asked if t not in read]) <= 0.05 * len(asked)


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract-ocr not installed (apt-get install tesseract-ocr)")
def test_ocr_reads_back_the_table_images_of_rendered_projects():
    """The records' own table images (benchmark sheets, results tables, planning sheets): every token of
    their headers, row labels and values, as their pixel text lists them, read back at >= 95%."""
    pytest.importorskip("pytesseract", reason="pytesseract not installed (the dev extra)")
    from generated_projects import project_dir, rendered_projects

    asked, missed = 0, []
    for p in rendered_projects(2):
        tables = [r for r in p.records.records if r.source == "image" and " | " in r.pixel_text][:4]
        for r in tables:
            read = _ocr_tokens(project_dir(p) / r.image_path)
            tokens = _tokens(r.pixel_text)
            asked += len(tokens)
            missed += [(r.image_path, t) for t in tokens if t not in read]
    assert asked >= 40 and len(missed) <= 0.05 * asked, (asked, missed[:20])
