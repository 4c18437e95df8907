"""Issue 27 item 3: gold evidence is sufficient and necessary, checked by a value oracle.

For questions whose answer is computed from values (a lookup, a difference, a ratio, a ranking), the
oracle reads the operand values off the gold records (stored text and the text drawn in images):
- sufficient: every operand is shown by some gold record;
- necessary: leaving out any one gold record loses an operand that no other gold record shows.
Each property also runs against a planted defect (a surplus record added, a needed one removed).

The oracle reads values, not meaning, so it is applied to the families whose operands are distinct
readings of distinct records. Corrections (a record shows the wrong and the right value), tracker checks
(the page and the announcement show the same value when the answer is yes) and "moves from A to B"
histories (each message repeats the previous value) need the reader's understanding, not the values.
"""
from __future__ import annotations

import pytest

from generated_projects import rendered_projects
from mmeb_assets.qa.evidence import ProjectIndex

N_RENDERED = 3
VALUE_FAMILIES = {"extraction.cell", "extraction.picture", "extraction.invented", "extraction.text_cell",
                  "computation.difference", "computation.ratio", "computation.fact_change", "comparison.pair",
                  "comparison.rank", "comparison.fact_states", "temporal.visual_versions", "temporal.doc_version",
                  "interpretation.rank_claim", "interpretation.level_claim"}


def operand_values(item) -> list[str]:
    """The values the derivation reads ('SPECTER=79.3' is read as '79.3')."""
    return [op.rsplit("=", 1)[-1] for op in item.derivation.operands]


def gold_problems(index: ProjectIndex, item, evidence: list[str]) -> list[str]:
    """Why `evidence` is not an exact gold for `item` (empty when sufficient and necessary)."""
    records = [index.by_id[r] for r in evidence]
    values = operand_values(item)
    out = [f"no gold record shows {v!r}" for v in values if not any(index.shows(r, v) for r in records)]
    for record in records:
        others = [r for r in records if r.id != record.id]
        if records and all(any(index.shows(o, v) for o in others) for v in values):
            out.append(f"{record.id} is not needed: the other gold records show every operand")
    return out


@pytest.fixture(scope="module")
def checked():
    """(index, question) for every answerable value question of the rendered projects."""
    out = []
    for p in rendered_projects(N_RENDERED):
        index = ProjectIndex(plan=p.plan, org=p.org, records=p.records)
        out += [(index, i) for i in p.items if i.answer_status == "answerable"
                and i.generator.split(":")[-1] in VALUE_FAMILIES and i.derivation.operands and i.evidence]
    return out


def test_value_golds_are_sufficient_and_necessary(checked):
    assert len(checked) >= 30 and any(len(i.evidence) >= 2 for _, i in checked)
    bad = {i.id: gold_problems(index, i, i.evidence) for index, i in checked}
    assert {k: v for k, v in bad.items() if v} == {}


def test_a_surplus_record_or_a_missing_one_is_caught(checked):
    """Planted defects: a second record that shows an operand is added (not necessary), or the first gold
    record is dropped (not sufficient)."""
    planted = 0
    for index, item in checked:
        extra = next((r.id for r in index.records.records if r.id not in item.evidence
                      and any(index.shows(r, v) for v in operand_values(item))), None)
        if len(item.evidence) < 2 or extra is None:
            continue
        assert any("not needed" in p for p in gold_problems(index, item, item.evidence + [extra]))
        assert any("no gold record shows" in p for p in gold_problems(index, item, item.evidence[1:]))
        planted += 1
    assert planted >= 5
