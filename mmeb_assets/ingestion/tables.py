"""Tables anchored to their 'Table N' captions: the candidate grid nearest each caption wins
(`table_candidates`), its structure is read from the page (`table_structure`, else the grid), and
a caption no extractor found a grid for is read by words next to it. '(Continued)' parts go under
the first part.
"""
from __future__ import annotations

import logging
import re
from pathlib import Path

import pymupdf

from mmeb_assets.ingestion.numbers import parse_number
from mmeb_assets.ingestion.pdf_text import Caption
from mmeb_assets.ingestion.table_candidates import Candidate, areas_around, page_candidates
from mmeb_assets.ingestion.table_grid import fully_ruled, grid_structure
from mmeb_assets.ingestion.table_kind import table_kind
from mmeb_assets.ingestion.table_model_read import structure_for
from mmeb_assets.ingestion.page_columns import caption_column, with_row_labels, within_column
from mmeb_assets.ingestion.table_structure import read_structure, ruled_width, table_area
from mmeb_assets.ingestion.table_words import line_segments
from mmeb_assets.schema.source import Table

log = logging.getLogger(__name__)
EXTRACTOR_PENALTY = {"camelot-lattice": 0.0, "camelot-stream": 6.0, "pymupdf": 10.0, "pymupdf-words": 4.0,
                     "caption-area-words": 7.0}
CITATION_CELL = re.compile(r"\b[A-Z][a-z]+ \((?:19|20)\d\d[a-z]?\)|\bet al\.")  # "Zhu (2010)", not "volume (1996)"
MULTI_NUMBER_PENALTY = 60.0
MIN_VALUE_LINE_SHARE = 0.25
LOOSE_AREAS = ("caption-area-words", "structure-words")  # areas cut by captions, not by the table's own edges
MAX_CAPTION_GAP = 260.0
MIN_AREA_VALUES = 6  # value cells the caption's area must hold to replace a header-only grid
MAX_HEAD_VALUES = 2  # numbers a header-only grid may hold ('12 months', a year)
RULED_GRIDS = ("camelot-lattice", "pymupdf")  # grids cut along drawn cell walls: their columns can be trusted
SPREAD_MARK = re.compile(r"[±˙(/]")  # '21.88 ± 0.31', '3.85 (28)', '12 / 44': one value with its spread or total


def _score(cand: Candidate, caption: Caption, column: tuple[float, float] | None = None) -> float | None:
    """Lower is better; None where the candidate cannot be this caption's table. `column` is the
    caption's text column: a short caption set flush left owns the table centred under it."""
    grid = cand.grid
    if len(grid) < 2 or len(grid[0]) < 2:
        return None
    cells = [c for row in grid for c in row]
    if sum(1 for c in cells if c) < 0.3 * len(cells) or any(c.startswith(("Table ", "TABLE ")) for c in cells):
        return None
    if any(CITATION_CELL.search(c) for row in grid[:2] for c in row):
        return None  # the grid starts in running text (a citation), not in a table
    cx0, cy0, cx1, cy1 = cand.bbox
    kx0, ky0, kx1, ky1 = caption.bbox
    lx0, lx1 = column or (kx0, kx1)
    if min(cx1, lx1) - max(cx0, lx0) <= 0:
        return None  # not in the caption's column
    if cy0 - 3 <= (ky0 + ky1) / 2 <= cy1 + 3:
        return None  # the candidate swallowed its own caption
    gap = cy0 - ky1 if cy0 >= ky1 - 3 else ky0 - cy1
    if gap < -5 or gap > MAX_CAPTION_GAP:
        return None
    filled = [c for c in cells if c]
    merged = sum(1 for c in filled if sum(parse_number(t) is not None for t in c.split()) > 1) / len(filled)
    return (max(gap, 0.0) + EXTRACTOR_PENALTY[cand.extractor] - min(len(grid), 10) * 0.2
            + MULTI_NUMBER_PENALTY * merged - min(len(grid[0]), 12) * 0.5)


def overlaps(a, b) -> bool:
    ix = min(a[2], b[2]) - max(a[0], b[0])
    iy = min(a[3], b[3]) - max(a[1], b[1])
    if ix <= 0 or iy <= 0:
        return False
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return ix * iy > 0.5 * smaller


def _behind_another_caption(cand: Candidate, caption: Caption, others: list[Caption]) -> bool:
    """Another caption lies between the candidate and this caption (a figure's caption between a
    plot and the table under it): the candidate belongs to that caption, not to this one."""
    cx0, cy0, cx1, cy1 = cand.bbox
    kx0, ky0, kx1, ky1 = caption.bbox
    for other in others:
        if other is caption or other.page != caption.page:
            continue
        ox0, oy0, ox1, oy1 = other.bbox
        mid = (oy0 + oy1) / 2
        if min(ox1, cx1) - max(ox0, cx0) > 0 and (cy1 - 3 <= mid <= ky0 or ky1 <= mid <= cy0 + 3):
            return True
    return False


