"""A table's structure as its authors laid it out: header levels with their spans (each column gets
a path such as ('Accuracy (%)', 'dev', '5-shot')), stub columns and row groups (each row gets a path
such as ('Neural models', 'LSTM')), the unit the document states, and stacked sub-tables split apart.

Read from word geometry inside the table's area (`table_words`): a phrase printed over several
columns spans them when vertical rules bound it, a rule under it (booktabs' cmidrule) spans them,
or it stands centred over them; a label-only line in the body heads a group of rows; a body line
that restarts with its own header row starts a sub-table.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import pymupdf

from mmeb_assets.ingestion.table_header import read_header
from mmeb_assets.ingestion.table_body import MISSING_MARK, body_parts
from mmeb_assets.ingestion.table_units import (caption_unit, cell_unit, note_unit, path_unit, unit_line,
                                               units_of_columns)
from mmeb_assets.ingestion.table_bands import HEAD_NUMBER, merge_ruled_bands, split_at_rules
from mmeb_assets.ingestion.table_words import (Line, column_anchors, is_value, line_cells, page_lines, ruled_anchors,
                                               rules_near,
                                               value_lines)
from mmeb_assets.schema.source import Table

CAPTION_START = re.compile(r"^(?:Table|TABLE|tABLE|Exhibit|EXHIBIT)\s*\d+(?:[.\-–]\s?\d+)?\s*[:.\-–—]")
GROW_UP = 45.0  # points above a candidate whose caption is below it: header rows, a block above a midrule


@dataclass
class ReadTable:
    """One printed table (or one stacked sub-table) read from the page."""

    header_rows: list[list[str]]
    column_paths: list[list[str]]
    stub_columns: int
    rows: list[list[str]]
    row_paths: list[list[str]]
    column_units: list[str]
    unit: str
    value_line_share: float = 1.0  # of the printed lines in the area (caption and unit lines aside), those with values


@dataclass(frozen=True)
class CellPath:
    """Where a value cell sits: its row's path, its column's path and its unit."""

    row: int
    col: int
    value: str
    row_path: tuple[str, ...]
    column_path: tuple[str, ...]
    unit: str


def table_area(cand_bbox: tuple, caption_bbox: tuple, ceiling: float = 0.0, horizontal: list[tuple] = ()) -> tuple:
    """The candidate's box, grown up to a caption printed just above it (the extractor may have cut
    the header or a unit line between the two), or up by a few lines when the caption is below (the
    header rows an extractor left out; `_header_lines` stops at prose and rules), and further up to
    the top of the rules of the candidate's width stacked above it (an extractor that kept only the
    rows under a double rule). It never grows above `ceiling`: the bottom of the page's nearest
    other caption above (another table's end)."""
    x0, y0, x1, y1 = cand_bbox
    if caption_bbox[3] <= y0 + 3 and y0 - caption_bbox[3] < 70:
        y0 = caption_bbox[3] + 0.5
    elif caption_bbox[1] >= y1 - 3:
        y0 = max(min(y0 - GROW_UP, _ruled_top(horizontal, cand_bbox) - 2), ceiling, 0)
    return (x0 - 2, y0, x1 + 2, y1 + 1)


def ruled_width(page: pymupdf.Page, area: tuple, horizontal: list[tuple]) -> tuple:
    """The area widened to its own rules when its edge cuts a word printed between them in two: an
    extractor that boxed the values had cut the header 'Number of papers', printed wider than them,
    to 'Number of pap'. Its own rules cover most of the area's width and are not much wider (a
    page-wide line is no table rule)."""
    x0, y0, x1, y1 = area
    width = x1 - x0
    own = [(a, y, b) for a, y, b in horizontal
           if y0 - 3 <= y <= y1 + 3 and min(b, x1) - max(a, x0) >= 0.6 * width and b - a <= 1.5 * width]
    if len(own) < 2:
        return area
    top, bottom = min(y for _a, y, _b in own), max(y for _a, y, _b in own)
    cut = [w for w in page.get_text("words") if top < (w[1] + w[3]) / 2 < bottom
           and (w[0] < x1 - 1 < w[2] - 1 or w[0] + 1 < x0 + 1 < w[2])]
    if not cut:
        return area
    return (min(x0, *(a - 2 for a, _y, _b in own)), y0, max(x1, *(b + 2 for _a, _y, b in own)), y1)


def _ruled_top(horizontal: list[tuple], bbox: tuple) -> float:
    """The highest of the rules as wide as the box that stand above it one close above another."""
    x0, top, x1, _y1 = bbox
    for y in sorted((y for a, y, b in horizontal if abs(a - x0) < 8 and abs(b - x1) < 8 and y < top), reverse=True):
        if top - y > GROW_UP:
            break
        top = y
    return top


def read_structure(page: pymupdf.Page, area: tuple, caption_text: str, caption_bbox: tuple) -> list[ReadTable]:
    """The table in `area` as one ReadTable per (sub-)table; [] when no value rows are found."""
    lines = _after_caption([l for l in page_lines(page, area) if not _inside(l, caption_bbox)
                            and not CAPTION_START.match(l.text)], caption_text, caption_bbox)
    horizontal, vertical = rules_near(page, area)
    lines = merge_ruled_bands(split_at_rules(lines, vertical), horizontal, vertical)
    unit = caption_unit(caption_text) or _unit_line_beside(page, area, caption_bbox, lines)
    body = _value_rows(lines)
    first = body[0] if body else len(lines)
    units = [(i, u) for i, line in enumerate(lines[:first]) if len(line.phrases) == 1 and (u := unit_line(line.text))]
    if units:  # '[In thousands]' printed between the caption and the header, or among the header lines
        unit = unit or units[0][1]
        dropped = {i for i, _u in units}
        lines = [line for i, line in enumerate(lines) if i not in dropped]
        body = _value_rows(lines)
    if not body:
        return []
    anchors = ruled_anchors(vertical, lines, body) or column_anchors(lines, body)
    if len(anchors) < 2:
        return []
    stub = _stub_columns(lines, body, anchors)
    width = anchors[-1][1] - anchors[0][0]
    # the table's top rule: the highest rule across it (a grid rules its header rows too, and a
    # booktabs table has a rule under its header; neither ends the header)
    wide = [y for x0, y, x1 in horizontal if x1 - x0 > 0.8 * width and y < lines[body[0]].y0]
    wide = [min(wide)] if wide else []
    parts = body_parts(lines, body, anchors, stub, wide, ([y for _x0, y, _x1 in horizontal], vertical))
    unit = unit or _unit_in_note(page, area, lines[body[-1]].y1)
    out = []
    for part in parts:
        paths, header_rows = read_header(part.header, anchors, stub, horizontal, vertical)
        column_units, table_unit = units_of_columns(paths, caption_text, unit)
        out.append(ReadTable(header_rows, paths, stub, part.rows, part.row_paths, column_units, table_unit,
                             _filled_share(lines, body, stub)))
    return [t for t in out if t.rows]


def _unit_in_note(page: pymupdf.Page, area: tuple, bottom: float) -> str:
    """The unit a note just under the table's last row states ('These figures are for percentages
    ...'), looked for in the first lines below it."""
    below = page_lines(page, (area[0], bottom + 1, area[2], bottom + 60))[:3]
    return next((u for line in below if (u := note_unit(line.text))), "")


def _value_rows(lines: list[Line]) -> list[int]:
    """Indices of the value rows: not a leading header row of years ('Sector 2023 2024 2025') or of
    numbered heads ('K 1 2 3'), nor a caption's last line ('1996 through fall 2021')."""
    body = value_lines(lines)
    while len(body) > 1 and (_years_only(lines[body[0]]) and not all(_years_only(lines[i]) for i in body)
                             or _numbered_heads(lines[body[0]]) or _out_of_line(lines, body)
                             or _header_words(lines, body) or _numbers_over_words(lines, body[0])):
        body = body[1:]
    while body and body[0] > 0 and _gap_row(lines[body[0] - 1]):
        body = [body[0] - 1, *body]  # rows above the first value whose cells print only 'NA', '-'
    return body


def _gap_row(line: Line) -> bool:
    """A labelled row with no data in it: its label, then only no-data marks ('NA', '-')."""
    return (len(line.phrases) >= 3 and not line.phrases[0].numeric and not MISSING_MARK.match(line.phrases[0].text)
            and all(MISSING_MARK.match(p.text) for p in line.phrases[1:]))


def _words_after_label(line: Line) -> int:
    return sum(1 for p in line.phrases[1:] if not p.numeric and sum(ch.isalpha() for ch in p.text) >= 2
               and not MISSING_MARK.match(p.text))


def _header_words(lines: list[Line], body: list[int]) -> bool:
    """The first 'value row' is a header line whose column labels carry numbers ('Less than $10,000',
    '$15,000– 29,999', 'or more'): two or more word cells beside its label, where the rows below have
    none."""
    if len(body) < 4 or _words_after_label(lines[body[0]]) < 2:
        return False
    rest = sorted(_words_after_label(lines[i]) for i in body[1:])
    return rest[len(rest) // 2] == 0


def _out_of_line(lines: list[Line], body: list[int]) -> bool:
    """The first 'value row' is a line of prose above the table ('In Table 8 and Table 9 we ...'):
    none of its numbers stands in a column where the numbers of the rows below it stand."""
    if len(body) < 4:
        return False
    below = [p for i in body[1:] for p in lines[i].phrases[1:] if p.numeric]
    mine = [p for p in lines[body[0]].phrases[1:] if p.numeric]
    return bool(below) and not any(min(p.x1, q.x1) - max(p.x0, q.x0) > -2 for p in mine for q in below)


def _filled_share(lines: list[Line], body: list[int], stub: int) -> float:
    """Of the printed lines, those with values or with only no-data marks where values stand ('NA')."""
    marked = sum(1 for i, line in enumerate(lines) if i not in body and line.phrases[stub:]
                 and all(MISSING_MARK.match(p.text) for p in line.phrases[stub:]))
    return (len(body) + marked) / len(lines)


def _numbers_over_words(lines: list[Line], i: int) -> bool:
    """A header line whose only numbers head columns, each with a word under it in the next line
    ('1' over 'Grade', '3' over 'Grade'; '2007' over 'Total'): not a row of values."""
    numbers = [p for p in lines[i].phrases if p.numeric]
    if i + 1 >= len(lines) or not numbers or not all(HEAD_NUMBER.match(p.text) for p in numbers):
        return False
    under = lines[i + 1].phrases
    if any(p.numeric for p in under):
        return False
    return all(any(min(p.x1, q.x1) - max(p.x0, q.x0) > 0 for q in under) for p in numbers)


def _unit_line_beside(page: pymupdf.Page, area: tuple, caption_bbox: tuple, lines: list[Line]) -> str:
    """A unit line printed under a caption set flush left, outside the box of the table centred
    below it ('Values in GWh'): read across the caption's width, between the caption and the table."""
    if not lines or caption_bbox[3] > area[1] + 3 or caption_bbox[0] >= area[0]:
        return ""
    for line in page_lines(page, (caption_bbox[0] - 2, caption_bbox[3] + 0.5, area[2], area[3])):
        if len(line.phrases) > 1:
            return ""  # the table's header: no unit line above it
        if unit := unit_line(line.text):
            return unit
    return ""


def _after_caption(lines: list[Line], caption_text: str, caption_bbox: tuple) -> list[Line]:
    """Without the caption's own further lines printed as a block of their own: while the caption
    has not ended its sentence, a line right under it within its width that starts in lower case
    carries it on ('schools, by control of school: Fall 1996 through fall 2021'), when it is one run of
    words (a header row of lower-case column names has column gaps)."""
    out = list(lines)
    bottom = caption_bbox[3]
    while out and not caption_text.rstrip().endswith((".", ":")) and 0 <= out[0].y0 - bottom < 0.8 * out[0].height \
            and out[0].x0 >= caption_bbox[0] - 2 and out[0].text[:1].islower() and _one_run(out[0]):
        bottom = out[0].y1
        caption_text = f"{caption_text} {out[0].text}"
        out = out[1:]
    return out


def _one_run(line: Line) -> bool:
    return all(b.x0 - a.x1 < line.height for a, b in zip(line.phrases, line.phrases[1:]))


def _inside(line: Line, bbox: tuple) -> bool:
    return bbox[1] - 1 <= (line.y0 + line.y1) / 2 <= bbox[3] + 1 and line.x0 >= bbox[0] - 2


YEAR_LABEL = re.compile(r"^(?:19|20)\d\d(?:\s?[-–/]\s?(?:19|20)?\d\d)?(?:[a-z]|[*†‡]{1,3})?$")  # "1990**": a footnoted year


def _stub_columns(lines: list[Line], body: list[int], anchors) -> int:
    """Leading columns whose body cells are mostly words, or years: they name the row."""
    n = 0
    rows = [line_cells(lines[i], anchors) for i in body]
    for j in range(len(anchors) - 1):
        filled = [row[j] for row in rows if row[j]]
        labels = sum(1 for c in filled if not is_value(c) or (j == 0 and YEAR_LABEL.match(c)))
        if j == 0 and not filled:
            n += 1  # block labels printed only on lines of their own between the rows ('DP', 'L2')
        elif filled and labels > len(filled) / 2:
            n += 1
        else:
            break
    return n


def _years_only(line: Line) -> bool:
    values = [p for p in line.phrases[1:] if p.numeric] or [p for p in line.phrases if p.numeric]
    return bool(values) and all(YEAR_LABEL.match(p.text) for p in values)


def _numbered_heads(line: Line) -> bool:
    """Column heads numbered 1, 2, 3, ... ('Year Total PK K 1 2 3 4'): three or more consecutive small
    integers and nothing else numeric."""
    values = [p.text for p in line.phrases[1:] if p.numeric]
    if len(values) < 3 or not all(v.isdigit() and len(v) <= 2 for v in values):
        return False
    numbers = [int(v) for v in values]
    return numbers == list(range(numbers[0], numbers[0] + len(numbers)))


def cell_paths(table: Table) -> list[CellPath]:
    """Every value cell of a results table with its row path, column path and unit."""

    if table.kind != "results":
        return []
    out = []
    signs = _first_signs(table)
    for r, row in enumerate(table.rows):
        row_path = tuple(table.row_paths[r]) if r < len(table.row_paths) else tuple(row[:1])
        for c, value in enumerate(row):
            if c < table.stub_columns or not is_value(value):
                continue
            path = tuple(table.column_paths[c]) if c < len(table.column_paths) else ()
            unit = (cell_unit(value) or (table.column_units[c] if c < len(table.column_units) else "")
                    or signs.get(c) or path_unit(list(row_path)) or table.unit)
            out.append(CellPath(r, c, value, row_path, path, unit))
    return out


def _first_signs(table: Table) -> dict[int, str]:
    """Columns whose first value carries a currency sign ('$33,200' over '31,200'): statistical
    tables print the sign once, on a column's first row."""
    out: dict[int, str] = {}
    for c in range(table.stub_columns, max((len(r) for r in table.rows), default=0)):
        first = next((row[c] for row in table.rows if c < len(row) and is_value(row[c])), "")
        if first and first[0] in "$€£":
            out[c] = first[0]
    return out
