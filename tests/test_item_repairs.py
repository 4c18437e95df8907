"""Issue 19: one defective item (table, claim, cell) is repaired or dropped, never a whole seed; checks
compare identities, not printed strings. Property tests generate the real PDFs' odd cases: equal values
in many cells, values equal to years, tables of 20-30 columns, ragged rows, ranges, thousands separators."""
from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pymupdf
from hypothesis import given, settings, strategies as st

from mmeb_assets.ingestion.numbers import claims_in_sentence, sentences
from mmeb_assets.facts.repairs import drop_unverified_claims
from mmeb_assets.ingestion.repairs import screen_tables, table_defects
from mmeb_assets.records.checks_files import pending_rows_printed
from mmeb_assets.records.pdf_report import build_pdf, column_parts
from mmeb_assets.records.report_spec import Block, Page, ReportSpec
from mmeb_assets.schema.common import Provenance
from mmeb_assets.schema.source import Claim, SourceDocument, SourceFacts, Table, TextualExtraction
from mmeb_assets.schema.workspace import DocumentPlan, EventPlan, PlanItem
from mmeb_assets.simulation.plan import policed_pixel_value

cell_value = st.builds(lambda a, b: f"{a}.{b:02d}", st.integers(0, 999), st.integers(0, 99))


def _squash(text: str) -> str:
    return " ".join(text.split())


def _pdf_text(path: Path) -> str:
    with pymupdf.open(path) as doc:
        return _squash("\n".join(page.get_text() for page in doc))


@settings(max_examples=8, deadline=None)
@given(n_cols=st.integers(2, 30), n_rows=st.integers(1, 18), data=st.data())
def test_any_table_renders_and_every_cell_reads_back(tmp_path_factory, n_cols, n_rows, data):
    """Wide (20-30 columns), ragged and long tables render without a LayoutError; every cell is in the text."""
    header = ["Model"] + [f"m{j}" for j in range(1, n_cols)]
    rows = []
    for r in range(n_rows):
        width = data.draw(st.integers(1, n_cols)) if r % 3 == 2 else n_cols  # some rows ragged
        rows.append([f"sys{r}"] + [data.draw(cell_value) for _ in range(width - 1)])
    spec = ReportSpec(title="t", pages=[Page(blocks=[Block(kind="heading", text="Results"),
                                                     Block(kind="table", header=header, rows=rows)])])
    path = build_pdf(spec, {}, tmp_path_factory.mktemp("pdf") / "r.pdf", author="a")
    text = _pdf_text(path)
    for cell in {c for row in rows for c in row}:
        assert cell in text


def test_a_cell_taller_than_a_page_still_renders(tmp_path):
    long = " ".join(f"word{n}" for n in range(2500))
    spec = ReportSpec(title="t", pages=[Page(blocks=[Block(kind="table", header=["a", "b"], rows=[[long, "4.25"]])])])
    text = _pdf_text(build_pdf(spec, {}, tmp_path / "r.pdf", author="a"))
    assert "4.25" in text and "word2499" in text


@given(st.integers(1, 40), st.integers(2, 9))
def test_column_parts_keep_every_column_once_and_repeat_the_label(n_columns, per_part):
    parts = column_parts(n_columns, per_part)
    assert all(p[0] == 0 and len(p) <= max(per_part, 1) for p in parts)
    assert sorted({c for p in parts for c in p}) == list(range(n_columns))
    assert sum(len(p) - 1 for p in parts) == n_columns - 1 or n_columns <= per_part


def _table(rows, header=("a", "b", "c"), caption="Table 1: results", tid="table_1") -> Table:
    return Table(id=tid, number=1, caption=caption, page=1, header=list(header), rows=[list(r) for r in rows])


def test_ragged_or_uncaptioned_tables_are_dropped_with_the_reason():
    good = _table([["x", "1", "2"]])
    ragged = _table([["x", "1"], ["y", "1", "2", "3", "4"]], tid="table_2")
    uncaptioned = _table([["x", "1", "2"]], caption="Results of the runs", tid="table_3")
    kept, repairs = screen_tables([good, ragged, uncaptioned])
    assert kept == [good]
    assert repairs[0].startswith("dropped table_2 (page 1): row widths [2, 3, 5]")
    assert "table_3" in repairs[1] and "caption" in repairs[1]
    assert table_defects(good) == []


SENTENCE_PARTS = st.sampled_from([
    "It ran on the {a}-{b} finals", "pages {a}–{b} of the proceedings", "public law {a}-\n{b} was passed",
    "from {a} to {b} in total", "about {a},{c:03d} people attended", "the score rose to {a}.{b}",
    "held in {y} with {a} teams", "a budget of ${a},{c:03d} was set",
])


@settings(max_examples=150)
@given(parts=st.lists(st.tuples(SENTENCE_PARTS, st.integers(1, 999), st.integers(1, 999), st.integers(0, 999),
                                st.integers(1900, 2030)), min_size=1, max_size=4))
