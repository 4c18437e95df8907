"""Structure from an extractor's grid, for tables whose words alone do not give value rows (text in
ruled cells, rotated pages): header rows are those above the first row with a number; an empty
upper header cell belongs to the spanning header on its left; a label-only row heads a group."""
from __future__ import annotations

from mmeb_assets.ingestion.numbers import parse_number
from mmeb_assets.ingestion.table_structure import ReadTable
from mmeb_assets.ingestion.table_units import caption_unit, units_of_columns

MAX_HEADER_ROWS = 5
MIN_RULED_ROWS = 3


def _header_count(grid: list[list[str]]) -> int:
    first = next((i for i, row in enumerate(grid) if any(parse_number(c) is not None for c in row[1:])), len(grid))
    return first if 1 <= first <= MAX_HEADER_ROWS and first < len(grid) else 1


def _paths(header: list[list[str]], width: int) -> list[list[str]]:
    filled = [[cell.strip() for cell in row] + [""] * (width - len(row)) for row in header]
    for level, row in enumerate(filled[:-1]):
        for j in range(1, width):
            if not row[j] and row[j - 1] and any(r[j] for r in filled[level + 1:]):
                row[j] = row[j - 1]  # a spanning header printed once, over the columns to its right
    return [[row[j] for row in filled if row[j]] for j in range(width)]


def grid_structure(grid: list[list[str]], caption: str) -> ReadTable:
    n = _header_count(grid)
    width = max(len(r) for r in grid)
    header, body = grid[:n], [r + [""] * (width - len(r)) for r in grid[n:]]
    paths = _paths(header, width)
    rows, row_paths, group = [], [], []
    for row in body:
        if row[0].strip() and not any(c.strip() for c in row[1:]):
            group = [row[0].strip()]
            continue
        rows.append(row)
        row_paths.append([*group, row[0].strip()] if row[0].strip() else list(group))
    paths = [[] if j == 0 else p for j, p in enumerate(paths)]
    units, unit = units_of_columns(paths, caption, caption_unit(caption))
    header_rows = [[c for c in r] + [""] * (width - len(r)) for r in header]
    return ReadTable(header_rows, paths, 1, rows, row_paths, units, unit)


def fully_ruled(grid: list[list[str]]) -> bool:
    """A grid of three rows or more, two columns or more, most cells filled and every column holding
    something: a table drawn cell by cell, not a frame around a paragraph or a form."""
    cells = [c for row in grid for c in row]
    columns = list(zip(*grid)) if grid else []
    return (len(grid) >= MIN_RULED_ROWS and len(grid[0]) >= 2 and sum(bool(c.strip()) for c in cells) >= 0.6 * len(cells)
            and all(any(c.strip() for c in column) for column in columns))
