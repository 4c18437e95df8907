"""Names from the document's own words: abbreviated heads expanded where the document explains them,
clipped heads read as the document's word, rows that are measures named with their own unit, and
codes the document never explains quoted with their table instead of glued to its caption."""
from __future__ import annotations

from collections import Counter

from mmeb_assets.facts.glossary import clipped_word, expanded, with_glossary, _definitions, _introductions
from mmeb_assets.facts.measure_rows import rows_are_measures, unit_stub, with_unit_column
from mmeb_assets.facts.orientation import oriented
from mmeb_assets.facts.prose import Tally
from mmeb_assets.facts.tables import measure_name, named_table, table_facts
from mmeb_assets.schema.source import Table


def _table(**kw) -> Table:
    base = dict(id="table_1", number=1, caption="Table 1: Results.", page=1, header=[], rows=[])
    base.update(kw)
    return Table(**base)


def test_an_introduced_abbreviation_is_expanded_even_with_an_ampersand():
    pairs = _introductions("We compare with the system of Heilman and Smith (H&S) and with ours.")
    assert ("H&S", "Heilman and Smith") in pairs


def test_a_note_defines_abbreviations_one_by_one():
    text = ("Table 2: Ablations: numbers are averages for each task: CLS: classification, USR: user activity, "
            "REC: Recom- mendation, Avg. average over all tasks.")
    found = dict(_definitions(text.replace("Recom- mendation", "Recommendation")))
    assert found["CLS"] == "classification" and found["USR"] == "user activity"
    assert found["REC"] == "Recommendation"


def test_a_count_is_no_definition():
    assert _definitions("Note: N = 120 participants; M = 4.5") == []


def test_clipped_heads_take_the_documents_word():
    words = Counter({"recommendation": 12, "recommend": 2, "average": 5, "ROUGE-1": 4, "precision": 3})
    assert clipped_word("Recomm.", words) == "recommendation"
    assert clipped_word("Avg.", words) == "average"
    assert clipped_word("R-1", words) == "ROUGE-1"
    assert clipped_word("Prec.", words) == "precision"
    assert clipped_word("Xyz.", words) == ""
    assert clipped_word("R-2", words) == ""  # the document never prints ROUGE-2


def test_expanded_labels_read_as_a_reader_would_say_them():
    glossary = {"H&S": "Heilman and Smith", "Recomm.": "recommendation", "S1": "first story"}
    assert expanded("H&S", glossary) == "H&S (Heilman and Smith)"
    assert expanded("Recomm.", glossary) == "Recommendation"
    assert expanded("S1 F", glossary) == "S1 (first story) F"
    assert expanded("Baseline", glossary) == "Baseline"


def test_a_head_is_named_with_its_expansion():
    table = _table(caption="Table 3: Questions generated per system.", header=["System", "H&S", "M&T"],
                   header_rows=[["System", "H&S", "M&T"]], rows=[["Test", "120", "98"]],
                   column_paths=[[], ["H&S"], ["M&T"]], row_paths=[["Test"]])
    (table,) = with_glossary([table], {"H&S": "Heilman and Smith"})
    assert measure_name(table, ["H&S"], "") == "H&S (Heilman and Smith)"
    assert measure_name(table, ["M&T"], "") == "'M&T' column of Questions generated per system"


def test_an_unexplained_code_is_quoted_with_its_table_not_glued_to_the_caption():
    table = _table(caption="Table 4: ANOVA results", column_paths=[[], ["S1", "F"]])
    name = measure_name(table, ["S1", "F"], "")
    assert name == "'S1 F' column of ANOVA results"


def test_periods_read_after_the_captions_measure_with_its_unit_once():
    table = _table(caption="Table 1: Emissions by sector, kt CO2e.", unit="kt CO2e",
                   column_paths=[[], ["2023"], ["2024"]])
    assert measure_name(table, ["2024"], "kt CO2e") == "Emissions in 2024 (kt CO2e)"


