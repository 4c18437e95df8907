"""Facts a reader would quote: non-fact classes, measure names, tables as a reader sees them, the
labelled set, and (property) generated documents whose non-facts never become facts or fail a plan."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mmeb_assets.facts.extract import extract_facts
from mmeb_assets.facts.measures import measure_of
from mmeb_assets.facts.nonfacts import reason_for
from mmeb_assets.facts.prose import Tally
from mmeb_assets.facts.question_scan import question_defects
from mmeb_assets.facts.tables import (caption_quantity, header_names, list_table_reason, measure_name, named_table,
                                     table_facts)
from mmeb_assets.ingestion.numbers import NUMBER_RE
from mmeb_assets.provenance import make_provenance
from mmeb_assets.schema.source import PageText, SourceDocument, Table, TextBlock

LABELS = Path(__file__).resolve().parents[1] / "bench" / "data" / "facts_labelled"


def _reason(sentence: str, value: str) -> str | None:
    match = next(m for m in NUMBER_RE.finditer(sentence) if m.group("value") == value)
    return reason_for(sentence, match.start("value"), match.end("value"))


@pytest.mark.parametrize("sentence,value,reason", [
    ("GPRA, Pub. L. No. 103-62 (Aug. 3, 1993), was enacted.", "103", "identifier"),
    ("See GAO, Results-Oriented Government, GAO-04-38 (Washington, D.C.: Mar. 10, 2004).", "2004", "citation"),
    ("SIF (Arora et al., 2017), a method for learning document representations.", "2017", "citation"),
    ("This guide was developed pursuant to Executive Order 14110 on safe AI.", "14110", "identifier"),
    ("Contact us at 100 Bureau Drive (Mail Stop 8900) Gaithersburg, MD 20899-8900.", "100", "identifier"),
    ("Please contact me on (202) 512-6543 if you have any questions.", "202", "identifier"),
    ("We identify (1) how agencies use performance information.", "1", "numbering"),
    ("As shown in figure 3, the majority of managers agreed.", "3", "numbering"),
    ("If a, then continue to 5.1 and answer the next question.", "5.1", "numbering"),
    ("The network was reviewed in the first quarter of 2004 by the office.", "2004", "date"),
    ("The PEP project began in October 2002, with technical assistance.", "2002", "date"),
    ("We keep these goals in mind in our day-to-day activities. 37 Frequently reporting helps.", "37", "numbering"),
    ("CIS CSC 1, 5, 15, 16 COBIT 5 DSS05.04, DSS06.03 ISA 62443-2-1:2009", "15", "identifier"),
    ("CIS CSC, 16 COBIT 5 DSS05.04, DSS05.05", "16", "identifier"),
    ("CIS CSC 19 COBIT 5 APO01.03, APO13.01", "5", "identifier"),
    ("Sanctions may apply if performance is less than 80 percent of the negotiated performance levels.", "80",
     "threshold"),
    ("The section increases its oversight if their performance drops below 80 percent on key measures.", "80",
     "threshold"),
    ("Related: AI RMF: Govern 1.1, 1.2, 3.2, 4.1, 5.1, 6.1.", "1.2", "identifier"),
    ("See the OWASP Top 10 for LLM Applications Version 1.1 for the risks.", "10", "identifier"),
    ("Raters preferred the output (p <0.0001 two-tail binomial test).", "0.0001", "no_measure"),
    ("PO.2.1 relates to AI RMF: Govern 2.1 and its outcomes.", "2.1", "identifier"),
    ("It is one of the top 10 vulnerability types for LLM applications.", "10", "identifier"),
])
def test_non_fact_classes(sentence, value, reason):
    assert _reason(sentence, value) == reason


@pytest.mark.parametrize("sentence,value", [
    ("For example, while 56 percent of managers overall reported using performance information, others did not.", "56"),
    ("These investigations are conducted by 385 investigators located at EBSA field offices.", "385"),
    ("In calendar year 2004, FAA employees received an OSI increase of 2.13 percent.", "2.13"),
    ("In fiscal year 2005 federal expenditures on CSE were $3.5 billion, with states spending more.", "3.5"),
    ("The NIST workshop drew 1,200 attendees and 120 comments on the draft.", "120"),
    ("Over 85 comments on the proposed second draft were received.", "85"),
    ("Performance fell below 80 percent in 2004 at three of the offices.", "80"),
    ("Accuracy reached 0.81, 0.85 and 0.88 on the three test sets.", "0.85"),
])
def test_facts_are_not_refused(sentence, value):
    assert _reason(sentence, value) is None


def _measure(sentence: str, value: str):
    matches = list(NUMBER_RE.finditer(sentence))
    previous = None
    for match in matches:
        found = measure_of(sentence, match.start("value"), match.end("value"), previous)
        if match.group("value") == value:
            return found
        previous = found or previous
    raise AssertionError(value)


def test_measure_names_come_from_the_sentence():
    share = _measure("For example, while 56 percent of managers overall reported using performance information.", "56")
    assert share.unit == "%" and share.name.startswith("managers overall reported")
    count = _measure("These investigations are conducted by 385 investigators located at EBSA field offices.", "385")
    assert (count.name, count.unit) == ("investigators", "count")
    before = _measure("In calendar year 2004, FAA employees received an OSI increase of 2.13 percent.", "2.13")
    assert before.name == "OSI increase" and before.unit == "%"
    money = _measure("In fiscal year 2005 federal expenditures on CSE were $3.5 billion, with states spending.", "3.5")
    assert money.unit == "USD billion" and "expenditures" in money.name
    payments = _measure("In fiscal year 2005 OCSE made over $450 million in incentive payments to states.", "450")
    assert (payments.name, payments.unit) == ("incentive payments", "USD million")
    low = _measure("States receive an incentive payment from 6 to 10 percent of their total collections.", "6")
    high = _measure("States receive an incentive payment from 6 to 10 percent of their total collections.", "10")
    assert low.name.startswith("lowest ") and high.name.startswith("highest ") and "total collections" in high.name
    dropout = _measure("We use a batch size of 128, dropout of 0.3 and Adam optimizer with a learning rate of 5e-5.", "0.3")
    assert dropout.name == "dropout" and dropout.unit == ""
    batch = _measure("We use a batch size of 128, dropout of 0.3 and Adam optimizer.", "128")
    assert batch.name == "batch size"
    measures = _measure("VHA used the entire set of 10 cardiovascular performance measures.", "10")
    assert measures.name == "cardiovascular performance measures"
    order = _measure("SBA devoted resources on the order of $11 million to the centers.", "11")
    assert order is None or "order" not in order.name
    far = _measure("It increased seat belt usage nationally from 11 percent in 1985 to 80 percent in 2004.", "80")
    assert far.name == "seat belt usage nationally" and "2004" in far.subject
    assert _measure("The numbers rose sharply over the week, 12 and more.", "12") is None


def _table(header, rows, number=1) -> Table:
    return Table(id=f"table_{number}", number=number, caption=f"Table {number}: x", page=2, header=header, rows=rows)


def test_list_numbered_and_term_tables_are_lists():
    numbered = _table(["#", "Step", "Owner"], [["1.", "Collect", "team"], ["2.", "Review", "lead"], ["5.", "Ship", "ops"]])
    terms = _table(["Term", "Definition"], [["AI system", "A machine-based system"], ["Risk", "The composite measure"]])
    results = _table(["System", "F1"], [["-bigram", "0.31"], ["-import.", "0.30"], ["All", "0.33"]])
    assert list_table_reason(numbered) and list_table_reason(terms) and not list_table_reason(results)
    tally = Tally()
    assert table_facts(numbered, tally) == [] and tally.counts["list_table"] == 3


def test_counts_printed_with_their_shares_are_results():
    """'1269 (19.9%)', '101(20.4%)': a count and its share in one cell (EU report's Table 2.2, whose
    every cell is so printed, had been read as a table of few numbers and gave no fact)."""
    shares = _table(["Faculty cluster", "Population size", "Sample size"],
                    [["Sciences", "1269 (19.9%)", "101(20.4%)"], ["Humanities", "1168 (18.4%)", "95(19.3%)"]])
    assert not list_table_reason(shares)
    assert {(f.subject, f.value) for f in table_facts(shares, Tally())} >= {("Sciences", "1269 (19.9%)"),
                                                                            ("Humanities", "95(19.3%)")}


def test_multi_level_header_and_row_subject():
    table = _table(["Model", "Classification", "", "Citation"],
                   [["", "MAG F1", "MeSH F1", "MAP"], ["SPECTER", "82.0", "86.4", "88.3"], ["SGC", "76.8", "82.7", "91.6"]])
    names, header_rows = header_names(table)
    assert header_rows == 1 and names[1] == "Classification MAG F1" and names[2] == "Classification MeSH F1"
    facts = table_facts(table, Tally())
    assert {(f.subject, f.measure, f.value) for f in facts} >= {("SPECTER", "Classification MeSH F1", "86.4"),
                                                                ("SGC", "Citation MAP", "91.6")}


def test_question_scan_flags_nameless_measures_and_identifiers():
    assert question_defects("What value was recorded for the second value of GAO (prose view)?") == ["nameless measure"]
    assert "identifier" in question_defects("What was cited in GAO-04-38?")
    assert question_defects("What was the OSI increase FAA employees received in 2004?") == []


def test_labelled_set_is_large_enough():
    facts = non_facts = reports = 0
    files = sorted(LABELS.glob("*.yaml"))
    for path in files:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        facts += len(data.get("facts") or []) + sum(len(r) for t in data.get("tables") or [] for r in t["rows"].values())
        non_facts += len(data.get("non_facts") or [])
        reports += data["kind"] == "report"
        assert {n["class"] for n in data.get("non_facts") or []} <= {"furniture", "numbering", "identifier", "citation",
                                                                   "date", "no_measure"}, path.name
    assert len(files) >= 8 and reports >= 4 and facts >= 200 and non_facts >= 100


# --- property: generated documents with footers, list tables, identifiers and years ----------------------------

FACT_SENTENCES = [
    "The agency reported that {v} percent of managers used performance information.",
    "These investigations are conducted by {v} investigators located at field offices.",
    "In that year the median review time was {v} days across all offices.",
    "The programme spent ${v} million on outreach to small businesses.",
]
NON_FACT_SENTENCES = [
    "The Act was enacted as Pub. L. No. {a}-{b} in the same session.",
    "See GAO-{a}-{b} (Washington, D.C.: Mar. 10, {y}).",
    "The guidance follows ISO/IEC {id} and Executive Order {id}.",
    "The review began in {y} and ended in {y2}.",
    "We identify (1) the challenges and (2) the mechanisms used.",
    "Contact the office at 100 Bureau Drive, Gaithersburg, MD {zip}.",
]


def _document(draw) -> tuple[SourceDocument, set[str], set[str]]:
    n_pages = draw(st.integers(3, 6))
    facts_v, planted = set(), set()
    pages = []
    for page in range(1, n_pages + 1):
        blocks = [TextBlock(page=page, bbox=(50, 20, 500, 32), text=f"Department for Testing {page:02d}")]
        y = 80.0
        for _ in range(draw(st.integers(2, 4))):
            value = str(draw(st.integers(13, 97))) + draw(st.sampled_from(["", ".5", ".25"]))
            sentence = draw(st.sampled_from(FACT_SENTENCES)).format(v=value)
            a, b = draw(st.integers(90, 120)), draw(st.integers(201, 899))
            year, year2 = draw(st.integers(1990, 2024)), draw(st.integers(1990, 2024))
            ident, zipcode = draw(st.integers(10001, 99999)), draw(st.integers(20001, 29999))
            noise = draw(st.sampled_from(NON_FACT_SENTENCES)).format(a=a, b=b, y=year, y2=year2, id=ident, zip=zipcode)
            planted |= {str(b), str(year), str(year2), str(ident), str(zipcode)} if "{" not in noise else set()
            facts_v.add(value)
            blocks.append(TextBlock(page=page, bbox=(50, y, 500, y + 40), text=f"{sentence} {noise}"))
            y += 60
        blocks.append(TextBlock(page=page, bbox=(280, 780, 300, 792), text=str(page)))
        pages.append(PageText(page=page, text="\n".join(b.text for b in blocks), blocks=blocks))
    listed = _table(["No.", "Action", "Owner"], [[f"{i}.", f"Do thing {i}", "team"] for i in range(1, 6)])
    doc = SourceDocument(seed_id="generated", provenance=make_provenance("generated", "ingestion", "rules"),
                         title="Generated report", path="g.pdf", sha256="0", n_pages=n_pages, pages=pages,
                         tables=[listed], figures=[], numeric_claims=[])
    return doc, facts_v, planted


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(st.data())
def test_generated_non_facts_never_become_facts(data):
    doc, fact_values, planted = _document(data.draw)
    facts, non_facts = extract_facts(doc)
    values = {f.value for f in facts}
    assert not (values & planted), sorted(values & planted)
    assert all(f.measure.strip() for f in facts)
    assert not any(f.value in {"1.", "2.", "3.", "4.", "5."} or f.table_id for f in facts)  # the list table
    assert {n.reason for n in non_facts} >= {"furniture", "list_table"}
    assert len(values & fact_values) >= 0.75 * len(fact_values)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(st.data())
def test_generated_fact_sets_never_fail_a_plan_check_above_the_floor(data):
    """Item-level repair: above the floor (one item from a fact row, a claim or a section review) no
    plan check fails the seed; below it the seed is refused in one line naming the document and counts."""
    from mmeb_assets.facts.attach import attach_facts
    from mmeb_assets.facts.source_facts_rules import RulesSourceFacts
    from mmeb_assets.simulation.api import build_event_plan, build_organization
    from mmeb_assets.simulation.checks_content import check_plan
    from mmeb_assets.simulation.refusal import SeedRefused, refusal_reason

    doc, _facts, _planted = _document(data.draw)
    facts = attach_facts(RulesSourceFacts().extract(doc, domain=""), doc)
    if refusal_reason(facts) is not None:
        with pytest.raises(SeedRefused, match=rf"Generated report.*{len(facts.facts)} fact") as caught:
            build_organization(facts, random_seed=0)
        assert "\n" not in str(caught.value)
        return
    org = build_organization(facts, random_seed=0)
    plan = build_event_plan(facts, org, random_seed=0)
    assert {k: v for k, v in check_plan(facts, org, plan).items() if v} == {}


def _structured(caption: str, column_paths, row_paths, rows) -> Table:
    return Table(id="table_1", number=1, caption=caption, page=3, header=[" ".join(p) for p in column_paths],
                 rows=rows, column_paths=column_paths, row_paths=row_paths, stub_columns=1)


def test_repeated_row_and_column_names_give_no_facts():
    table = _structured("Table 1: Number of questions in each QA dataset.",
                        [[], ["Train"], ["Train"], ["Test"]], [["NQ"], ["Gold"], ["Gold"]],
                        [["NQ", "79,168", "58,880", "3,610"], ["Gold", "7", "8", "9"], ["Gold", "10", "11", "12"]])
    tally = Tally()
    facts = table_facts(table, tally)
    assert [(f.measure, f.subject, f.value) for f in facts] == [("Number of questions (Test)", "NQ", "3,610")]
    named = named_table(table)
    assert named.header == ["", "Number of questions (Test)"] and named.rows == [["NQ", "3,610"]]


def test_a_column_without_a_header_gives_no_facts_and_no_placeholder_name():
    """A header the reader could not find ('column 3') is no name a question may use."""
    table = _structured("Table 9: The types of annotators used across papers.", [[], [], ["# papers"]],
                        [["Graduate students"], ["Upwork freelancers"]],
                        [["Graduate students", "7", "13 / 44"], ["Upwork freelancers", "3", "2 / 44"]])
    facts = table_facts(table, Tally())
    assert {f.measure for f in facts} == {"# papers"}
    named = named_table(table)
    assert named.header == ["", "# papers"] and named.rows == [["Graduate students", "13 / 44"],
                                                               ["Upwork freelancers", "2 / 44"]]


def test_the_caption_names_what_split_columns_count():
    table = _structured("Table 2: Number of questions in each QA dataset.", [[], ["Dev"]], [["NQ"]], [["NQ", "8,757"]])
    assert caption_quantity(table) == "Number of questions"
    assert measure_name(table, ["Dev"], "") == "Number of questions (Dev)"
    plain = _structured("Table 3: BLEU scores on the test set.", [[], ["Dev"]], [["NQ"]], [["NQ", "8.7"]])
    assert measure_name(plain, ["Dev"], "") == "BLEU scores (Dev)"  # a split column: the caption says what
    assert measure_name(plain, ["Accuracy"], "") == "Accuracy"       # a column that names its own measure
    results = _structured("Table 4: Results of human evaluation.", [[], ["Dev"]], [["NQ"]], [["NQ", "8.7"]])
    assert measure_name(results, ["Dev"], "") == "Dev"               # 'results' measure nothing
    votes = _structured("Table 2: Responses to comparison questions.", [[], ["Q1 Info"]], [["GS"]], [["GS", "9"]])
    assert measure_name(votes, ["Q1 Info"], "") == "Responses to comparison questions (Q1 Info)"
    several = _structured("Table 1: Accuracy and throughput on ChartBench-S.", [[], ["Visual tokens"]], [["A"]],
                          [["A", "576"]])
    assert measure_name(several, ["Visual tokens"], "") == "Visual tokens"  # two measures: neither leads


@pytest.mark.parametrize("sentence,facts", [
    ("To illustrate, let us consider a 40-year-old male who weighs 71.3 kg and is 1.78 m tall.", 0),
    ("Suppose a team of 12 people reviews 300 documents a week.", 0),
    ("For example, while 56 percent of managers overall reported using performance information, others did not.", 1),
])
def test_worked_examples_give_no_facts(sentence, facts):
    from mmeb_assets.facts.prose import Tally, _number_facts

    tally = Tally()
    assert len(_number_facts(sentence, 1, tally)) == facts
    assert (tally.counts.get("example", 0) > 0) == (facts == 0)


@pytest.mark.parametrize("sentence,value,reason", [
    ("3 http://www.whitehouse.gov/omb/circulars/a130.html 4 http://csrc.nist.gov/drivers/documents/FISMA-final.pdf", "4",
     "numbering"),
    ("NIST Special Publication 800-30, 54 pages (July 2002)", "54", "citation"),
    ("Increase the delay with each attempt (e.g., 1 minute before the following failed attempt).", "1", "example"),
])
def test_footnote_links_page_counts_and_illustrations(sentence, value, reason):
    assert _reason(sentence, value) == reason


def test_requirement_keywords_and_cited_numbers_name_no_subject():
    from mmeb_assets.facts.prose import Tally, _number_facts

    facts = _number_facts("The key SHALL provide the strength specified in SP 800-131A (112 bits as of this date).", 1, Tally())
    assert [(f.value, f.subject) for f in facts] == [("112", "")]
    facts = _number_facts("Look-up secrets having at least 112 bits of entropy SHALL be hashed.", 1, Tally())
    assert [f.measure for f in facts] == ["bits of entropy"]


def test_row_groups_that_name_the_measure_are_read_one_group_at_a_time():
    """Columns are behaviours, row groups say what is measured: each group is its own table, its rows
    named by their own label, so no value is asked as another group's measure."""
    from mmeb_assets.facts.row_groups import measure_groups

    cols = [[], ["Accel/decel", "smoothing"], ["Speed", "optimization"]]
    rows = [["Med-low", "5%", "8%"], ["Very high", "30%", "35%"], ["Med-low", "30%", "20%"], ["Very high", "8%", "10%"]]
    paths = [["Per cycle fuel savings potential", r[0]] for r in rows[:2]] + \
            [["Frequency of opportunity occurrence", r[0]] for r in rows[2:]]
    table = _structured("Table 4-1: Fuel savings by driving behaviour.", cols, paths, rows)
    parts = measure_groups(table)
    assert [p.id for p in parts] == ["table_1_g1", "table_1_g2"]
    facts = [(f.measure, f.subject, f.value) for p in parts for f in table_facts(p, Tally())]
    assert ("Per cycle fuel savings potential (Speed optimization) (%)", "Med-low", "8%") in facts
    assert ("Frequency of opportunity occurrence (Accel/decel smoothing) (%)", "Very high", "8%") in facts
    assert len(facts) == 8
    by_measure = _structured("Table 2: Scores.", [[], ["Accuracy"], ["F1 score"]], paths, rows)
    assert measure_groups(by_measure) == [by_measure]  # the columns name the measure: groups are subjects


def test_a_row_label_holding_values_gives_no_fact():
    """Several values per cell ran into the stub ('0.29 0.2 (Prodigy-METEO 0.19 0.69 0)'): no reader
    names a row so; a range of amounts or an age band is a label."""
    from mmeb_assets.facts.misreads import values_in_label as _values_in_label

    assert _values_in_label("0.29 0.2 (Prodigy-METEO 0.19 0.69 0)")
    assert _values_in_label("-1 1e-4 0.6, (Weather.gov 0.6 0.8)")
    assert not any(_values_in_label(label) for label in ("$5,000–9,999", "45–54 (Men)", "Scene 4", "GPT-3 175B"))


def test_a_figure_is_named_by_words_of_its_own_sentence():
    from mmeb_assets.simulation.statement_items import figure_clause

    assert figure_clause("94% chose the right individual.", "94%", "94") == "…% chose the right individual"
    assert figure_clause("Approximately 35% of the range of mink habitat in the United States is exposed.", "35%",
                         "35") == "Approximately …% of the range of mink habitat in the United States is exposed"
