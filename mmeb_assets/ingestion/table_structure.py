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
from dataclasses import dataclass, field

import pymupdf

from mmeb_assets.ingestion.table_header import read_header
from mmeb_assets.ingestion.table_indent import block_heads, indent_paths
from mmeb_assets.ingestion.table_units import caption_unit, cell_unit, path_unit, scoped_column_units, unit_line
from mmeb_assets.ingestion.table_words import (Line, column_anchors, is_value, line_cells, page_lines, rules_near,
                                               value_lines)
from mmeb_assets.schema.source import Table

CAPTION_START = re.compile(r"^(?:Table|TABLE)\s*\d+(?:[.\-–]\s?\d+)?\s*[:.\-–—]")
HEADER_GAP = 1.5  # line heights of blank space that end a header (the prose above is no header line)
GROW_UP = 45.0  # points above a candidate whose caption is below it: header rows, a block above a midrule
FOOTNOTE = re.compile(r"^(?:note|notes|source|sources|\*|†|‡|[a-z]\s|\d+\s[A-Z])", re.I)


@dataclass
class Part:
    header: list[Line] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    groups: list[list[str]] = field(default_factory=list)
    row_ys: list[float] = field(default_factory=list)
    block_lines: list[tuple[float, float, str]] = field(default_factory=list)  # first stub column's text
    row_x0s: list[tuple[float, float] | None] = field(default_factory=list)  # edges of each row's own label
    row_paths: list[list[str]] = field(default_factory=list)

    def finish(self, stub: int) -> None:
        """Stub cells printed once for a block of rows reach every row of the block, and each row's
        path is its groups, then its labels."""
        if stub > 1 and self.block_lines and len(self.block_lines) < len(self.rows):
            for row, label in zip(self.rows, block_labels(self.row_ys, self.block_lines)):
                row[0] = label
        groups, spans = self.groups, self.row_x0s
        if stub == 1:
            groups, spans = _under_block_heads(self.groups, self.row_x0s, self.row_ys, [row[0] for row in self.rows])
        parents = (indent_paths(spans, [row[0] for row in self.rows], groups) if stub == 1
                   else [[] for _ in self.rows])
        self.row_paths = [[*g, *up, *[c for c in row[:stub] if c]]
                          for g, up, row in zip(groups, parents, self.rows)]


def _under_block_heads(groups: list[list[str]], spans: list, row_ys: list[float], labels: list[str]):
    """Groups and label edges with each block head's label over the rows of its block; the heads
    themselves take no part in the indentation (their labels are set apart, not indented)."""
    heads = block_heads(spans, row_ys)
    if not any(heads):
        return groups, spans
    out_groups, out_spans, head = [], [], None
    for group, span, label, is_head in zip(groups, spans, labels, heads):
        if is_head:
            head = label
        out_groups.append([*group] if is_head or head is None else [*group, head])
        out_spans.append(None if is_head else span)
    return out_groups, out_spans


def block_labels(row_ys: list[float], lines: list[tuple[float, float, str]]) -> list[str]:
    """The first stub column's label of each row when it is printed once per block of rows, over
    one or several lines ('Frequency of opportunity' / 'occurrence in general population'): lines
    that carry a label on (lower case, a bracket) are one block; a block printed on its first row's
    line reaches down to the next block, one printed between its rows goes to the rows nearest it."""
    blocks: list[list] = []
    for y0, y1, text in sorted(lines):
        if blocks and y0 - blocks[-1][1] < 1.2 * (y1 - y0) and text[:1].islower() | text.startswith("("):
            blocks[-1][1], blocks[-1][2] = y1, f"{blocks[-1][2]} {text}"
        else:
            blocks.append([y0, y1, text])
    top_aligned = abs((blocks[0][0] + blocks[0][1]) / 2 - row_ys[0]) < 3
    out = []
    for y in row_ys:
        if top_aligned:
            above = [b for b in blocks if b[0] <= y + 3]
            out.append(above[-1][2] if above else "")
        else:
            out.append(min(blocks, key=lambda b: (abs((b[0] + b[1]) / 2 - y), -b[0]))[2])
    return out


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


def table_area(cand_bbox: tuple, caption_bbox: tuple, ceiling: float = 0.0) -> tuple:
    """The candidate's box, grown up to a caption printed just above it (the extractor may have cut
    the header or a unit line between the two), or up by a few lines when the caption is below (the
    header rows an extractor left out; `_header_lines` stops at prose and rules). It never grows
    above `ceiling`: the bottom of the page's nearest other caption above (another table's end)."""
    x0, y0, x1, y1 = cand_bbox
    if caption_bbox[3] <= y0 + 3 and y0 - caption_bbox[3] < 70:
        y0 = caption_bbox[3] + 0.5
    elif caption_bbox[1] >= y1 - 3:
        y0 = max(y0 - GROW_UP, ceiling, 0)
    return (x0 - 2, y0, x1 + 2, y1 + 1)