INDICATORS = dict(
    caption="Table 2: Air quality and electrification indicators by year.",
    header=["Indicator", "Unit", "2023", "2024"], header_rows=[["Indicator", "Unit", "2023", "2024"]],
    rows=[["Shore power share of berth calls", "%", "18", "27"], ["Zero-emission cranes", "count", "4", "9"],
          ["NOx", "t", "1,842", "1,705"]],
    column_paths=[[], [], ["2023"], ["2024"]], stub_columns=2,
    row_paths=[["Shore power share of berth calls", "%"], ["Zero-emission cranes", "count"], ["NOx", "t"]],
    column_units=["", "", "", ""])


def test_a_unit_stub_makes_each_row_a_measure_with_its_unit():
    table = _table(**INDICATORS)
    assert unit_stub(table) == 1
    read = oriented(table)
    assert rows_are_measures(read) and read.stub_columns == 1
    facts = {(f.measure, f.subject, f.value, f.unit) for f in table_facts(read, Tally())}
    assert ("NOx (t)", "2024", "1,705", "t") in facts
    assert ("Shore power share of berth calls (%)", "2023", "18", "%") in facts
    assert ("Zero-emission cranes", "2023", "4", "") in facts


def test_the_named_table_keeps_each_rows_unit_beside_its_values():
    named = named_table(with_unit_column(_table(**INDICATORS)))
    assert named.header[1:] == ["Unit", "2023", "2024"]
    assert [row[:2] for row in named.rows] == [["Shore power share of berth calls", "%"],
                                              ["Zero-emission cranes", "count"], ["NOx", "t"]]


def test_a_second_stub_of_words_is_no_unit_column():
    table = _table(**{**INDICATORS, "header": ["Region", "Country", "2023", "2024"],
                      "header_rows": [["Region", "Country", "2023", "2024"]],
                      "rows": [["Europe", "France", "1", "2"], ["Europe", "Germany", "3", "4"]],
                      "row_paths": [["Europe", "France"], ["Europe", "Germany"]]})
    assert unit_stub(table) is None


def test_summary_rows_are_never_ranked_among_results():
    from datetime import datetime

    from mmeb_assets.qa.families.base import is_total
    from mmeb_assets.schema import PlanItem

    def row(label: str) -> PlanItem:
        return PlanItem(id="run_01", kind="analysis", label=label, owner="ana", completed_at=datetime(2026, 3, 2),
                        table_id="table_1", values={"F1": "71.2"})

    assert all(is_total(row(label)) for label in ("Average", "Avg.", "Mean", "Median (IQR)", "Total", "All tasks"))
    assert not any(is_total(row(label)) for label in ("Mean pooling", "Average of two encoders", "SciBERT"))


def test_a_wrapped_labels_second_line_is_no_row_and_a_head_read_across_columns_no_column():
    from mmeb_assets.facts.misreads import continuation, garbled

    assert continuation(["Real effective exchange rate", "(percentage change; - depreciation)"])
    assert not continuation(["Current account (% of GDP)"]) and not continuation(["SciBERT (Ours)"])
    assert garbled("7B Models (Based") and garbled("MATH Tokens on Qwen2.5-7B-Instruct)")
    assert not garbled("Test Set, RL (Reinforcement learning) (Mean)")


def test_rows_that_state_different_units_are_not_one_column_of_results():
    from datetime import datetime

    from mmeb_assets.qa.families.base import cell_unit
    from mmeb_assets.schema import PlanItem

    def row(label: str) -> PlanItem:
        return PlanItem(id="x", kind="analysis", label=label, owner="a", completed_at=datetime(2026, 1, 1))

    gdp, account = row("GDP at current prices (QAR billion)"), row("Current account (% of GDP)")
    assert cell_unit(gdp, "268.8") != cell_unit(account, "-1.9")
    assert cell_unit(row("Rail"), "31.2") == cell_unit(row("Buildings"), "20.7")


