"""Tables whose rows are measures: a stub column states each row's unit.

Why: indicator tables of reports print 'Indicator | Unit | 2023 | 2024 | 2025' with one measure per
row ('Shore power share of berth calls' in %, 'Zero-emission cranes' as a count, 'NOx' in tonnes).
Read with both stub columns as the row's name, a row becomes '% (Shore power share ...)', its unit is
lost, and a percentage is compared with a count of cranes. Here the unit column leaves the row's
name and stays beside it as a column headed 'Unit', so every later stage knows each row's unit (the
question families compare, rank and combine only cells of one unit), and each value is asked as its
row's measure at its column ('NOx (t) in 2024').
"""
from __future__ import annotations

import re

from mmeb_assets.ingestion.table_units import as_unit
from mmeb_assets.schema.source import Table

UNIT_HEAD = re.compile(r"^\s*(?:units?|unit of measure(?:ment)?|measure unit|uom)\s*$", re.I)
MEASURE_HEAD = re.compile(r"^\s*(?:indicators?|measures?|metrics?|variables?|items?|statistics?|parameters?|"
                          r"series|kpis?|key performance indicators?)\s*$", re.I)
COUNT_UNITS = {"count", "counts", "number", "no", "no.", "#", "n"}
UNIT_COLUMN = "Unit"


def _stub_heads(table: Table) -> list[str]:
    heads = table.header_rows[-1] if table.header_rows else table.header
    return [h.strip() for h in heads[:table.stub_columns]]


def _looks_like_unit(cell: str) -> bool:
    cell = cell.strip()
    return cell.lower() in COUNT_UNITS or bool(as_unit(cell)) or bool(re.fullmatch(r"[A-Za-z$€£%]{1,4}", cell))


def unit_stub(table: Table) -> int | None:
    """The last stub column when it states each row's unit: headed 'Unit', or beside an
    'Indicator' / 'Measure' stub and holding only unit-like cells ('%', 't', 'count')."""
    if table.kind != "results" or table.stub_columns < 2 or not table.rows:
        return None
    c = table.stub_columns - 1
    heads = _stub_heads(table)
    cells = [row[c].strip() for row in table.rows if c < len(row) and row[c].strip()]
    if not cells:
        return None
    if UNIT_HEAD.match(heads[c] if c < len(heads) else ""):
        return c
    if heads and MEASURE_HEAD.match(heads[0]) and all(_looks_like_unit(x) for x in cells):
        return c
    return None


def _without(path: list[str], unit: str) -> list[str]:
    """The row path less its unit cell (the last part equal to it)."""
    for k in range(len(path) - 1, -1, -1):
        if path[k].strip() == unit.strip():
            return path[:k] + path[k + 1:]
    return path


def with_unit_column(table: Table) -> Table:
    """The table with its unit stub out of the row names, kept as a value column headed 'Unit'."""
    c = unit_stub(table)
    if c is None:
        return table
    row_paths = [_without(list(path), table.rows[r][c] if c < len(table.rows[r]) else "")
                 for r, path in enumerate(table.row_paths)]
    column_paths = [list(p) for p in table.column_paths]
    if c < len(column_paths):
        column_paths[c] = [UNIT_COLUMN]
    units = list(table.column_units)
    if c < len(units):
        units[c] = ""
    return table.model_copy(update={"stub_columns": c, "row_paths": row_paths, "column_paths": column_paths,
                                    "column_units": units})


def unit_column(table: Table) -> int | None:
    """Where a table read by `with_unit_column` keeps each row's unit."""
    for c, path in enumerate(table.column_paths):
        if c >= table.stub_columns and list(path) == [UNIT_COLUMN]:
            return c
    return None


def row_unit(table: Table, row: int) -> str:
    """The unit a row states in its 'Unit' column, as a fact's unit ('count' is no unit): '' when none."""
    c = unit_column(table)
    if c is None or row >= len(table.rows) or c >= len(table.rows[row]):
        return ""
    cell = table.rows[row][c].strip()
    return "" if cell.lower() in COUNT_UNITS else (as_unit(cell) or cell)


def rows_are_measures(table: Table) -> bool:
    return unit_column(table) is not None
