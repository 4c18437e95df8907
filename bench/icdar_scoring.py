"""Adjacency-relation scoring of table structure, as the ICDAR 2013 Table Competition scores it
(Göbel, Hassan, Oro, Orsi: "ICDAR 2013 Table Competition"), and its ground-truth reader.

A table is a list of cells (first row, last row, first column, last column, text). Every non-empty
cell relates to its nearest non-empty neighbour to the right in each row it spans and below in each
column it spans: (its text, the neighbour's text, 'right' | 'down'). Empty cells are skipped over, so
a reader that adds or drops a blank column loses nothing; a reader that merges two columns loses the
relations between them and gets wrong ones in their place. Texts are compared with all whitespace
removed and every Unicode dash or minus read as '-' (a line break inside a cell, '−5' and '-5' are the
same). The relations of two tables are compared as multisets: precision = shared / the reader's,
recall = shared / the truth's, F1 their harmonic mean. No PDF is read here (bench/bench_icdar.py does).
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

DASHES = re.compile("[\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d]")


@dataclass(frozen=True)
class Cell:
    r0: int
    r1: int
    c0: int
    c1: int
    text: str


@dataclass
class Score:
    precision: float
    recall: float
    f1: float
    correct: int  # relations the reader shares with the truth
    truth: int  # relations of the truth
    parsed: int  # relations of the reader

    @classmethod
    def none(cls, truth: int) -> "Score":
        """A table the reader did not find: nothing right, every true relation missed."""
        return cls(0.0, 0.0, 0.0, 0, truth, 0)


def relation_text(text: str | None) -> str:
    """The comparison form of a cell's text: whitespace removed, dashes and minus signs unified."""
    return DASHES.sub("-", re.sub(r"\s+", "", text or ""))


def grid_cells(grid: list[list], spans: dict[tuple[int, int], tuple[int, int]] | None = None) -> list[Cell]:
    """Cells of a rectangular-or-ragged grid of texts (None reads as empty), one per position;
    `spans` maps a (row, col) to its (last row, last col) where a cell spans several positions, and
    the positions it covers must then be empty in `grid`."""
    spans = spans or {}
    out = []
    for r, row in enumerate(grid):
        for c, text in enumerate(row):
            r1, c1 = spans.get((r, c), (r, c))
            out.append(Cell(r, r1, c, c1, "" if text is None else str(text)))
    return out


def _neighbours(cells: list[Cell]) -> list[tuple[Cell, Cell, str]]:
    """Each non-empty cell with its nearest non-empty cell to the right (per row it spans) and below
    (per column it spans); a neighbour reached from several rows or columns counts once."""
    full = [c for c in cells if relation_text(c.text)]
    at: dict[tuple[int, int], Cell] = {}
    for cell in full:
        for r in range(cell.r0, cell.r1 + 1):
            for c in range(cell.c0, cell.c1 + 1):
                at.setdefault((r, c), cell)
    if not at:
        return []
    last_row = max(r for r, _c in at)
    last_col = max(c for _r, c in at)
    out = []
    for cell in full:
        right = {next((at[(r, c)] for c in range(cell.c1 + 1, last_col + 1) if (r, c) in at), None)
                 for r in range(cell.r0, cell.r1 + 1)}
        down = {next((at[(r, c)] for r in range(cell.r1 + 1, last_row + 1) if (r, c) in at), None)
                for c in range(cell.c0, cell.c1 + 1)}
        out += [(cell, n, "right") for n in right if n is not None and n is not cell]
        out += [(cell, n, "down") for n in down if n is not None and n is not cell]
    return out


def relations(cells: list[Cell]) -> Counter:
    """The multiset of (text, neighbour's text, direction) relations of a table."""
    return Counter((relation_text(a.text), relation_text(b.text), d) for a, b, d in _neighbours(cells))


def score(truth: list[Cell], parsed: list[Cell]) -> Score:
    """Precision, recall and F1 of the reader's relations against the truth's (0 where either side
    has none: a table with no relations has nothing right)."""
    want, got = relations(truth), relations(parsed)
    correct = sum((want & got).values())
    n_want, n_got = sum(want.values()), sum(got.values())
    precision = correct / n_got if n_got else 0.0
    recall = correct / n_want if n_want else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Score(precision, recall, f1, correct, n_want, n_got)


def best_match(truth: list[Cell], candidates: list[list[Cell]]) -> tuple[int, Score]:
    """The candidate (index) with the highest F1 against the truth, the competition's rule for
    pairing a true table with a reader's; (-1, a zero score) when there is no candidate."""
    best, best_score = -1, Score.none(len(_neighbours(truth)))
    for i, candidate in enumerate(candidates):
        s = score(truth, candidate)
        if best < 0 or s.f1 > best_score.f1:
            best, best_score = i, s
    return best, best_score


@dataclass
class TruthTable:
    pdf: str  # the PDF's stem ('eu-001')
    table: int  # the table's id in the -str.xml
    page: int  # 1-based
    cells: list[Cell]
    regions: int = 1


def _int(cell: ET.Element, *names: str, default: int) -> int:
    value = next((cell.get(n) for n in names if cell.get(n) is not None), None)
    return default if value is None else int(value)


def read_structure(path: Path) -> list[TruthTable]:
    """The tables of one ground-truth `*-str.xml`, one per (table, page). A table's regions are the
    pieces it is printed in; each region numbers its cells from 0 and says by how many rows and
    columns to shift them (row-increment, col-increment: us-035a's table 2 is printed as three
    side-by-side blocks at columns +0, +2, +4). Regions on one page are put together with their shifts,
    as the page prints them; a table printed over several pages becomes one table per page, since
    each is scored against the tables a reader finds on that page. (One cell of us-002 spells its
    end column 'col-end'.)"""
    stem = Path(path).name.removesuffix("-str.xml")
    out = []
    for table in ET.parse(path).getroot().iter("table"):
        pages: dict[int, list] = {}
        for region in table.iter("region"):
            pages.setdefault(int(region.get("page")), []).append(region)
        for page, regions in sorted(pages.items()):
            cells = []
            for region in regions:
                dr, dc = int(region.get("row-increment") or 0), int(region.get("col-increment") or 0)
                for cell in region.iter("cell"):
                    r0, c0 = _int(cell, "start-row", default=0), _int(cell, "start-col", default=0)
                    r1, c1 = _int(cell, "end-row", default=r0), _int(cell, "end-col", "col-end", default=c0)
                    text = re.sub(r"\s+", " ", cell.findtext("content") or "").strip()
                    cells.append(Cell(r0 + dr, r1 + dr, c0 + dc, c1 + dc, text))
            out.append(TruthTable(stem, int(table.get("id")), page, cells, len(regions)))
    return out


def grid_text(cells: list[Cell]) -> list[list[str]]:
    """The cells laid out as a grid of texts (a spanning cell at its first position): for printing."""
    if not cells:
        return []
    grid = [[""] * (max(c.c1 for c in cells) + 1) for _ in range(max(c.r1 for c in cells) + 1)]
    for cell in cells:
        grid[cell.r0][cell.c0] = cell.text
    return grid
