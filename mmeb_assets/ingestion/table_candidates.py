"""Candidate table grids for the pages that carry a table caption: camelot lattice, then (when lattice
finds fewer grids than captions) camelot stream, stream and word grids inside areas bounded by
horizontal rules (booktabs), PyMuPDF `find_tables` (cell text rebuilt from words), and the words
just above or below each caption. Grids are cleaned (exact printed strings, empty rows and columns
dropped, stacked multi-line rows split); `tables` picks one per caption.
"""
from __future__ import annotations

import logging
import os
import warnings
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from mmeb_assets.ingestion.numbers import parse_number
from mmeb_assets.ingestion.pdf_text import CAPTION_RE, normalize_text
from mmeb_assets.ingestion.table_model import MODES as MODEL_NAMES
from mmeb_assets.ingestion.table_words import line_segments

log = logging.getLogger(__name__)


@dataclass
class Candidate:
    page: int
    bbox: tuple[float, float, float, float]
    grid: list[list[str]]
    extractor: str
    structure: list | None = None  # the word reader's tables, when they are what found this area


def _split_stacked(row: list[list[str]]) -> list[list[str]]:
    """A row whose non-empty cells all hold k lines is k printed rows; otherwise lines are joined."""
    counts = {len(lines) for lines in row if lines}
    non_empty = sum(1 for lines in row if lines)
    if len(counts) == 1 and (k := counts.pop()) > 1 and non_empty >= 2:
        return [[lines[i] if lines else "" for lines in row] for i in range(k)]
    return [[" ".join(lines) for lines in row]]


def clean_grid(raw: list[list[str]]) -> list[list[str]]:
    rows: list[list[str]] = []
    for raw_row in raw:
        cells = [[" ".join(line.split()) for line in normalize_text(c or "").split("\n") if line.strip()] for c in raw_row]
        rows.extend(_split_stacked(cells))
    rows = [r for r in rows if any(c for c in r)]
    if not rows:
        return []
    keep = [j for j in range(max(len(r) for r in rows)) if any(j < len(r) and r[j] for r in rows)]
    return [[r[j] if j < len(r) else "" for j in keep] for r in rows]


def camelot_grids(path: Path, page_no: int, height: float, flavor: str) -> list[Candidate]:
    """camelot's tables of one page in one flavour, as grids with boxes in PyMuPDF's coordinates."""
    import camelot

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = camelot.read_pdf(str(path), pages=str(page_no), flavor=flavor, suppress_stdout=True)
    out = []
    for table in found:
        x1, y1, x2, y2 = table._bbox
        grid = [[str(c) for c in row] for row in table.df.values.tolist()]
        out.append(Candidate(page_no, (x1, height - y2, x2, height - y1), grid, f"camelot-{flavor}"))
    return out


def _cell_lines(page: pymupdf.Page, words: list, rect) -> str:
    if rect is None:
        return ""
    x0, y0, x1, y1 = rect
    inside = [w for w in words if x0 - 1 <= (w[0] + w[2]) / 2 <= x1 + 1 and y0 - 1 <= (w[1] + w[3]) / 2 <= y1 + 1]
    lines: dict[tuple, list] = {}
    for w in inside:
        lines.setdefault((w[5], w[6]), []).append(w)
    ordered = sorted(lines.values(), key=lambda ws: (round(min(w[3] for w in ws)), min(w[0] for w in ws)))
    return "\n".join(" ".join(w[4] for w in sorted(ws, key=lambda w: w[0])) for ws in ordered)


def find_table_grids(page: pymupdf.Page) -> list[Candidate]:
    """find_tables gives the cell geometry; cell text is rebuilt from words (its own text can misorder glyphs)."""
    words = page.get_text("words")
    out = []
    for table in page.find_tables(use_layout=False).tables:  # the layout model costs ~1.4 s a page
        grid = [[_cell_lines(page, words, rect) for rect in row.cells] for row in table.rows]
        out.append(Candidate(page.number + 1, tuple(table.bbox), grid, "pymupdf"))
    return out


