"""Evidence that shows what is asked (`qa/evidence_shows.py`): for every table cell a question rests
on, some cited record prints the value in the asked row and names the asked measure, read from the
rendered records. Generated projects give questions whose cited records show it, and the oracle
catches evidence that only holds the same digits elsewhere."""
from __future__ import annotations

import pytest

from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.evidence_shows import evidence_problems, operands
from mmeb_assets.qa.row_lines import row_shows
from tests.generated_projects import rendered_projects

N_PROPERTY = 12


@pytest.mark.parametrize("lines, shown", [
    (["Item | 2016 | 2015", "Streaming over time | 620,109 | 1", "Forecast hybrid | 5 | 7"], False),  # other row
    (["Item | 2016 | 2015", "Forecast hybrid over time | 620,109 | 7"], True),
    (["Forecast hybrid", "Ana", "620,109", "Streaming", "3"], True),         # one cell a line
    (["Forecast hybrid", "Ana", "-", "Streaming", "620,109"], False),        # '-' in the row, the value below
])
def test_a_value_counts_only_in_its_own_row(lines, shown):
    assert row_shows(lines, "Forecast hybrid over time", ["Streaming over time"], ("620,109",)) is shown


def _indexed(n: int):
    for p in rendered_projects(n):
        yield p, ProjectIndex(plan=p.plan, org=p.org, records=p.records)


def test_generated_questions_cite_records_that_show_each_cell():
    """About a minute: 12 generated projects rendered and asked."""
    checked, problems = 0, []
    for p, index in _indexed(N_PROPERTY):
        checked += sum(1 for i in p.items if operands(index, i))
        problems += evidence_problems(index, p.items)
    assert checked >= 200 and problems == []


def _one_cell_question():
    """(project, index, question) of the first generated lookup of one table cell."""
    return next((p, index, i) for p, index in _indexed(N_PROPERTY) for i in p.items
                if i.task == "extraction" and len(operands(index, i)) == 1)


def test_a_record_that_names_another_measure_is_no_evidence():
    p, index, question = _one_cell_question()
    (operand,) = operands(index, question)
    renamed = "F1 precision-only score"  # a column the records never name
    item = operand.item.model_copy(update={"values": {**operand.item.values, renamed: operand.item.values[operand.column]}})
    plan = p.plan.model_copy(update={"items": [item if i.id == item.id else i for i in p.plan.items]})
    key = question.derivation.fact_key.replace(f":{operand.column}", f":{renamed}")
    moved = question.model_copy(update={"derivation": question.derivation.model_copy(update={"fact_key": key})})
    assert evidence_problems(ProjectIndex(plan=plan, org=p.org, records=p.records), [moved])
    assert not evidence_problems(index, [question])


def test_a_record_of_another_row_is_no_evidence():
    p, index, question = _one_cell_question()
    (operand,) = operands(index, question)
    others = [i for i in p.plan.items if i.table_id == operand.item.table_id and i.id != operand.item.id
              and i.values.get(operand.column, "").strip() not in ("", operand.item.values[operand.column])]
    other = others[0]
    key = question.derivation.fact_key.replace(operand.item.id, other.id)
    moved = question.model_copy(update={"derivation": question.derivation.model_copy(update={"fact_key": key})})
    assert evidence_problems(index, [moved])