def read_structure(page: pymupdf.Page, area: tuple, caption_text: str, caption_bbox: tuple) -> list[ReadTable]:
    """The table in `area` as one ReadTable per (sub-)table; [] when no value rows are found."""
    lines = _after_caption([l for l in page_lines(page, area) if not _inside(l, caption_bbox)
                            and not CAPTION_START.match(l.text)], caption_text, caption_bbox)
    unit = caption_unit(caption_text)
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
    anchors = column_anchors(lines, body)
    if len(anchors) < 2:
        return []
    stub = _stub_columns(lines, body, anchors)
    horizontal, vertical = rules_near(page, area)
    width = anchors[-1][1] - anchors[0][0]
    # the table's top rule: the highest rule across it (a grid rules its header rows too, and a
    # booktabs table has a rule under its header; neither ends the header)
    wide = [y for x0, y, x1 in horizontal if x1 - x0 > 0.8 * width and y < lines[body[0]].y0]
    wide = [min(wide)] if wide else []
    parts = _body_parts(lines, body, anchors, stub, wide)
    out = []
    for part in parts:
        paths, header_rows = read_header(part.header, anchors, stub, horizontal, vertical)
        column_units, table_unit = _column_units(paths, caption_text, unit)
        out.append(ReadTable(header_rows, paths, stub, part.rows, part.row_paths, column_units, table_unit,
                             len(body) / len(lines)))
    return [t for t in out if t.rows]


def _column_units(paths: list[list[str]], caption: str, unit: str) -> tuple[list[str], str]:
    """Each column's unit from its headers, else from the caption's measure that heads it; the
    caption's unit stays the whole table's only when it is not scoped to some of its columns."""
    scoped = scoped_column_units(caption, paths)
    units = [path_unit(p) or scoped.get(j, "") for j, p in enumerate(paths)]
    return units, "" if unit and unit in scoped.values() else unit


def _value_rows(lines: list[Line]) -> list[int]:
    """Indices of the value rows: not a leading header row of years ('Sector 2023 2024 2025') or of
    numbered heads ('K 1 2 3'), nor a caption's last line ('1996 through fall 2021')."""
    body = value_lines(lines)
    while len(body) > 1 and (_years_only(lines[body[0]]) and not all(_years_only(lines[i]) for i in body)
                             or _numbered_heads(lines[body[0]]) or _out_of_line(lines, body)
                             or _header_words(lines, body)):
        body = body[1:]
    return body


MISSING_MARK = re.compile(r"^\(?(?:n\.?a\.?|n/a|na|nd|x|s|–|—|-|\.+)\)?$", re.I)


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


YEAR_LABEL = re.compile(r"^(?:19|20)\d\d(?:\s?[-–/]\s?(?:19|20)?\d\d)?[a-z*]?$")


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