def _assign(captions: list[Caption], candidates: list[Candidate],
            every_caption: list[Caption] = (), columns: dict | None = None) -> dict[Caption, Candidate]:
    columns = columns or {}
    pairs = sorted(((s, i, j) for i, cap in enumerate(captions) for j, cand in enumerate(candidates)
                    if cand.page == cap.page and (s := _score(cand, cap, columns.get(id(cap)))) is not None
                    and not _behind_another_caption(cand, cap, list(every_caption))))
    chosen: dict[Caption, Candidate] = {}
    for _score_value, i, j in pairs:
        cap, cand = captions[i], candidates[j]
        if cap in chosen or any(c.page == cand.page and overlaps(c.bbox, cand.bbox) for c in chosen.values()):
            continue
        chosen[cap] = cand
    return chosen


def _two_values(rows) -> int:
    """Cells holding two plain numbers ('42.3 29'): two columns read as one where the grid kept them apart."""
    return sum(1 for row in rows for cell in row[1:]
               if sum(parse_number(token) is not None for token in cell.split()) >= 2 and not SPREAD_MARK.search(cell))


def tables_under_caption(caption: Caption, cand: Candidate, doc: pymupdf.Document, captions: list[Caption]) -> list[Table]:
    """The table(s) behind one caption: structure read from the page's words where that finds the
    value rows, else from the extractor's grid; stacked sub-tables become parts 'a', 'b', ..."""
    page = doc[cand.page - 1]
    ceiling = max((c.bbox[3] for c in captions if c.page == caption.page and c is not caption
                   and c.bbox[1] < cand.bbox[1] and min(c.bbox[2], cand.bbox[2]) > max(c.bbox[0], cand.bbox[0])),
                  default=0.0)
    horizontal, _vertical = line_segments(page, 20, 4, box_edges_horizontal=True, image_rules=True)
    area = within_column(page, table_area(cand.bbox, caption.bbox, ceiling, horizontal), caption.bbox)
    area = ruled_width(page, with_row_labels(page, area, caption.bbox), horizontal)
    read = cand.structure or read_structure(page, area, caption.text, caption.bbox)
    grid_rows = sum(1 for row in cand.grid if sum(parse_number(c) is not None for c in row[1:]) >= 1)
    text_in_drawn_cells = (cand.extractor == "camelot-lattice" and fully_ruled(cand.grid)
                           and all(t.value_line_share < MIN_VALUE_LINE_SHARE for t in read))
    if cand.grid and (not read or text_in_drawn_cells or sum(len(t.rows) for t in read) < 0.6 * grid_rows
                      or cand.extractor in RULED_GRIDS and _two_values(r for t in read for r in t.rows) > _two_values(cand.grid)):
        read = [grid_structure(cand.grid, caption.text)]  # the grid's cells are the structure
    rules_read = read
    read = structure_for(page, area, caption.text, caption.bbox, read, cand.grid)  # the learned reader's, where chosen
    extractor = cand.extractor if read is rules_read else f"{cand.extractor}+slanet"  # which reading, for a check
    tables = []
    for index, part in enumerate(read):
        suffix = chr(ord("a") + index) if len(read) > 1 else ""
        kind, why = table_kind(part.rows, part.stub_columns)
        if part.value_line_share < MIN_VALUE_LINE_SHARE and cand.extractor not in LOOSE_AREAS:
            kind, why = "list", "few of its printed lines hold values (a table of text with numbers in it)"
        header = [" ".join(dict.fromkeys(c for c in (row[j] for row in part.header_rows if j < len(row)) if c))
                  if j < part.stub_columns else " ".join(dict.fromkeys(path)) for j, path in enumerate(part.column_paths)]
        tables.append(Table(
            id=f"table_{caption.label or caption.number}{suffix}", number=caption.number or None, caption=caption.text, page=caption.page,
            header=header, rows=part.rows, numbers=[[parse_number(c) for c in row] for row in part.rows],
            extractor=extractor, bbox=tuple(round(v, 2) for v in cand.bbox), header_rows=part.header_rows,
            column_paths=part.column_paths, stub_columns=part.stub_columns, row_paths=part.row_paths,
            unit=part.unit, column_units=part.column_units, kind=kind, kind_reason=why, part=suffix))
    return tables


