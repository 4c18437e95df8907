"""The learned reader's grid (`table_model.read_grid`) read as the rules read a table, and where its
reading replaces the rules' one (`structure_for`, called by `tables.tables_under_caption`).

Why here and not in the rules' modules: the model's grid already has rows, columns and spans, so only
the interpretation the rules apply after their own grid is needed (header rows above the first row of
values, column paths, stub columns, row groups and indentation, units), and the rules stay untouched
when the model is not installed.
"""
from __future__ import annotations

import logging
import re

import pymupdf

from mmeb_assets.ingestion.numbers import parse_number
from mmeb_assets.ingestion.table_body import MISSING_MARK
from mmeb_assets.ingestion.table_header import _join as join_wrapped
from mmeb_assets.ingestion.table_indent import indent_paths
from mmeb_assets.ingestion.table_model import ModelGrid, available, model_mode, read_grid
from mmeb_assets.ingestion.table_structure import YEAR_LABEL, ReadTable
from mmeb_assets.ingestion.table_units import caption_unit, unit_line, units_of_columns
from mmeb_assets.ingestion.table_words import is_value

log = logging.getLogger(__name__)
SPREAD_MARK = re.compile(r"[±˙(/]")  # '21.88 ± 0.31', '3.85 (28)': one value with its spread (as tables.py)


def _values(row: list[str]) -> list[str]:
    return [c for c in row[1:] if is_value(c)]


def _heads_columns(values: list[str]) -> bool:
    """Values that head columns: years, or column numbers 1, 2, 3, ..."""
    numbers = [int(v) for v in values if v.isdigit() and len(v) <= 2]
    return (all(YEAR_LABEL.match(v) for v in values)
            or len(numbers) == len(values) >= 3 and numbers == list(range(numbers[0], numbers[0] + len(numbers))))


def _header_count(grid: ModelGrid) -> int:
    """Rows above the first row of values (a row of years or column numbers only heads columns),
    and down to the bottom of any cell that starts among them and spans further."""
    n = next((i for i, row in enumerate(grid.rows) if _values(row) and not _heads_columns(_values(row))),
             len(grid.rows))
    n = max([n] + [r + rs for (r, _c), (rs, _cs) in grid.spans.items() if r < n])
    while n > 1 and grid.rows[n - 1][0] and not any(grid.rows[n - 1][1:]) and grid.owner(n - 1, 1)[0] == n - 1:
        n -= 1  # a label alone right above the values heads a group of rows, not the columns
    return n


def _stub_count(body: list[list[str]], width: int) -> int:
    """Leading columns whose body cells are mostly words (or years): they name the row. A no-data
    mark ('NA', '-') is neither."""
    n = 0
    for j in range(width - 1):
        filled = [row[j] for row in body if row[j] and not MISSING_MARK.match(row[j])]
        labels = sum(1 for c in filled if not is_value(c) or (j == 0 and YEAR_LABEL.match(c)))
        if (j == 0 and not filled) or (filled and labels > len(filled) / 2):
            n += 1
        else:
            break
    return n


def _wraps(grid: ModelGrid, r: int) -> bool:
    """Header row r + 1 carries on the lines of row r (the model read a two-line head as two rows):
    printed close under it (as the rules' `_close`), in no column row r leaves empty, neither row
    with a cell spanning columns."""
    upper, lower = grid.ys[r], grid.ys[r + 1]
    if upper is None or lower is None or lower[0] - upper[1] >= 0.6 * upper[2]:
        return False
    spans = any(r0 in (r, r + 1) and cs > 1 for (r0, _c), (_rs, cs) in grid.spans.items())
    return not spans and all(grid.rows[r][j] for j, text in enumerate(grid.rows[r + 1]) if text)


def _column_paths(grid: ModelGrid, header: list[int], stub: int, width: int) -> list[list[str]]:
    """Each value column's path: the header cells over it, top down, a cell spanning rows once, a
    row that wraps the row above (`_wraps`) joined to it."""
    wraps = {r + 1 for r in header if r + 1 in header and _wraps(grid, r)}
    paths = []
    for j in range(width):
        path: list[str] = []
        for r, c in dict.fromkeys(grid.owner(r, j) for r in header):
            if text := grid.rows[r][c]:
                if r in wraps and path and (r - 1, c) == grid.owner(r - 1, j):
                    path[-1] = join_wrapped(path[-1], text)
                else:
                    path.append(text)
        paths.append([] if j < stub else path)
    return paths


def _heads_group(grid: ModelGrid, r: int, first: int) -> bool:
    """A row with a label and no values heads the rows under it, unless it sits among data rows as
    one of them ('Greece' with its cells blank, as the rules' `_empty_row`): rows with values just
    above and below, the same left edge, no more space above than below, no label spanning."""
    if grid.spans.get((r, 0), (1, 1))[1] > 1 or r <= first or r + 1 >= len(grid.rows):
        return True
    if not any(grid.rows[r - 1][1:]) or not any(grid.rows[r + 1][1:]):
        return True
    edges = [grid.edges.get((k, 0)) for k in (r - 1, r, r + 1)]
    ys = grid.ys[r - 1:r + 2]
    if None in edges or None in ys or max(e[0] for e in edges) - min(e[0] for e in edges) > 1.5:
        return True
    return ys[1][0] - ys[0][1] > ys[2][0] - ys[1][1] + 0.3 * ys[1][2]


