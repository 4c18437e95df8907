"""Stale documents, exact: the gold of a 'which documents still showed the old value' question is the
set of documents whose version current at the correction shows the old value as the target's value,
read from the rendered records (`qa/stale_oracle.py`), never the plan's intent alone."""
from __future__ import annotations

import pytest

from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.stale_oracle import shows_as_current, stale_gold_problems
from tests.generated_projects import rendered_projects

N_PROPERTY = 30


@pytest.mark.parametrize("lines, shown", [
    (["| Item | Owner | Distinct-2 |", "| S2S(Base) | Ana | 0.0086 |"], True),          # the target's row
    (["S2S RR (progression): Distinct-2 0.0086", "S2S(Base): Distinct-2 0.0047"], False),  # old digits, other row
    (["S2S(Base)", "Ana", "0.0086", "S2S RR", "0.0047"], True),                            # one cell a line
    (["S2S(Base)", "Ana", "0.0047", "S2S RR", "0.0086"], False),                           # next row's cell
    (["Correction on S2S(Base): 0.0086 was wrong, the right value is 0.0047."], False),   # a correction
])
def test_a_line_shows_the_old_value_as_the_targets(lines, shown):
    assert shows_as_current(lines, ["S2S(Base)"], ["S2S RR"], "0.0086", "0.0047") is shown


def test_the_unit_is_part_of_the_value():
    lines = ["nightly re-index duration: 48 h", "Measured nightly re-index duration: 48 min."]
    assert shows_as_current(lines, ["nightly re-index duration"], [], "48 h", "48 min")
    assert not shows_as_current(lines[1:], ["nightly re-index duration"], [], "48 h", "48 min")


def _problems(projects) -> tuple[int, list[str]]:
    checked, problems = 0, []
    for p in projects:
        index = ProjectIndex(plan=p.plan, org=p.org, records=p.records)
        checked += sum(1 for i in p.items if i.generator.endswith("cross_source.stale"))
        problems += [f"{p.org.seed_id} {line}" for line in stale_gold_problems(index, p.items)]
    return checked, problems


def test_stale_golds_are_what_the_records_show_over_30_projects():
    """About a minute: 30 generated projects rendered and asked."""
    checked, problems = _problems(rendered_projects(N_PROPERTY))
    assert checked >= 20 and problems == []


def test_notion_pages_are_documents_with_one_title_each():
    """Issue 53: a results-log or metric page left showing the old value until Notion catches up is in
    the gold, and no two Notion pages of a project share a title (a gold naming one names one)."""
    projects = rendered_projects(N_PROPERTY)
    notion_golds = 0
    for p in projects:
        keys_by_title: dict[str, set[str]] = {}
        for record in p.records.records:
            if record.source == "notion":
                keys_by_title.setdefault(record.title, set()).add(record.doc_key)
        assert {t: k for t, k in keys_by_title.items() if len(k) > 1} == {}, p.org.seed_id
        notion = set(keys_by_title)
        notion_golds += sum(1 for i in p.items if i.generator.endswith("cross_source.stale")
                            and notion & {t.strip() for t in str(i.gold.value).split(";")})
    assert notion_golds >= 10