def test_the_company_and_a_requirement_are_no_definitions():
    from mmeb_assets.facts.statements import definition_of

    assert definition_of("The Company is an equal opportunity employer committed to inclusion and diversity.") is None
    assert definition_of("Mitigating associated risks means the PE and PA components must be properly configured.") is None
    assert definition_of("Risk tolerance refers to the organization’s readiness to bear the risk in order to "
                         "achieve its objectives.")


def test_a_settings_table_is_read_with_each_row_a_quantity():
    from mmeb_assets.facts.orientation import oriented

    table = _table(caption="Table 5: Parameters for the logistic regression experiments",
                   header=["", "MNIST-13k", "MNIST-100k"], header_rows=[["", "MNIST-13k", "MNIST-100k"]],
                   rows=[["Minibatch size m", "100", "100"], ["Step size σ", "0.05", "0.01"],
                         ["Number of samples T", "3000", "3000"]],
                   column_paths=[[], ["MNIST-13k"], ["MNIST-100k"]],
                   row_paths=[["Minibatch size m"], ["Step size σ"], ["Number of samples T"]])
    read = oriented(table)
    assert [p[0] for p in read.row_paths] == ["MNIST-13k", "MNIST-100k"]
    facts = {(f.measure, f.subject, f.value) for f in table_facts(read, Tally())}
    assert ("Step size σ", "MNIST-100k", "0.01") in facts
    systems = [["BERT", "81.0", "79.2"], ["RoBERTa", "83.5", "80.1"], ["T5", "84.2", "82.0"]]
    results = table.model_copy(update={"caption": "Table 2: Accuracy under three settings", "rows": systems,
                                       "row_paths": [[row[0]] for row in systems]})
    assert oriented(results).row_paths == results.row_paths


def test_a_category_row_above_its_own_rows_is_not_compared_with_them():
    from mmeb_assets.facts.summary_rows import parent_rows

    table = _table(header=["Instruction", "Accuracy"], header_rows=[["Instruction", "Accuracy"]],
                   rows=[["detectable_format", "61.2"], ["multiple_sections", "0"], ["number_bullets", "55.0"],
                         ["startend", "2.985"]],
                   column_paths=[[], ["Accuracy"]],
                   row_paths=[["detectable_format"], ["detectable_format", "multiple_sections"],
                              ["detectable_format", "number_bullets"], ["startend"]])
    assert parent_rows(table) == {0}
    assert [row[0] for row in named_table(table).rows] == [
        "multiple_sections (detectable_format)", "number_bullets (detectable_format)", "startend"]


def test_a_clipped_word_before_another_is_expanded_only_where_the_text_prints_the_pair():
    words = Counter({"context": 40, "contexts": 3, "external": 6, "external resources": 2, "conversation": 9})
    assert clipped_word("Ext.", words, "Resources") == "external"
    assert clipped_word("Cont.", words, "Conversation") == ""  # 'Continue Conversation'? the text never says
    assert clipped_word("Cont.", words) == "context"


def test_a_head_that_names_no_measure_takes_the_one_the_citing_sentences_name():
    from mmeb_assets.facts.table_mentions import introduced_measures, with_introduced
    from mmeb_assets.provenance import make_provenance
    from mmeb_assets.schema.source import PageText, SourceDocument

    table = _table(number=6, caption="Table 6: Results with different weights.", column_paths=[[], ["Formula"]])
    text = ("We compare three weightings. Table 6 reports the accuracy of each weighting on the held-out suites. "
            "Table 7 lists the latency.")
    document = SourceDocument(seed_id="s", provenance=make_provenance("s", "ingestion", "rules"), title="t", path="t.pdf",
                              sha256="0", n_pages=1, pages=[PageText(page=1, text=text)], tables=[table], figures=[],
                              numeric_claims=[])
    assert introduced_measures(document) == {6: "accuracy"}
    from mmeb_assets.facts.table_mentions import _cited
    assert _cited("Table 12 reports the latency, Table 6.2 the recall and Table 6 the accuracy.") == {12, 6}
    (named,) = with_introduced([table], introduced_measures(document))
    assert measure_name(named, ["Formula"], "") == "accuracy (Formula)"
    assert measure_name(table, ["Formula"], "") == "Formula"
