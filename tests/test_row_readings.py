"""Readings of a table's rows that questions rest on: which row is the table's total (never one of the
results a question ranks), which block label a row of a multirow stub belongs to, a count printed
with its share, and the quantity a caption names."""
from __future__ import annotations

from datetime import datetime

from mmeb_assets.facts.tables import CAPTION_QUANTITY
from mmeb_assets.ingestion.table_body import block_labels
from mmeb_assets.qa.families.base import is_total
from mmeb_assets.schema import PlanItem, Table
from mmeb_assets.simulation.items import row_values


def _row(n: int, label: str, value: str, table: str = "table_2_3") -> PlanItem:
    return PlanItem(id=f"run_{n:02d}", kind="baseline", label=label, owner="p1", completed_at=datetime(2026, 3, 2),
                    table_id=table, values={"Male": value})


def test_a_bare_all_is_the_total_only_when_it_sums_the_other_rows():
    ages = [_row(1, "2-11months", "1,087,948"), _row(2, "1-2", "2,586,688"), _row(3, "3-5", "3,867,692")]
    everyone = _row(4, "All", "7,542,328")
    assert is_total(everyone, [*ages, everyone])  # NHANES's 'All' under its age groups
    ablation = [_row(1, "-bigram", "0.31"), _row(2, "-import.", "0.30"), _row(3, "All", "0.33")]
    assert not is_total(ablation[2], ablation)  # the system with every feature: a result
    assert is_total(_row(5, "Total", "9")) and is_total(_row(6, "All ages", "9"))
    assert not is_total(_row(7, "Allocation", "9"))


def test_a_block_label_centred_on_its_rows_keeps_the_rows_above_the_next_rule():
    rows = [100, 110, 120, 130, 140, 150, 160, 172, 182, 192]  # 'Biomed' rows, a rule at 166, 'CS' rows
    labels = [(127, 135, "Biomed"), (179, 187, "CS")]  # each centred on its block
    assert block_labels(rows, labels, [166.0]) == ["Biomed"] * 7 + ["CS"] * 3
    assert block_labels(rows, labels)[6] == "CS"  # without the rule the nearest label is the next block's


def test_a_count_printed_with_its_share_is_two_values():
    table = Table(id="table_2_2", number=2, caption="Table 2.2: Number of students categorized by faculty cluster",
                  page=2, header=["Faculty cluster", "Population size", "Sample size"], rows=[])
    assert row_values(table, ["Sciences", "1269 (19.9%)", "101(20.4%)"], 0) == {
        "Population size": "1269", "Population size (%)": "19.9%", "Sample size": "101", "Sample size (%)": "20.4%"}
    assert row_values(table, ["Sciences", "1269", "12 (3)"], 0) == {"Population size": "1269", "Sample size": "12 (3)"}


def test_a_caption_quantity_leaves_out_how_the_rows_are_broken_down():
    assert CAPTION_QUANTITY.match("Number of female students categorized by faculty cluster").group(1) == \
        "Number of female students"
    assert CAPTION_QUANTITY.match("Number of deaths by state").group(1) == "Number of deaths"


def test_counts_in_millions_with_their_shares():
    from mmeb_assets.facts.tables import _numeric
    from mmeb_assets.ingestion.table_words import is_value

    assert is_value("28.9M (35.6%)") and is_value("42k (0.1%)")
    assert _numeric("28.9M (35.6%)") == 28.9 and _numeric("42k") == 42
    table = Table(id="table_3", number=3, caption="Table 3: Statistics on paper provenance.", page=5,
                  header=["Statistic", "Papers"], rows=[])
    assert row_values(table, ["Papers w/ PDF", "28.9M (35.6%)"], 0) == {"Papers": "28.9M", "Papers (%)": "35.6%"}


def test_a_column_of_figure_numbers_is_no_measure_and_a_row_named_by_a_value_is_no_item():
    """read6: a 'Figure(s)' column ('4, 7') was ranked as a result; a 10-Q's misread rows were named '216'."""
    from mmeb_assets.simulation.items import _value_as_name

    table = Table(id="t1", page=19, caption="Table 1: Methods compared", header=["Method", "Success", "Figure(s)"],
                  rows=[["SGS", "0.41", "4, 7"]])
    assert row_values(table, table.rows[0], 0) == {"Success": "0.41"}
    assert _value_as_name("216") and _value_as_name("$ 3,685") and _value_as_name("(50)")
    assert not _value_as_name("2019") and not _value_as_name("2020-21") and not _value_as_name("Top 1% (5.2)")


