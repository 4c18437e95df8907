"""Statements of the seed as work items: the team looks up, quotes and applies what the document states.

Why: a framework or a guideline prints few measured numbers, and without them a week of work was
carried by section reviews whose numbers the team invents (`reviews.py`). A statement the document
makes (the parts a whole consists of, a term's definition) is something such a team really quotes;
as an item its values are printed in the document, so its questions rest on the seed. Reviews remain
the last resort for a document that states neither.
"""
from __future__ import annotations

from mmeb_assets.schema.source import SourceFacts

STATEMENT_TABLE = "statement"


def statement_values(facts: SourceFacts, index: int | None) -> dict[str, str] | None:
    """The stated values of statement `index` (column -> text printed in the document), or None."""
    if index is None or not 0 <= index < len(facts.statements):
        return None
    statement = facts.statements[index]
    if statement.kind == "components":
        return {statement.aspect: statement.stated, f"number of {statement.aspect}": statement.count}
    return {"definition": statement.stated}


def statement_rows(facts: SourceFacts, archetype: str) -> list[dict]:
    """Statements as plan rows (table_id `STATEMENT_TABLE`, row_index = statement number)."""
    rows = []
    for index, statement in enumerate(facts.statements):
        values = statement_values(facts, index) or {}
        label = statement.subject if statement.kind == "components" else f"the term '{statement.subject}'"
        rows.append({"kind": "statement", "label": label, "values": values, "table_id": STATEMENT_TABLE,
                     "row_index": index, "dataset": ""})
    return rows