def extract_tables(path: Path, doc: pymupdf.Document, captions: list[Caption],
                   regions: dict[int, list] | None = None) -> list[Table]:
    """Tables by number; `regions` (if given) receives page -> boxes of every part, continued ones too."""
    table_caps = [c for c in captions if c.kind == "table"]
    candidates: list[Candidate] = []
    for page_no in sorted({c.page for c in table_caps}):
        breaks = tuple((c.bbox[1] + c.bbox[3]) / 2 for c in captions if c.page == page_no)
        wanted = sum(1 for c in table_caps if c.page == page_no)
        candidates.extend(page_candidates(path, doc, page_no, breaks, wanted))
    fallback = [c for c in candidates if c.extractor == "caption-area-words"]
    columns = {id(c): caption_column(doc[c.page - 1], c.bbox) or (0.0, doc[c.page - 1].rect.width) for c in table_caps}
    chosen = _assign(table_caps, [c for c in candidates if c.extractor != "caption-area-words"], captions, columns)
    _prefer_areas_with_values(chosen, fallback, captions, columns)
    missing = [c for c in table_caps if c not in chosen]
    if missing:  # captions no extractor found a grid for: the words right above or below the caption
        taken = list(chosen.values())
        extra = _assign(missing, [c for c in fallback if not any(c.page == t.page and overlaps(c.bbox, t.bbox)
                                                                     for t in taken)], captions, columns)
        chosen.update(extra)
    for cap in [c for c in table_caps if c not in chosen]:
        if (cand := _caption_area_structure(doc, cap, captions, list(chosen.values()))) is not None:
            chosen[cap] = cand
    tables: dict[str, list[Table]] = {}
    for cap in sorted(table_caps, key=lambda c: (c.page, c.bbox[1])):
        if cap not in chosen:
            log.warning("%s: no table grid found for %r on page %d", path, cap.text[:60], cap.page)
            continue
        parts = tables_under_caption(cap, chosen[cap], doc, captions)
        if regions is not None and chosen[cap].bbox:
            regions.setdefault(cap.page, []).append(tuple(round(v, 2) for v in chosen[cap].bbox))
        key = cap.label or str(cap.number)
        if key in tables:
            _append_continued(tables[key], parts)
        else:  # a continued part whose first part the document does not hold (an excerpt) is the table
            tables[key] = parts
    return [t for key in tables for t in tables[key]]


def _value_cells(grid: list[list[str]]) -> int:
    return sum(1 for row in grid for cell in row[1:] if parse_number(cell) is not None)


def _prefer_areas_with_values(chosen: dict[Caption, Candidate], fallback: list[Candidate],
                              captions: list[Caption], columns: dict) -> None:
    """A grid cut between two rules can hold only a table's header (rules over and under the column
    heads, none under the body): a chosen grid with (almost) no value cell gives way to the words of the
    caption's area when those hold values and take in that grid."""
    for cap, cand in list(chosen.items()):
        if _value_cells(cand.grid) > MAX_HEAD_VALUES or cand.extractor in RULED_GRIDS:
            continue
        wider = [(score, i, f) for i, f in enumerate(fallback) if f.page == cap.page
                 and _value_cells(f.grid) >= MIN_AREA_VALUES and _contains(f.bbox, cand.bbox)
                 and (score := _score(f, cap, columns.get(id(cap)))) is not None
                 and not any(o.page == f.page and o is not cand and overlaps(o.bbox, f.bbox) for o in chosen.values())]
        if wider:
            chosen[cap] = min(wider)[2]


def _contains(outer, inner, slack: float = 3.0) -> bool:
    return (outer[0] - slack <= inner[0] and outer[1] - slack <= inner[1]
            and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


def _caption_area_structure(doc: pymupdf.Document, cap: Caption, captions: list[Caption],
                            taken: list[Candidate]) -> Candidate | None:
    """For a caption no extractor gave a grid (a small ruled table, a unit line between caption and
    table): the area just below, else just above it, when the word reader finds value rows there."""
    page = doc[cap.page - 1]
    breaks = tuple((c.bbox[1] + c.bbox[3]) / 2 for c in captions if c.page == cap.page)
    above, below = areas_around(page, (cap.bbox[1] + cap.bbox[3]) / 2, breaks)
    areas = [a for a in (below, above) if a[3] - a[1] > 20]
    for area in areas:
        if any(t.page == cap.page and overlaps(area, t.bbox) for t in taken):
            continue
        read = read_structure(page, within_column(page, area, cap.bbox), cap.text, cap.bbox)
        if read and sum(len(t.rows) for t in read) >= 2:
            return Candidate(cap.page, area, [], "structure-words", structure=read)
    return None


def _append_continued(parts_so_far: list[Table], parts: list[Table]) -> None:
    """A continued part's rows go under the part before it when the columns match (a repeated
    header row is not a row); a part with other columns stays a part of its own."""
    for part in parts:
        first = parts_so_far[-1]
        if len(part.column_paths) != len(first.column_paths):
            parts_so_far.append(part.model_copy(update={"id": f"{first.id}_p{part.page}"}))
            continue
        keep = [i for i, row in enumerate(part.rows) if row != first.header]
        first.rows.extend(part.rows[i] for i in keep)
        first.numbers.extend(part.numbers[i] for i in keep)
        first.row_paths.extend(part.row_paths[i] if i < len(part.row_paths) else part.rows[i][:1] for i in keep)