def test_claim_values_are_verbatim_and_ranges_and_ids_are_not_values(parts):
    text = ". ".join(p.format(a=a, b=b, c=c, y=y) for p, a, b, c, y in parts) + "."
    flat = _squash(text.replace("-\n", "-"))
    for sentence in sentences(text):
        for claim in claims_in_sentence(sentence, 1):
            assert claim.value in flat, (claim.value, text)                    # verbatim in the source
            assert not (len(claim.value) == 4 and claim.value[:2] in ("19", "20") and not claim.unit)  # no bare year
            standalone = re.compile(r"(?<![\d.,\-–])" + re.escape(claim.value) + r"(?![\d]|,\d|\s?[-–]\s?\d)")
            assert standalone.search(sentence), (claim.value, sentence)  # not one end of a range or id


def test_thousands_separators_stay_in_one_value():
    values = [c.value for s in sentences("About 105,200 people and 1,512 teams took part in 2004 overall.")
              for c in claims_in_sentence(s, 1)]
    assert values == ["105,200", "1,512"]


def _facts(claims: list[Claim]) -> SourceFacts:
    provenance = Provenance(seed_id="s", stage="source_facts", generator="rules")
    textual = TextualExtraction.model_construct(method_name="M", one_sentence="", task_summary="", claims=claims,
                                                config_facts=[], components=[], pipeline_steps=[])
    return SourceFacts.model_construct(seed_id="s", provenance=provenance, textual=textual, visual=[], figures=[],
                                       tables=[])


def test_a_claim_whose_number_is_not_in_the_source_is_dropped_alone():
    document = SourceDocument.model_construct(pages=[], tables=[_table([["GOLD", "23.38", "4.40"]])])
    good = Claim(text="GOLD reaches 23.38", value_strings=["23.38"], label="GOLD score")
    joined = Claim(text="public law 113274", value_strings=["113274"], label="law")
    repaired = drop_unverified_claims(_facts([joined, good]), document)
    assert repaired.textual.claims == [good]
    assert repaired.provenance.repairs == [
        "dropped claims 0: claims[0].value_strings: '113274' does not occur verbatim in the source"]


@given(st.sampled_from(["2000", "1999", "2024", "500", "3000", "100"]))
def test_years_and_round_ticks_are_not_pixel_only_facts(value):
    assert not policed_pixel_value(value)


@given(st.sampled_from(["97.4", "0.842", "1,512", "23.38", "12%", "4.5x"]))
def test_distinctive_values_stay_policed(value):
    assert policed_pixel_value(value)


def _plan(values: dict[str, dict[str, str]], pending: list[str]) -> tuple[EventPlan, DocumentPlan]:
    items = [PlanItem(id=i, kind="progression", label=f"System {i}", owner="a", completed_at=datetime(2026, 3, 2),
                      values=v) for i, v in values.items()]
    doc = DocumentPlan.model_construct(id="report_v1", pending_item_ids=pending, item_ids=list(values))
    return EventPlan.model_construct(items=items), doc


@settings(max_examples=6, deadline=None)
@given(value=cell_value, n_equal=st.integers(1, 6))
def test_a_pending_result_is_printed_only_when_its_own_row_shows_it(tmp_path_factory, value, n_equal):
    """Equal values in many available cells do not count; the pending item's own row does."""
    values = {f"run_{n}": {"score": value, "extra": f"{n}.5"} for n in range(n_equal)}
    values["run_p"] = {"score": value, "extra": "77.7"}
    plan, doc = _plan(values, ["run_p"])
    rows = [[f"System run_{n}", value, f"{n}.5"] for n in range(n_equal)]
    folder = tmp_path_factory.mktemp("pending")
    clean = build_pdf(ReportSpec(title="t", pages=[Page(blocks=[Block(
        kind="table", header=["Item", "score", "extra"], rows=rows + [["System run_p", "pending", "pending"]])])]),
        {}, folder / "clean.pdf", author="a")
    assert pending_rows_printed(clean, plan, doc, "clean.pdf") == []
    leaked = build_pdf(ReportSpec(title="t", pages=[Page(blocks=[Block(
        kind="table", header=["Item", "score", "extra"], rows=rows + [["System run_p", "pending", "77.7"]])])]),
        {}, folder / "leaked.pdf", author="a")
    assert pending_rows_printed(leaked, plan, doc, "leaked.pdf") == [
        "leaked.pdf: the row of pending run_p ('System run_p') prints '77.7'"]


def test_a_header_that_swallowed_prose_drops_its_table():
    swallowed = _table([["GOLD", "12.24", "23.38"]], header=("(2010), Woodsend and Lapata (2011)", "", "respectively. UNSUP is our"))
    messages = _table([["x", "1", "2"]], header=("I + 1", "Questo menu non e buono. Il menu e ricco.", "This menu is not good."))
    assert any("reads as running text" in p for p in table_defects(swallowed))
    assert table_defects(messages) == []
