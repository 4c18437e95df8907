"""Which items one bar chart may hold: those whose values in the column share one unit.

A column of a results table is one measure ('Recall@10'), so its runs share an axis. A year column of
an analysis table is not always: under 'Indicators, 2023' each row names its own measure (kt CO2e, %,
a count, tonnes), and one axis would set them side by side as if comparable. Each item gets a unit
key; one chart per key that holds two items or more, and none for a row whose unit is unknown and
whose measure is its own.
"""
from __future__ import annotations

import re

from mmeb_assets.facts.tables import caption_measure
from mmeb_assets.ingestion.table_units import cell_unit, split_unit
from mmeb_assets.schema.source import SourceFacts, Table
from mmeb_assets.schema.workspace import PlanItem

OWN_MEASURE = "own:"  # prefix of the key of a row that names its own measure, of unknown unit


def _column_unit(table: Table | None, column: str) -> str:
    if table is None:
        return ""
    names = [" ".join(path) for path in table.column_paths] or list(table.header)
    for n, name in enumerate(names):
        if name == column or (column in name and n < len(table.column_units)):
            if n < len(table.column_units) and table.column_units[n]:
                return table.column_units[n]
    return split_unit(column)[1] or table.unit


def _rows_share_a_measure(table: Table | None) -> bool:
    """'Emissions by sector (kt CO2e)': the rows are subjects of the caption's measure; otherwise
    ('Key indicators, 2023') each row names a measure of its own."""
    return table is not None and bool(re.search(r"\bby (?!years?\b)\w", caption_measure(table))) or bool(
        table is not None and table.unit)


def unit_key(item: PlanItem, column: str, value: str, table: Table | None) -> str:
    """The unit the item's value in `column` is in: printed on the row's label or the value, else the
    column's (a run's metric, or a table whose rows share a measure), else its own."""
    own = split_unit(item.label)[1] or cell_unit(value)
    if own:
        return own
    if item.kind != "analysis" or _rows_share_a_measure(table):
        return _column_unit(table, column) or "column"
    return OWN_MEASURE + item.label


def chart_groups(items: list[PlanItem], column: str, values: list[str], facts: SourceFacts
                 ) -> list[tuple[str, list[int]]]:
    """(unit, positions of the items) for each unit held by two items or more, largest first."""
    tables = {t.id: t for t in facts.tables}
    groups: dict[str, list[int]] = {}
    for n, (item, value) in enumerate(zip(items, values)):
        groups.setdefault(unit_key(item, column, value, tables.get(item.table_id)), []).append(n)
    kept = [(unit, where) for unit, where in groups.items() if len(where) >= 2 and not unit.startswith(OWN_MEASURE)]
    return sorted(kept, key=lambda g: (-len(g[1]), g[1][0]))


def unit_suffix(unit: str, title: str = "") -> str:
    """' (kt CO2e)' for a chart title; '' where the unit is only 'the column's' or the title already
    says it ('Emissions in 2023 (kt CO2e) by item')."""
    return "" if unit in ("column", "") or f"({unit})" in title else f" ({unit})"


def chart_items(items: list[PlanItem], column: str, facts: SourceFacts) -> tuple[str, list[PlanItem]]:
    """(unit, items) of the one chart a column gets: its largest one-unit group; ('', []) for none."""
    groups = chart_groups(items, column, [i.values.get(column, "") for i in items], facts)
    if not groups:
        return "", []
    unit, where = groups[0]
    return unit, [items[n] for n in where]


def chart_columns(plan, facts: SourceFacts, item_ids: list[str]) -> list[str]:
    """The numeric columns of the items that can be charted on one axis (two items of one unit)."""
    from mmeb_assets.records.content import items_of, numeric_columns

    items = items_of(plan, item_ids)
    return [c for c in numeric_columns(plan, item_ids)
            if chart_items([i for i in items if c in i.values], c, facts)[1]]