def _raw_rules(page: pymupdf.Page, vertical: bool = False) -> list[tuple[float, float, float]]:
    """(x0, y, x1) of horizontal line segments (vertical=True: (y0, x, y1) of vertical ones)."""
    horizontal, vertical_rules = line_segments(page, 20, 8, box_edges_horizontal=False)
    return vertical_rules if vertical else horizontal


def has_vertical_rules(page: pymupdf.Page) -> bool:
    """Ruled cell walls on the page: a grid the lattice readers can see."""
    return len(_raw_rules(page, vertical=True)) >= 3


def _horizontal_rules(page: pymupdf.Page) -> list[tuple[float, float, float]]:
    """(x0, y, x1) of horizontal lines, collinear touching segments joined."""
    rules = _raw_rules(page)
    joined: list[list[float]] = []
    for x0, y, x1 in sorted(rules, key=lambda r: (round(r[1]), r[0])):
        if joined and abs(joined[-1][1] - y) < 1.5 and x0 <= joined[-1][2] + 3:
            joined[-1][2] = max(joined[-1][2], x1)
        else:
            joined.append([x0, y, x1])
    return [(a, b, c) for a, b, c in joined if c - a > 40]


def ruled_areas(page: pymupdf.Page, breaks: tuple[float, ...] = ()) -> list[tuple[tuple[float, float, float, float], list[float]]]:
    """Areas bounded by horizontal rules of equal extent (tables without vertical lines), with the
    y of every rule inside (row separators). Running header/footer rules are ignored; an area is
    split at every y in `breaks` (the captions on the page)."""
    groups: dict[tuple[int, int], list[float]] = {}
    margin = 0.08 * page.rect.height
    for x0, y, x1 in _horizontal_rules(page):
        if y < margin and page.get_text("words", clip=pymupdf.Rect(x0, y - 14, x1, y - 0.5)):
            continue  # a running header's rule (its text sits just above it)
        if y > page.rect.height - margin and page.get_text("words", clip=pymupdf.Rect(x0, y + 0.5, x1, y + 14)):
            continue  # a running footer's rule
        key = next((k for k in groups if abs(k[0] - x0) < 4 and abs(k[1] - x1) < 4), (round(x0), round(x1)))
        groups.setdefault(key, []).append(y)
    areas = []
    for (x0, x1), ys in groups.items():
        ys = sorted(set(round(y, 1) for y in ys))
        run = [ys[0]]
        for y in ys[1:] + [None]:
            if y is not None and y - run[-1] < 520 and not any(run[-1] < b < y for b in breaks):
                run.append(y)
                continue
            if len(run) >= 2 and run[-1] - run[0] > 12:
                areas.append(((x0 - 2, run[0] - 1, x1 + 2, run[-1] + 1), run))
            run = [y] if y is not None else []
    return areas


def text_grid(page: pymupdf.Page, area: tuple, ys: list[float]) -> list[list[str]]:
    """A text table: columns at x-gaps of at least 8 pt that no word bridges; rows between rules.
    A column not crossed by a rule keeps one cell across those rows (text in the first of them)."""
    words = page.get_text("words", clip=pymupdf.Rect(area))
    if not words or len(ys) < 2:
        return []
    columns: list[list[float]] = []
    for x0, x1 in sorted((w[0], w[2]) for w in words):
        if columns and x0 - columns[-1][1] < 8:
            columns[-1][1] = max(columns[-1][1], x1)
        else:
            columns.append([x0, x1])
    inner = [r for r in _raw_rules(page) if area[1] <= r[1] <= area[3] and r[0] >= area[0] - 2 and r[2] <= area[2] + 2]
    cuts = sorted({round(r[1], 1) for r in inner} | {ys[0], ys[-1]})
    bands = list(zip(cuts, cuts[1:]))
    grid = [["" for _ in columns] for _ in bands]
    for j, (c0, c1) in enumerate(columns):
        own = sorted({round(r[1], 1) for r in inner if r[0] <= c0 + 2 and r[2] >= c1 - 2} | {ys[0], ys[-1]})
        for top, bottom in zip(own, own[1:]):
            cell = sorted((w for w in words if c0 - 0.5 <= (w[0] + w[2]) / 2 <= c1 + 0.5 and top <= (w[1] + w[3]) / 2 <= bottom),
                          key=lambda w: (w[5], w[6], w[7]))
            first = next((i for i, (t, b) in enumerate(bands) if t >= top - 0.5), None)
            if cell and first is not None:
                grid[first][j] = " ".join(w[4] for w in cell)
    return [row for row in grid if any(row)]


