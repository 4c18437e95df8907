"""Tables whose rows name the measures are read transposed (facts/orientation.py)."""
from mmeb_assets.facts.orientation import oriented, rows_name_measures
from mmeb_assets.schema.source import Table


def _table(rows, heads):
    return Table(id="table_6", caption="Table 6: Response generator", page=8, header=["", *heads],
                 rows=rows, column_paths=[[], *[[h] for h in heads]], row_paths=[[r[0]] for r in rows])


def test_metric_rows_over_system_columns_are_transposed():
    table = _table([["BLEU-4", "3.9", "7.9"], ["ROUGE-2", "0.6", "0.8"], ["Distinct-2", "0.1", "0.2"]],
                   ["S2S(Base)", "S2S RR"])
    assert rows_name_measures(table)
    flipped = oriented(table)
    assert flipped.row_paths == [["S2S(Base)"], ["S2S RR"]]
    assert flipped.column_paths == [[], ["BLEU-4"], ["ROUGE-2"], ["Distinct-2"]]
    assert flipped.rows[1] == ["S2S RR", "7.9", "0.8", "0.2"]


def test_system_rows_over_metric_columns_stay():
    table = _table([["S2S(Base)", "3.9", "0.6"], ["S2S RR", "7.9", "0.8"]], ["BLEU-4", "ROUGE-2"])
    assert not rows_name_measures(table)
    assert oriented(table) is table
