"""A table whose rows run on into the caption printed under them, as one text block of the page
(CiteSee's Table 2, ACM style): the caption is found, the rows above it are the table, and rows
marked with a dash under an unmarked row are nested under it ('Card Opens' / '- FamiliarCite')."""
from __future__ import annotations

import random

import pymupdf
import pytest

from mmeb_assets.ingestion.document import ingest_pdf
from mmeb_assets.ingestion.table_indent import dash_nesting

PEOPLE = ["P1", "P2", "P3", "P4"]
ROWS = [("Paper Opens", False), ("Card Opens", False), ("FamiliarCite", True), ("ReencounteredCite", True),
        ("Paper Saves", False), ("FamiliarCite", True), ("SearchExternal", True)]


def _pdf(path, rng: random.Random) -> dict:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    x_label, xs, y, leading = 72, [190, 230, 270, 310], 100, 11
    page.draw_line((70, y - 9), (330, y - 9))
    page.insert_text((x_label, y), "Action", fontsize=8)
    for x, name in zip(xs, PEOPLE):
        page.insert_text((x, y), name, fontsize=8)
    page.draw_line((70, y + 3), (330, y + 3))
    expected, parent = {}, ""
    for label, nested in ROWS:
        y += leading
        page.insert_text((x_label, y), f"- {label}" if nested else label, fontsize=8)
        parent = parent if nested else label
        for x, name in zip(xs, PEOPLE):
            value = f"{rng.randint(2, 60)}%" if nested else str(rng.randint(10, 200))
            page.insert_text((x, y), value, fontsize=8)
            expected[(parent, label, name) if nested else (label, name)] = value
    page.draw_line((70, y + 3), (330, y + 3))
    for line in ("Table 2: Usage statistics from the field study. Participants opened and",
                 "saved papers through the cards throughout the week."):
        y += leading
        page.insert_text((x_label, y), line, fontsize=8)
    page.insert_text((72, y + 60), "The study ran for one week with six participants. " * 2, fontsize=9)
    doc.save(path)
    return expected


@pytest.mark.parametrize("seed", range(3))
def test_a_caption_under_its_rows_in_one_block_gives_the_table(seed, tmp_path):
    expected = _pdf(tmp_path / "t.pdf", random.Random(seed))
    document = ingest_pdf(tmp_path / "t.pdf", tmp_path / "out", "under")
    [table] = [t for t in document.tables if t.number == 2]
    assert table.kind == "results" and table.caption.startswith("Table 2: Usage statistics")
    found = {(*path, column[-1]): value for path, row in zip(table.row_paths, table.rows)
             for column, value in zip(table.column_paths[1:], row[1:])}
    assert found == expected


def test_dashes_nest_only_under_an_unmarked_row():
    assert dash_nesting(["Opens", "- Familiar", "- New", "Saves", "- Familiar"]) == (
        ["Opens", "Familiar", "New", "Saves", "Familiar"], [[], ["Opens"], ["Opens"], [], ["Saves"]])
    assert dash_nesting(["- one", "- two"]) is None  # a list
    assert dash_nesting(["Opens", "Saves"]) is None


def test_questions_compare_cells_of_one_unit_only(tmp_path):
    """The table's columns hold counts in the unmarked rows and shares in the nested ones: every
    computation and comparison works on cells of one unit ('96 vs 14%' compares nothing)."""
    from mmeb_assets.facts.attach import attach_facts
    from mmeb_assets.facts.source_facts_rules import RulesSourceFacts
    from mmeb_assets.ingestion.document import ingest_pdf as ingest
    from mmeb_assets.provenance import make_provenance
    from mmeb_assets.qa.evidence import ProjectIndex
    from mmeb_assets.qa.generate import generate_rule_items, make_context
    from mmeb_assets.qa.text import parse_number
    from mmeb_assets.records.render import render_records
    from mmeb_assets.simulation import api

    _pdf(tmp_path / "t.pdf", random.Random(7))
    document = ingest(tmp_path / "t.pdf", tmp_path / "out", "under")
    facts = attach_facts(RulesSourceFacts().extract(document, domain=""), document)
    org = api.build_organization(facts, random_seed=0)
    plan = api.build_event_plan(facts, org, random_seed=0)
    index = ProjectIndex(plan=plan, org=org, records=render_records(facts, org, plan, tmp_path, random_seed=0))
    items = generate_rule_items(make_context(index, make_provenance("under", "qa", "rules")))
    checked = 0
    shares = [i for i in items if i.derivation and i.derivation.kind == "rank" and i.generator.endswith("comparison.pair")
              and all(o.endswith("%") for o in i.derivation.operands)]
    assert shares and all(i.gold.answer.endswith("points)") for i in shares), [i.gold.answer for i in shares]
    for item in items:
        if item.task not in ("computation", "comparison") or item.derivation is None:
            continue
        values = [o.split("=")[-1].strip() for o in item.derivation.operands]
        values = [v for v in values if parse_number(v) is not None]
        if len(values) >= 2:
            checked += 1
            assert len({v.endswith("%") for v in values}) == 1, (item.q, values)
    assert checked >= 3
