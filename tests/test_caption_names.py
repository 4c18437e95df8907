"""A caption's words in a column's name: short heads spelled out as the caption names them, and twin
tables (same columns, one per topic) told apart by the words their captions do not share."""
from __future__ import annotations

from mmeb_assets.facts.caption_names import expanded_head, with_topics
from mmeb_assets.facts.extract import extract_facts
from mmeb_assets.provenance import make_provenance
from mmeb_assets.schema.source import SourceDocument, Table

CAPTION = ("TABLE {n}. Number of deaths and age-specific death rates* for {topic} among adults aged ≥45 years, "
           "by age group, sex, and {split} — United States, 2006")


def _table(n: int, topic: str, split: str, groups: list[str]) -> Table:
    paths = [[]] + [[split.split()[-1].title(), g, leaf] for g in groups for leaf in ("No.", "Rate")]
    rows = [["45–54", *[str(100 * n + k) for k in range(len(paths) - 1)]],
            ["55–64", *[str(200 * n + k) for k in range(len(paths) - 1)]]]
    return Table(id=f"table_{n}", number=n, caption=CAPTION.format(n=n, topic=topic, split=split), page=n,
                 header=["Age group", *[" ".join(p) for p in paths[1:]]], rows=rows,
                 column_paths=paths, row_paths=[[r[0]] for r in rows], stub_columns=1,
                 column_units=[""] * len(paths))


def _document(tables: list[Table]) -> SourceDocument:
    return SourceDocument(seed_id="twins", provenance=make_provenance("twins", "ingestion", "rules"), title="Deaths",
                          path="twins.pdf", sha256="0", n_pages=5, pages=[], tables=tables, figures=[],
                          numeric_claims=[])


def test_short_heads_take_the_captions_words():
    table = _table(2, "stroke", "race", ["White", "Black"])
    assert expanded_head(table, "No.") == "number of deaths"
    assert expanded_head(table, "Rate") == "death rate"
    assert expanded_head(table, "White") == ""


def test_twin_tables_get_the_words_that_set_them_apart():
    tables = [_table(2, "coronary heart disease", "race", ["White", "Black"]),
              _table(3, "coronary heart disease", "Hispanic ethnicity", ["Hispanic", "non-Hispanic"]),
              _table(4, "stroke", "race", ["White", "Black"]),
              _table(5, "stroke", "Hispanic ethnicity", ["Hispanic", "non-Hispanic"])]
    assert [t.topic for t in with_topics(tables)] == ["coronary heart disease", "coronary heart disease",
                                                      "stroke", "stroke"]


def test_a_table_without_a_twin_gets_no_topic():
    tables = [_table(2, "stroke", "race", ["White", "Black"]), _table(3, "stroke", "race", ["A", "B", "C"])]
    assert [t.topic for t in with_topics(tables)] == ["", ""]


def test_twin_facts_say_which_table_they_come_from():
    tables = [_table(2, "coronary heart disease", "race", ["White", "Black"]), _table(4, "stroke", "race", ["White", "Black"])]
    facts, _ = extract_facts(_document(tables))
    names = {(f.table_id, f.measure) for f in facts if f.subject == "45–54"}
    assert ("table_2", "death rate (Race, White) for coronary heart disease") in names
    assert ("table_4", "number of deaths (Race, Black) for stroke") in names


def test_heads_that_name_only_rounds_take_the_captions_benchmark():
    from mmeb_assets.facts.caption_names import caption_benchmark
    from mmeb_assets.facts.tables import measure_name
    from mmeb_assets.schema.source import Table

    table = Table(id="t1", page=2, caption="Table 1: GPT-3.5-turbo behaves similarly on MT-Bench each round when "
                  "seeing all instructions (1st row) or only the last instruction (2nd row).",
                  header=["GPT-3.5-turbo", "1st Round", "2nd Round"], rows=[["Seeing All", "8.08", "7.81"]])
    assert measure_name(table, ["1st Round"], "") == "MT-Bench result (1st Round)"
    fees = table.model_copy(update={"caption": "Table 3.11 Fees for IPR registration and certification"})
    assert caption_benchmark(fees) == ""   # 'for IPR' names no benchmark the values were measured on
    two = table.model_copy(update={"caption": "Table 2: Accuracy gaps on GSM8K and on MATH-500"})
    assert caption_benchmark(two) == ""    # two benchmarks: which one is not the caption's to say


def test_a_clipped_head_the_caption_spells_out_is_named_by_its_words():
    """read6's self-play paper: 'Synth.: number of synthetic problems generated per unsolved target
    statement' in the caption; the head 'Synth.' was asked as 'the synth of ...'."""
    from mmeb_assets.facts.glossary import _definitions
    from mmeb_assets.facts.tables import measure_name
    from mmeb_assets.schema.source import Table

    caption = ("Table 1: Per-experiment hyperparameters. Synth.: number of synthetic problems generated per "
               "unsolved target statement. All other hyperparameters are as described.")
    glossary = dict(_definitions(caption))
    assert glossary == {"Synth.": "number of synthetic problems generated per unsolved target statement"}
    table = Table(id="t1", page=19, caption=caption, header=["Experiment", "Synth."], rows=[["SGS", "1"]],
                  glossary=glossary)
    assert measure_name(table, ["Synth."], "") == "Number of synthetic problems generated per unsolved target statement"
    assert _definitions("XZ: the selected rationale candidate and Y is the predictor's output.") == []


def test_statistics_under_a_descriptive_statistics_head_take_the_captions_measure():
    """read6's wealth paper: 'DESCRIPTIVE STATISTICS' over 'Mean', 'P80' under 'Capital returns in the PSID'."""
    from mmeb_assets.facts.tables import measure_name
    from mmeb_assets.schema.source import Table

    table = Table(id="t1", page=27, caption="Table 1: Capital returns in the PSID (2000-2018)",
                  header=["Asset", "Mean", "P80"], rows=[["Private equity", "0.156", "0.5"]])
    assert measure_name(table, ["DESCRIPTIVE STATISTICS", "Mean"], "") == "Capital returns (Mean)"
    assert measure_name(table, ["DESCRIPTIVE STATISTICS", "P80"], "") == "Capital returns (P80)"
    drs = table.model_copy(update={"glossary": {"DRS": "decreasing returns to scale"},
                                   "caption": "Table 3: Returns to wealth by wealth group"})
    assert measure_name(drs, ["T-model", "DRS"], "").startswith("Returns to wealth (")  # no measure in an expansion