def test_a_statement_read_with_its_signs_cut_in_the_wrong_place_gives_no_facts():
    """read6's 10-Q: a data row read as the head ('2,473 $'), figures glued to the next one's '$'."""
    from mmeb_assets.facts.misreads import misread_table
    from mmeb_assets.facts.tables import list_table_reason

    head_row = Table(id="t", page=6, caption="(In millions)", header=["Balances, April 30, 2023", "2,473 $", "12,453 $"],
                     rows=[["Net income", "—", "6,188"], ["Shares repurchased", "(8)", "(3,283)"]])
    assert misread_table(head_row).startswith("2 head cells are values")
    glued = Table(id="t", page=15, caption="(In millions)", header=["Assets", "Level", "July 30, 2023", "Jan 29, 2023"],
                  rows=[["Corporate debt securities", "Level 2 $", "5,978", "$ 4,797"],
                        ["U.S. Treasury", "Level 2", "3,685 $", "4,142"], ["Agencies", "Level 2", "2,899 $", "1,834"]])
    assert "currency sign" in misread_table(glued) and list_table_reason(glued).startswith("misread")
    fine = Table(id="t", page=3, caption="Table 2: Revenue", header=["Segment", "2023", "2022"],
                 rows=[["Compute", "$", "6,728"], ["Graphics", "", "1,211"]])
    assert misread_table(fine) == ""   # a '$' in a column of its own: the figures still line up
    codes = Table(id="t", page=74, caption="Table 4.9 Tariffs", header=["Product", "43", "44", "45"],
                  rows=[["Fur", "5", "5", "5"]])
    assert misread_table(codes) == ""  # chapter numbers as heads


def test_a_column_read_into_the_row_labels_makes_the_table_a_misreading():
    """read6's wealth paper: a column of figures read as the groups of the rows ('1.5' over 'P70-P80')."""
    from mmeb_assets.facts.misreads import misread_table

    table = Table(id="t", page=37, caption="Table 3: Returns to wealth", header=["Group", "Data PSID"],
                  rows=[["P60-P70", "-0.9"], ["P70-P80", "-0.8"], ["P80-P90", "0.5"]],
                  row_paths=[["1.5", "P60-P70"], ["1.5", "P70-P80"], ["2.6", "P80-P90"]])
    assert "grouped under a figure" in misread_table(table)
    grouped = table.model_copy(update={"row_paths": [["Males", "P60-P70"], ["Males", "P70-P80"], ["2020", "P80-P90"]]})
    assert misread_table(grouped) == ""


def test_a_column_of_results_read_as_the_head_is_a_misreading():
    """read7's agent-training paper: "'34.6±1.8 34.7±1.5 37.5±1.6' column of Performance on SearchQA"."""
    from mmeb_assets.facts.misreads import misread_table

    table = Table(id="t", page=8, caption="Table 2: Performance on SearchQA", header=["Method", "34.6±1.8 34.7±1.5",
                  "11.6±1.6 12.3±1.0"], rows=[["PPO", "10.9", "7.0"]])
    assert "head cells are values" in misread_table(table)


def test_a_stub_headed_metric_makes_each_row_its_own_measure():
    """read7: 'Metric | Value' (Pearson r, Cohen's kappa, N paired scores) was ranked across its rows."""
    from mmeb_assets.facts.orientation import rows_name_measures

    table = Table(id="t", page=16, caption="Table 8: Inter-judge agreement", header=["Metric", "Value"],
                  header_rows=[["Metric", "Value"]], rows=[["Pearson r", "0.973"], ["N paired scores", "1,164"]],
                  row_paths=[["Pearson r"], ["N paired scores"]], column_paths=[["Metric"], ["Value"]], stub_columns=1)
    assert rows_name_measures(table)
    assert not rows_name_measures(table.model_copy(update={"header_rows": [["Method", "Value"]]}))
    # inlg-W19-8608's 'Metric | BLEU-4 | ROUGE-2': the corner names the columns, the rows are systems
    systems = Table(id="t", page=5, caption="Table 5: Generator performance", header=["Metric", "BLEU-4", "ROUGE-2"],
                    header_rows=[["Metric", "BLEU-4", "ROUGE-2"]], rows=[["S2S", "5.9", "5.1"], ["S2S RR", "11.6", "6.3"]],
                    row_paths=[["S2S"], ["S2S RR"]], column_paths=[["Metric"], ["BLEU-4"], ["ROUGE-2"]], stub_columns=1)
    assert not rows_name_measures(systems)
