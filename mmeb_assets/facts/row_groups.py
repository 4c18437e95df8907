"""Tables whose row groups say what the values measure, read one group at a time.

Why: in 'Table 4-1' of a fuel-economy report the columns are behaviours (Accel/decel, Speed, Idle)
and the rows are levels (Med-low, Med-high, Very high) stacked under groups that name the measure
("Per cycle fuel savings potential", "Frequency of opportunity occurrence in general population").
Read with the column as the measure, a frequency is asked as a 'speed reduction' and a frequency is
subtracted from a saving. When every group names a measure and most value columns do not, each group is
its own table: its columns are named by the group and the column ('Per cycle fuel savings potential
Speed reduction/ optimization'), its rows by their own label, and rows are compared only within it.
"""
from __future__ import annotations

from mmeb_assets.facts.measure_words import names_a_measure
from mmeb_assets.schema.source import Table


def measure_groups(table: Table) -> list[Table]:
    """The table, or one table per row group when the groups name the measures."""
    if table.kind != "results" or not table.row_paths or not table.column_paths:
        return [table]
    groups = [tuple(p[:-1]) for p in table.row_paths]
    distinct = list(dict.fromkeys(groups))
    values = table.column_paths[table.stub_columns:]
    if (len(distinct) < 2 or not all(distinct) or not all(names_a_measure(" ".join(g)) for g in distinct)
            or 2 * sum(names_a_measure(" ".join(p)) for p in values) >= len(values)):
        return [table]
    return [_group_table(table, group, n, [r for r, g in enumerate(groups) if g == group])
            for n, group in enumerate(distinct, start=1)]


def _group_table(table: Table, group: tuple[str, ...], n: int, rows: list[int]) -> Table:
    stub = table.stub_columns
    return table.model_copy(update={
        "id": f"{table.id}_g{n}",
        "rows": [table.rows[r] for r in rows],
        "numbers": [table.numbers[r] for r in rows] if len(table.numbers) == len(table.rows) else [],
        "row_paths": [[table.row_paths[r][-1]] for r in rows],
        "column_paths": [p if c < stub else [" ".join(group), " ".join(p)] for c, p in enumerate(table.column_paths)],
    })
