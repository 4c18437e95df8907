"""Tables printed without a 'Table N' caption: a ruled grid of values under a title line.

Why: reports often title a table with a heading of its own ('Greenhouse gases', 'Number of member
states where financial companies applied the amendment') and number none. Those tables hold most of
such a report's values, and without them its questions could only come from prose. A grid counts
when it is ruled (vertical and horizontal lines), lies outside every captioned table, holds values
in several rows, and has a short title line just above it; the title is its caption.
"""
from __future__ import annotations

import logging
import re
from pathlib import Path

import pymupdf

from mmeb_assets.ingestion.pdf_text import CAPTION_RE, Caption, squash
from mmeb_assets.ingestion.table_candidates import Candidate, camelot_grids, clean_grid, find_table_grids, has_vertical_rules
from mmeb_assets.ingestion.table_grid import fully_ruled
from mmeb_assets.ingestion.tables import overlaps, tables_under_caption
from mmeb_assets.ingestion.table_words import is_value
from mmeb_assets.schema.source import Table

log = logging.getLogger(__name__)
MAX_TITLE_GAP = 40.0  # points between the title's last line and the grid's top edge
MAX_TITLE_CHARS = 160
MAX_TITLE_LINES = 4
CENTRED = 12.0  # points between the centres of two title lines set one over the other
MIN_VALUE_CELLS = 4
MIN_VALUE_ROWS = 2
MAX_PARTS = 3


def holds_values(grid: list[list[str]]) -> bool:
    """Values in several body rows (not a layout box or a ruled list of terms)."""
    per_row = [sum(is_value(c) for c in row[1:]) for row in grid[1:]]
    return len(grid[0]) >= 2 and sum(per_row) >= MIN_VALUE_CELLS and sum(n > 0 for n in per_row) >= MIN_VALUE_ROWS


def _text_lines(page: pymupdf.Page) -> list[tuple[tuple, str, int]]:
    """(box, text, block number) of every printed line of the page."""
    out = []
    for number, block in enumerate(page.get_text("dict")["blocks"]):
        for line in block.get("lines", []):
            text = squash("".join(span["text"] for span in line["spans"]))
            if text:
                out.append((tuple(line["bbox"]), text, number))
    return out


def title_above(page: pymupdf.Page, bbox: tuple, grids: list[tuple],
                text_lines: list[tuple[tuple, str, int]] | None = None) -> tuple[str, tuple] | None:
    """The text block just above the grid when it reads as the grid's title: a few short lines of
    their own (the tail of a paragraph that leads into the table is no title), not a figure's or
    table's caption, not running text, inside no other grid."""
    x0, y0, x1, _y1 = bbox
    lines = [l for l in (text_lines if text_lines is not None else _text_lines(page))
             if not any(overlaps(l[0], g) for g in [bbox, *grids])]
    above = [l for l in lines if y0 - MAX_TITLE_GAP <= l[0][3] <= y0 + 2 and min(l[0][2], x1) > max(l[0][0], x0)]
    if not above:
        return None
    last = max(above, key=lambda l: l[0][3])
    chosen = [last]  # and the lines over it set close: one paragraph (a wrapped title, or a lead-in's
    centre = (last[0][0] + last[0][2]) / 2  # tail), or title lines centred one over another
    for line in sorted((l for l in lines if (l[0][1] + l[0][3]) / 2 < last[0][1]), key=lambda l: -l[0][3]):
        if chosen[0][0][1] - line[0][3] > 0.8 * (line[0][3] - line[0][1]) or not re.search(r"[A-Za-z]{2}", line[1]):
            break  # a gap, or a rule typed as a line of underscores
        if line[2] == last[2] or abs((line[0][0] + line[0][2]) / 2 - centre) < CENTRED:
            chosen.insert(0, line)
        elif min(line[0][2], chosen[0][0][2]) > max(line[0][0], chosen[0][0][0]):
            break  # another block right over the title: the title ends here
    if len(chosen) > MAX_TITLE_LINES:
        return None
    title = squash(" ".join(l[1] for l in chosen))
    box = tuple(f(l[0][k] for l in chosen) for k, f in enumerate((min, min, max, max)))
    prose = title.endswith(".") and len(title.split()) > 12
    if len(title) > MAX_TITLE_CHARS or prose or CAPTION_RE.match(title) or not re.search(r"[A-Za-z]{3}", title):
        return None
    return title, box


def _reads_as_one_results_table(parts: list[Table], kinds: tuple[str, ...] = ("results",)) -> bool:
    """A results table, read whole or in a few stacked parts of several rows each: a drawing of
    boxes (a diagram's nodes, a form) read as a grid comes out as many one-row parts, or as a list.
    `kinds`: a grid ruled cell by cell is a table whatever it holds (a column of thresholds that
    reads like example counts is kept as such, and gives no facts)."""
    return (all(p.kind in kinds for p in parts) and len(parts) <= MAX_PARTS
            and all(len(p.rows) >= MIN_VALUE_ROWS for p in parts))


def untitled_tables(path: Path, doc: pymupdf.Document, captions: list[Caption],
                    regions: dict[int, list]) -> list[Table]:
    """Every uncaptioned ruled table of the document: titled by a short line above it, or, where it
    has none, a fully ruled grid of values that camelot's lattice reader sees whole (a statistics
    sheet's tables often print no title at all). `regions` (page -> boxes of tables already read)
    is read to skip captioned tables and receives the boxes of these."""
    found: list[Table] = []
    for page in doc:
        page_no = page.number + 1
        if not has_vertical_rules(page):
            continue
        try:
            grids = _ruled_grids(path, page)
        except Exception as exc:  # a page the grid finder cannot read keeps its captioned tables
            log.warning("%s: untitled tables: page %d: %s", path, page_no, exc)
            continue
        boxes = [g.bbox for g in grids]
        text_lines = _text_lines(page)  # once per page, not once per grid
        for cand in grids:
            cand.grid = clean_grid(cand.grid)
            if not cand.grid or any(overlaps(cand.bbox, r) for r in regions.get(page_no, [])) or not holds_values(cand.grid):
                continue
            titled = title_above(page, cand.bbox, [b for b in boxes if b != cand.bbox], text_lines)
            drawn = cand.extractor == "camelot-lattice" and fully_ruled(cand.grid)
            if titled is None and not drawn:
                continue
            label = f"p{page_no}_{sum(t.page == page_no for t in found) + 1}"
            text, box = titled or (f"Table on page {page_no}", (cand.bbox[0], cand.bbox[1] - 1, cand.bbox[2], cand.bbox[1]))
            caption = Caption(kind="table", number=0, text=text, page=page_no, bbox=box, label=label)
            parts = tables_under_caption(caption, cand, doc, [*captions, caption])
            if not _reads_as_one_results_table(parts, ("results", "example") if drawn else ("results",)):
                continue
            found.extend(parts)  # number 0 in the caption: the tables carry no number
            regions.setdefault(page_no, []).append(tuple(round(v, 2) for v in cand.bbox))
    return found


def _ruled_grids(path: Path, page: pymupdf.Page) -> list[Candidate]:
    """camelot lattice's grids of the page (cells from its ruling lines), then PyMuPDF's where
    lattice saw none."""
    try:
        lattice = camelot_grids(path, page.number + 1, page.rect.height, "lattice")
    except Exception as exc:  # camelot cannot read every PDF; PyMuPDF's grids still count
        log.warning("%s: untitled tables: page %d: camelot lattice: %s", path, page.number + 1, exc)
        lattice = []
    return lattice + [g for g in find_table_grids(page) if not any(overlaps(g.bbox, l.bbox) for l in lattice)]