def _is_number(token: str) -> bool:
    return parse_number(token) is not None


def _line_cells(line: list, min_gap: float) -> list[list]:
    """Words of one line grouped into cells: a wide gap or a number starts a new cell."""
    cells: list[list] = []
    for w in sorted(line, key=lambda w: w[0]):
        if (not cells or w[0] - cells[-1][-1][2] >= min_gap or _is_number(w[4])
                or _is_number(cells[-1][-1][4])):
            cells.append([w])
        else:
            cells[-1].append(w)
    return cells


def words_grid(page: pymupdf.Page, area: tuple) -> list[list[str]]:
    """Rows from word lines; columns anchored on the lines that hold numbers (each number is a cell)."""
    words = [w for w in page.get_text("words", clip=pymupdf.Rect(area))]
    if not words:
        return []
    heights = sorted(w[3] - w[1] for w in words)
    min_gap = max(4.5, 0.6 * heights[len(heights) // 2])
    lines: list[list] = []
    for w in sorted(words, key=lambda w: ((w[1] + w[3]) / 2, w[0])):
        centre = (w[1] + w[3]) / 2
        if lines and abs(centre - lines[-1][0]) < 3:
            lines[-1][1].append(w)
        else:
            lines.append([centre, [w]])
    split = [_line_cells(line, min_gap) for _c, line in lines]
    data = [cells for cells in split if any(_is_number(c[0][4]) for c in cells)]
    if not data:
        return []
    counts: dict[int, int] = {}
    for cells in data:
        counts[len(cells)] = counts.get(len(cells), 0) + 1
    n = max(counts, key=lambda k: (counts[k], k))
    model = [cells for cells in data if len(cells) == n]
    anchors = [(min(c[i][0][0] for c in model), max(c[i][-1][2] for c in model)) for i in range(n)]
    grid = []
    for _centre, line in lines:
        row: list[list[str]] = [[] for _ in anchors]
        for w in sorted(line, key=lambda w: w[0]):
            mid = (w[0] + w[2]) / 2
            index = min(range(n), key=lambda i: 0 if anchors[i][0] - 1 <= mid <= anchors[i][1] + 1
                        else min(abs(mid - anchors[i][0]), abs(mid - anchors[i][1])))
            row[index].append(w[4])
        grid.append([" ".join(cell) for cell in row])
    return grid


def _area_candidates(path: Path, page: pymupdf.Page, areas: list) -> list[Candidate]:
    import camelot

    out = []
    for area, ys in areas:
        grid = words_grid(page, area) or text_grid(page, area, ys)
        out.append(Candidate(page.number + 1, area, grid, "pymupdf-words"))
    height = page.rect.height
    for (x0, y0, x1, y1), _ys in areas:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            found = camelot.read_pdf(str(path), pages=str(page.number + 1), flavor="stream", suppress_stdout=True,
                                     table_areas=[f"{x0},{height - y0},{x1},{height - y1}"])
        for table in found:
            grid = [[str(c) for c in row] for row in table.df.values.tolist()]
            out.append(Candidate(page.number + 1, (x0, y0, x1, y1), grid, "camelot-stream"))
    return out


def areas_around(page: pymupdf.Page, y: float, breaks: tuple[float, ...]) -> tuple[tuple, tuple]:
    """The areas just above and just below the caption line at `y`, bounded by the neighbouring
    captions (or the page margins); a caption in one column keeps to that column."""
    width, height = page.rect.width, page.rect.height
    above = max([b for b in breaks if b < y - 5], default=0.05 * height)
    below = min([b for b in breaks if b > y + 5], default=0.95 * height)
    line = _caption_line(page, y)
    x0, x1 = (min(b[0] for b in line), max(b[2] for b in line)) if line else (0.08 * width, 0.92 * width)
    if x1 - x0 > 0.55 * width:
        x0, x1 = 0.06 * width, 0.94 * width
    top = max(b[3] for b in line) if line else y + 6
    bottom = min(b[1] for b in line) if line else y - 6
    return (x0 - 6, above + 8, x1 + 6, bottom - 1), (x0 - 6, top + 1, x1 + 6, below - 8)


def _caption_line(page: pymupdf.Page, y: float) -> list[tuple]:
    """The caption's own text block, not the prose of the other column beside it (whose paragraph
    may start above the table's last row) nor a second caption at that height (Tables 5 and 6 side
    by side); every block the line crosses where no block opens like a caption."""
    line = [b for b in page.get_text("blocks") if b[1] - 2 <= y <= b[3] + 2]
    captions = [b for b in line if CAPTION_RE.match(b[4].strip())]
    if captions:
        return [min(captions, key=lambda b: abs((b[1] + b[3]) / 2 - y))]
    return line


def caption_areas(page: pymupdf.Page, breaks: tuple[float, ...]) -> list[tuple]:
    """For each caption line on the page, the areas just above and just below it."""
    return [a for y in sorted(breaks) for a in areas_around(page, y, breaks) if a[3] - a[1] > 20]


def _caption_area_candidates(page: pymupdf.Page, breaks: tuple[float, ...]) -> list[Candidate]:
    return [Candidate(page.number + 1, area, grid, "caption-area-words")
            for area in caption_areas(page, breaks) if (grid := words_grid(page, area))]


def extractors_allowed() -> set[str] | None:
    """`MMEB_TABLE_EXTRACTORS` (comma list) restricts the extractors, to compare them (bench_tables).
    The learned reader's names (`table_model.MODES`) choose how structure is read, not candidates:
    named alone, every candidate extractor runs."""
    value = os.environ.get("MMEB_TABLE_EXTRACTORS", "").strip()
    return {v.strip() for v in value.split(",") if v.strip() and v.strip() not in MODEL_NAMES} or None


def page_candidates(path: Path, doc: pymupdf.Document, page_no: int, breaks: tuple[float, ...] = (),
                    wanted: int = 1) -> list[Candidate]:
    """Candidates from camelot lattice, then (if lattice found fewer than `wanted` grids) camelot
    stream, stream within rule-bounded areas, and PyMuPDF find_tables."""
    page = doc[page_no - 1]
    candidates: list[Candidate] = []
    has_grid = has_vertical_rules(page)
    runs = (("camelot-lattice", lambda: camelot_grids(path, page_no, page.rect.height, "lattice") if has_grid else []),
            ("camelot-stream", lambda: camelot_grids(path, page_no, page.rect.height, "stream")),
            ("camelot-stream-ruled", lambda: _area_candidates(path, page, ruled_areas(page, breaks))),
            ("pymupdf", lambda: find_table_grids(page)),
            ("caption-area-words", lambda: _caption_area_candidates(page, breaks)))
    allowed = extractors_allowed()
    for name, run in runs:
        if allowed is not None and name not in allowed:
            continue
        if name != "camelot-lattice" and sum(c.extractor == "camelot-lattice" and len(c.grid) >= 2 for c in candidates) >= wanted:
            break
        try:
            found = run()
        except Exception as exc:  # one extractor failing on a page must not lose the others
            log.warning("%s: %s failed on page %d: %s", path, name, page_no, exc)
            continue
        for cand in found:
            cand.grid = clean_grid(cand.grid)
            candidates.append(cand)
    return candidates