def _body_parts(lines: list[Line], body: list[int], anchors, stub: int, wide: list[float]) -> list[Part]:
    """Walk the lines from the first value row: value rows, wrapped labels, group rows, restarted
    headers (a new part) and the notes under the table (the end)."""
    first = body[0]
    header = _header_lines(lines[:first], wide)
    body_set = set(body)
    state = {"group": [], "pending": []}
    while len(header) > 1 and _stub_only(header[-1], anchors, stub) and not _stub_only(header[-2], anchors, stub):
        state["group"] = [header.pop().text]  # a group's label right under the header, above its first row
    if len(header) > 1 and not state["group"] and _centred_title(header[-1], anchors) and any(
            _centred_title(lines[j], anchors) for j in range(first + 1, len(lines)) if j not in body_set):
        state["group"] = [header.pop().text]  # 'Tiny' centred over the first block, as 'Short' over the next
    parts = [Part(header=header)]
    heights = sorted(l.height for l in lines) or [10.0]
    h = heights[len(heights) // 2]
    i = first
    while i < len(lines):
        line = lines[i]
        gap = line.y0 - lines[i - 1].y1 if i > 0 else 0
        if i > first and gap > 2.6 * h + 4:
            break
        cells = line_cells(line, anchors)
        if i in body_set and not any(cells[max(stub, 1):]):
            body_set.discard(i)  # its only number is in its label ('Highest degree earned by 2003')
        if i in body_set:
            _add_row(parts[-1], cells, stub, state["group"], state["pending"], line)
            state["pending"], state["heading"] = [], False
            i += 1
            continue
        if not any(j in body_set for j in range(i + 1, min(i + 12, len(lines)))):
            break
        used = [j for j, c in enumerate(cells) if c]
        upcoming = [j for j, c in enumerate(line_cells(lines[i + 1], anchors)) if c] if i + 1 not in body_set else []
        if len([j for j in used if j >= stub]) >= 2 or (
                [j for j in used if j >= stub] and len([j for j in upcoming if j >= stub]) >= 2):
            # a header row restarts (a spanning header above it, perhaps): a stacked sub-table
            header, i = _collect_header(lines, i, body_set)
            parts.append(Part(header=header))
            state = {"group": [], "pending": []}
            continue
        if FOOTNOTE.match(line.text) and not (used and max(used) < max(stub, 1)):
            break
        labels_next = i + 1 in body_set and lines[i + 1].y0 - line.y1 < 0.8 * h and not line_cells(lines[i + 1], anchors)[0]
        _label_line(parts[-1], state, cells, used, stub, (gap, h, labels_next, (line.y0, line.y1, cells[0])))
        i += 1
    for part in parts:
        part.finish(stub)
    return parts


def _centred_title(line: Line, anchors) -> bool:
    """One short phrase centred across the table: the title of a block of rows ('Tiny', 'Short')."""
    if len(line.phrases) != 1 or line.phrases[0].numeric or len(line.phrases[0].text.split()) > 4:
        return False
    left, right = anchors[0][0], anchors[-1][1]
    return abs(line.phrases[0].centre - (left + right) / 2) < 0.1 * (right - left)


def _label_line(part: Part, state: dict, cells: list[str], used: list[int], stub: int, geometry: tuple) -> None:
    """A line without values: a block label of a multirow stub column, a wrapped label, the label
    of the value row just below it, or a group heading (in the stub or across the columns)."""
    gap, h, labels_next, _where = geometry
    if not (used and max(used) < max(stub, 1) or stub == 0):
        state["group"] = [" ".join(c for c in cells if c)]  # one phrase across the columns: a title
        return
    text = " ".join(c for c in cells[:max(stub, 1)] if c)
    if state.get("heading") and text[:1].islower() and gap < 0.7 * h and state["group"]:
        state["group"] = [*state["group"][:-1], f"{state['group'][-1]} {text}"]  # a heading wrapped
        return
    if stub > 1 and used == [0]:
        part.block_lines.append(geometry[3])
    elif _continues(part, text, gap, h):
        _extend_label(part, text, stub)
    elif labels_next:
        state["pending"].append(text)
    else:
        state["group"] = [text]
        state["heading"] = True


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


def _stub_only(line: Line, anchors, stub: int) -> bool:
    return stub > 0 and all(max(range(len(anchors)), key=lambda j: min(anchors[j][1], p.x1) - max(anchors[j][0], p.x0)) < stub
                            for p in line.phrases)


def _header_lines(lines: list[Line], rules: list[tuple] = ()) -> list[Line]:
    """The header lines just above the first value row: up to a wide gap, a line of running prose,
    or the table's top rule."""
    kept: list[Line] = []
    for line in reversed(lines):
        if kept and kept[-1].y0 - line.y1 > HEADER_GAP * max(line.height, 6) + 2:
            break
        if any(len(p.text.split()) >= 9 for p in line.phrases):
            break
        if kept and any(line.y1 - 1 <= y <= kept[-1].y0 + 1 for y in rules):
            break
        kept.append(line)
    return list(reversed(kept))


def _collect_header(lines: list[Line], start: int, body_set: set[int]) -> tuple[list[Line], int]:
    i = start
    while i < len(lines) and i not in body_set:
        i += 1
    return lines[start:i], i


def _add_row(part: Part, cells: list[str], stub: int, group: list[str], pending: list[str], line: Line) -> None:
    labels = cells[:stub]
    if pending and stub:
        j = next((k for k in range(stub - 1, -1, -1) if not labels[k]), stub - 1)
        labels[j] = " ".join([*pending, labels[j]]).strip()
    if part.rows and stub > 2:  # inner stub cells spanning several rows are printed on the first of them
        previous = part.rows[-1]
        for j in range(1, stub - 1):
            if not labels[j] and any(labels[j + 1:]):
                labels[j] = previous[j]
    row = [*labels, *cells[stub:]] if stub else cells
    part.rows.append(row)
    part.groups.append(list(group))
    part.row_ys.append((line.y0 + line.y1) / 2)
    own_label = labels and labels[0] and not pending and line.phrases
    part.row_x0s.append((line.phrases[0].x0, line.phrases[0].x1) if own_label else None)
    if stub > 1 and labels[0]:
        part.block_lines.append((line.y0, line.y1, labels[0]))


def _continues(part: Part, text: str, gap: float, h: float) -> bool:
    """A label-only line that carries on the label above ('Fine-tuned on' / 'co-citation')."""
    if not part.rows or gap > 0.7 * h:
        return False
    labels = [c for c in part.rows[-1] if c]
    previous = labels[0] if labels else ""
    return text[:1].islower() or previous.endswith(("-", ",", "/", "(", "and", "of", "on", "with"))


def _extend_label(part: Part, text: str, stub: int) -> None:
    row = part.rows[-1]
    j = max((k for k in range(max(stub, 1)) if row[k]), default=0)
    row[j] = f"{row[j][:-1]}{text}" if row[j].endswith("-") and text[:1].islower() else f"{row[j]} {text}".strip()


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
