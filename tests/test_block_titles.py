"""A header whose columns are titled per block under its rule (Multi-LexSum's Table 5): 'BART,
Multitask: ...' over the left half's columns and 'BART, Single-task: ...' over the right half's, and
new titles over the same columns further down. The titles are the columns' top level in each block;
before, their words were cut into the leaf headers ('Samples BART,', 'R-2 Single-task:')."""
from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer
from reportlab.platypus import Table as RLTable
from reportlab.platypus import TableStyle

from mmeb_assets.ingestion.document import ingest_pdf

LEAVES = ["Samples", "R-1", "R-2", "Words"]
BLOCKS = [("BART, Multitask: all lengths", "BART, Single-task: one length each", ["L", "S", "T"]),
          ("BART, Multitask: from long", "BART, Single-task: from long", ["S", "T"])]


def _value(rng: random.Random, j: int) -> str:
    return str(rng.randint(1000, 7000)) if j == 0 else f"{rng.uniform(5, 60):.2f}"


def _pdf(path: Path, rng: random.Random) -> dict:
    data, style, expected = [["Lengths", *LEAVES, *LEAVES]], [], {}
    style += [("LINEABOVE", (0, 0), (-1, 0), 1, "black"), ("LINEBELOW", (0, 0), (-1, 0), 0.5, "black")]
    for left, right, labels in BLOCKS:
        r = len(data)
        data.append(["", left, "", "", "", right, "", "", ""])
        style += [("SPAN", (1, r), (4, r)), ("SPAN", (5, r), (8, r)), ("ALIGN", (1, r), (-1, r), "CENTER"),
                  ("LINEBELOW", (1, r), (4, r), 0.4, "black"), ("LINEBELOW", (5, r), (8, r), 0.4, "black")]
        for label in labels:
            values = [_value(rng, j % 4) for j in range(8)]
            data.append([label, *values])
            for j, value in enumerate(values):
                expected[(left if j < 4 else right, LEAVES[j % 4], label)] = value
    style += [("FONT", (0, 0), (-1, -1), "Times-Roman", 9), ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
              ("LINEBELOW", (0, -1), (-1, -1), 1, "black")]
    table = RLTable(data, colWidths=[50] + [48] * 8, rowHeights=13)
    table.setStyle(TableStyle(style))
    body = ParagraphStyle("b", fontName="Times-Roman", fontSize=10, leading=12)
    story = [Paragraph("Table 5: Comparing the model under multitask and single-task training.", body),
             Spacer(1, 6), table, Spacer(1, 12), Paragraph("We find training on three tasks helps. " * 8, body)]
    buffer = io.BytesIO()
    SimpleDocTemplate(buffer, pagesize=letter, invariant=1).build(story)
    path.write_bytes(buffer.getvalue())
    return expected


@pytest.mark.parametrize("seed", range(3))
def test_block_titles_under_the_header_rule_title_their_columns(seed, tmp_path):
    expected = _pdf(tmp_path / "t.pdf", random.Random(seed))
    doc = ingest_pdf(tmp_path / "t.pdf", tmp_path / "out", "blocks")
    tables = [t for t in doc.tables if t.number == 5]
    assert len(tables) == len(BLOCKS)
    found = {}
    for table in tables:
        for path, row in zip(table.row_paths, table.rows):
            for column, value in zip(table.column_paths[table.stub_columns:], row[table.stub_columns:]):
                found[(*column, path[-1])] = value
    assert found == expected
