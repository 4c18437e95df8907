"""A bar chart never sets two units on one axis: a year column of a table whose rows each name their
own measure is charted per unit (two rows of one unit at least) or not at all; a results column, or a
table whose rows share the caption's measure, is one chart."""
from __future__ import annotations

from datetime import datetime

from mmeb_assets.records.chart_units import chart_groups, chart_items, unit_key
from mmeb_assets.schema.source import SourceFacts, Table
from mmeb_assets.schema.workspace import PlanItem

T0 = datetime(2026, 3, 2, 9, 0)


def _item(n: int, label: str, value: str, kind: str = "analysis", table: str = "table_1") -> PlanItem:
    return PlanItem(id=f"run_{n:02d}", kind=kind, label=label, owner="p1", completed_at=T0, table_id=table,
                    row_index=n, values={"2023": value})


def _facts(caption: str, unit: str = "") -> SourceFacts:
    table = Table(id="table_1", caption=caption, page=1, header=["Indicator", "2023"], rows=[], unit=unit)
    return SourceFacts.model_construct(tables=[table])  # the charts read only the tables


MIXED = [_item(0, "Greenhouse gas emissions (kt CO2e)", "412.5"), _item(1, "Share of renewable power", "38%"),
         _item(2, "Vessels", "1,204"), _item(3, "Cargo handled (tonnes)", "96,200"),
         _item(4, "Recycled share of waste", "61%")]


def test_rows_that_name_their_own_measures_are_charted_one_unit_at_a_time():
    facts = _facts("Table 1: Key indicators, 2023")
    groups = chart_groups(MIXED, "2023", [i.values["2023"] for i in MIXED], facts)
    assert groups == [("%", [1, 4])]  # the two percentages; kt CO2e, tonnes and a bare count stand alone
    unit, items = chart_items(MIXED, "2023", facts)
    assert unit == "%" and [i.label for i in items] == ["Share of renewable power", "Recycled share of waste"]


def test_a_row_of_unknown_unit_is_never_charted_beside_another():
    facts = _facts("Table 1: Key indicators, 2023")
    bare = [_item(0, "Vessels", "1,204"), _item(1, "Ports served", "14")]
    assert chart_groups(bare, "2023", ["1,204", "14"], facts) == []
    assert unit_key(bare[0], "2023", "1,204", facts.tables[0]) != unit_key(bare[1], "2023", "14", facts.tables[0])


def test_rows_of_one_measure_share_one_chart():
    facts = _facts("Table 1: Emissions by sector (kt CO2e), 2021-2023", unit="kt CO2e")
    rows = [_item(0, "Shipping", "412.5"), _item(1, "Rail", "96.2"), _item(2, "Road", "301.0")]
    assert chart_groups(rows, "2023", ["412.5", "96.2", "301.0"], facts) == [("kt CO2e", [0, 1, 2])]


def test_runs_of_a_results_column_share_one_chart():
    facts = _facts("Table 2: Results on the test set")
    runs = [_item(n, f"Model {n}", v, kind="baseline") for n, v in enumerate(["81.2", "79.4", "84.0"])]
    assert [g[1] for g in chart_groups(runs, "2023", ["81.2", "79.4", "84.0"], facts)] == [[0, 1, 2]]
