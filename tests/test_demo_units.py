"""The demo build never compares, ranks or divides values of different units.

The oracle is the demo seeds' own specification (`seedgen/demo_specs.py`), not the generator: each
printed table row's unit is its 'Unit' cell where the table has a Unit column, else one unit for the
whole table. Every comparison and computation question whose operands are table rows must take all
of them from rows of one unit (the emissions seed's indicator table mixes %, counts and tonnes).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from mmeb_assets.seedgen.demo_specs import DEMO_SPECS

ITEM_ID = re.compile(r"\b[a-z]{2,5}_\d{2,}\b")


def _spec_units(seed_id: str) -> dict[str, str]:
    """Printed row label (lowered) -> its unit, per the spec."""
    units = {}
    for table in DEMO_SPECS[seed_id].tables:
        heads = [h.strip().lower() for h in table.header]
        unit_col = heads.index("unit") if "unit" in heads else None
        for row in table.rows:
            units[row[0].strip().lower()] = row[unit_col] if unit_col is not None else f"table {table.number}"
    return units


def _plan_items(project: Path) -> dict[str, dict]:
    data = json.loads((project / "event_plan.json").read_text(encoding="utf-8"))
    data = data.get("data", data)
    return {item["id"]: item for item in data["items"]}


def _operand_items(question: dict, items: dict[str, dict]) -> list[dict]:
    derivation = question.get("derivation") or {}
    found = [items[i] for i in ITEM_ID.findall(derivation.get("fact_key") or "") if i in items]
    if len(found) < 2:
        labels = {item["label"].strip().lower(): item for item in items.values()}
        found = [labels[o.split("=")[0].strip().lower()] for o in derivation.get("operands") or []
                 if "=" in o and o.split("=")[0].strip().lower() in labels]
    return found


def _unit_of(item: dict, spec_units: dict[str, str]) -> str | None:
    label = item["label"].strip().lower()
    matches = [unit for row, unit in spec_units.items() if row == label or row in label]
    return matches[0] if len(set(matches)) == 1 else None


def test_no_question_combines_rows_of_different_units(demo_home: Path):
    mixed, checked = [], 0
    for seed_id in DEMO_SPECS:
        project = demo_home / "projects" / seed_id
        spec_units, items = _spec_units(seed_id), _plan_items(project)
        for line in (project / "questions.jsonl").read_text(encoding="utf-8").splitlines():
            question = json.loads(line)
            if question["task"] not in ("comparison", "computation", "interpretation"):
                continue
            units = {_unit_of(item, spec_units) for item in _operand_items(question, items)} - {None}
            checked += bool(units)
            if len(units) > 1:
                mixed.append(f"{question['id']}: {sorted(units)}: {question['q'][:140]}")
    assert checked >= 5, f"only {checked} questions had table-row operands to check"
    assert not mixed, "questions combining rows of different units:\n" + "\n".join(mixed)