def model_structure(grid: ModelGrid, caption: str, unit: str = "", share: float = 1.0) -> ReadTable | None:
    """The model's grid as the rules' ReadTable: header rows above the first row of values, column
    paths from the spans, a unit line among the header rows as the table's unit, stub cells that
    span rows repeated on each, and a row with words only in the stub heading a group of rows."""
    n = _header_count(grid)
    if not grid.rows or n >= len(grid.rows):
        return None
    width = len(grid.rows[0])
    lone = [r for r in range(n) if sum(1 for c in grid.rows[r] if c) == 1]
    units = [(r, u) for r in lone if (u := unit_line(next(c for c in grid.rows[r] if c)))]
    unit = (units[0][1] if units else "") or unit or caption_unit(caption)
    header = [r for r in range(n) if r not in {r for r, _u in units}]
    body = [list(row) for row in grid.rows[n:]]
    stub = _stub_count(body, width)
    for i, row in enumerate(body):  # a stub cell spanning rows is printed once, on the first of them
        for j in range(stub):
            r0, c0 = grid.owner(n + i, j)
            if not row[j] and (r0, c0) != (n + i, j) and r0 >= n and c0 == j:
                row[j] = grid.rows[r0][c0]
    rows, groups, edges, group = [], [], [], []
    for i, row in enumerate(body):
        if not any(row[max(stub, 1):]) and _heads_group(grid, n + i, n):
            group = [c for c in row[:max(stub, 1)] if c] or group
            continue
        rows.append(row)
        groups.append(group)
        edges.append(grid.edges.get((n + i, 0)))
    parents = indent_paths(edges, [row[0] for row in rows], groups) if stub == 1 else [[] for _ in rows]
    row_paths = [[*g, *up, *dict.fromkeys(c for c in row[:stub] if c)] for g, up, row in zip(groups, parents, rows)]
    paths = _column_paths(grid, header, stub, width)
    column_units, table_unit = units_of_columns(paths, caption, unit)
    return ReadTable([grid.rows[r] for r in header], paths, stub, rows, row_paths, column_units, table_unit, share)


def table_box(page: pymupdf.Page, area: tuple, read: list[ReadTable], grid: list[list[str]],
              caption_bbox: tuple) -> tuple:
    """The rules' table inside `area`: from the first to the last printed line whose words are all
    words of the rules' own cells (the area may reach over prose above the table, or over a caption's
    last line)."""
    texts = [c for t in read for rows in (t.header_rows, t.rows, t.row_paths, t.column_paths) for row in rows
             for c in row] if read else [c for row in grid for c in row]
    tokens = {w for c in texts for w in str(c).split()}
    words = [w for w in page.get_text("words", clip=pymupdf.Rect(area))
             if not (caption_bbox[0] - 1 <= (w[0] + w[2]) / 2 <= caption_bbox[2] + 1
                     and caption_bbox[1] - 1 <= (w[1] + w[3]) / 2 <= caption_bbox[3] + 1)]
    lines: dict[tuple, list] = {}
    for w in words:
        lines.setdefault((w[5], w[6]), []).append(w)
    own = [ws for ws in lines.values() if all(w[4] in tokens for w in ws)]
    if not own:
        return area
    top, bottom = min(w[1] for ws in own for w in ws), max(w[3] for ws in own for w in ws)
    inside = [w for w in words if top - 0.5 <= (w[1] + w[3]) / 2 <= bottom + 0.5]
    return (min(w[0] for w in inside), top, max(w[2] for w in inside), bottom)


def _two_numbers(table: ReadTable) -> int:
    """Value cells holding two plain numbers: two columns read as one."""
    return sum(1 for row in table.rows for c in row[table.stub_columns:]
               if sum(parse_number(t) is not None for t in c.split()) >= 2 and not SPREAD_MARK.search(c))


def _filled(table: ReadTable) -> float:
    """The share of value-column cells with text: one column read as two leaves half of each empty."""
    cells = [c for row in table.rows for c in row[table.stub_columns:]]
    return sum(1 for c in cells if c.strip()) / max(len(cells), 1)


def disagree(read: list[ReadTable], model: ReadTable) -> bool:
    """Where the combined reader takes the model's structure: the rules and the model split the
    table into different columns (another count of value columns or of stub columns), and the
    model's split is no worse by two checks that need no labels: no more cells holding two numbers
    (merged columns), and value cells no emptier (a split column)."""
    if len(read) != 1:
        return False  # stacked sub-tables: the model reads one grid, the rules' parts stay
    rules = read[0]
    if (len(rules.column_paths), rules.stub_columns) == (len(model.column_paths), model.stub_columns):
        return False
    return _two_numbers(model) <= _two_numbers(rules) and _filled(model) >= _filled(rules)


def structure_for(page: pymupdf.Page, area: tuple, caption_text: str, caption_bbox: tuple,
                  read: list[ReadTable], grid: list[list[str]]) -> list[ReadTable]:
    """The structure a table keeps: the model's where the model loads and its mode (`model_mode`,
    by default 'combined') says so: always ('model'), or where the two disagree ('combined');
    otherwise the rules' `read` itself (the same object: callers tell the two apart by identity).
    A model failure keeps the rules' read."""
    mode = model_mode()
    if mode is None or not available():
        return read
    try:
        model_grid = read_grid(page, table_box(page, area, read, grid, caption_bbox))
    except Exception as exc:  # a page the model cannot read keeps the rules' structure
        log.warning("table model failed on page %d: %s", page.number + 1, exc)
        return read
    unit = read[0].unit if read else ""
    model = model_structure(model_grid, caption_text, unit, read[0].value_line_share if read else 1.0)
    if model is None or not model.rows:
        return read
    return [model] if mode == "model" or not read or disagree(read, model) else read
