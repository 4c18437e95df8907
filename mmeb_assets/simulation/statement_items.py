"""Statements of the seed as work items: the team looks up, quotes and applies what the document states.

Why: a framework or a guideline prints few measured numbers, and without them a week of work was
carried by section reviews whose numbers the team invents (`reviews.py`). A statement the document
makes (the parts a whole consists of, a term's definition) is something such a team really quotes;
as an item its values are printed in the document, so its questions rest on the seed. Reviews remain
the last resort for a document that states neither.
"""
from __future__ import annotations

import re

from mmeb_assets.schema.source import SourceFacts

STATEMENT_TABLE = "statement"
FIGURE = "figure"  # the column of a stated figure: '8 characters', '$450 million', '2.13 percent'
EXPANSION = "expansion"  # what an abbreviation stands for
QUOTED_COLUMNS = ("definition", FIGURE, EXPANSION)  # a statement's words, which a hurried quote can get wrong


def statement_values(facts: SourceFacts, index: int | None) -> dict[str, str] | None:
    """The stated values of statement `index` (column -> text printed in the document), or None."""
    if index is None or not 0 <= index < len(facts.statements):
        return None
    statement = facts.statements[index]
    if statement.kind == "components":
        return {statement.aspect: statement.stated, f"number of {statement.aspect}": statement.count}
    if statement.kind == "quantity":
        return {FIGURE: statement.stated}
    if statement.kind == "acronym":
        return {EXPANSION: statement.stated}
    return {"definition": statement.stated}


def stated_figure(facts: SourceFacts, table_id: str, index: int | None) -> dict[str, str]:
    """A stated figure's sentence as printed and as a question (its figure blanked), as `PlanItem`
    fields; nothing for every other item."""
    if table_id != STATEMENT_TABLE or index is None or not 0 <= index < len(facts.statements):
        return {}
    statement = facts.statements[index]
    return {"asked": statement.asked, "sentence": statement.sentence} if statement.kind == "quantity" else {}


MAX_QUOTED_WORDS = 24
CLAUSE_BREAK = re.compile(r"(?<=;)\s+|(?<=:)\s+|,\s+(?=(?:and|but|while|whereas|although|which|so|as|because|since|"
                          r"with|when|where)\b)")
# a connective that opens a sentence says how it follows the one before; the clause reads without it
SENTENCE_ADVERB = re.compile(r"^(?:Additionally|In addition|Moreover|Furthermore|However|Also|Similarly|Likewise|"
                             r"Overall|Finally|Indeed|Notably|Meanwhile|Consequently|Therefore|Thus|Specifically|"
                             r"In particular|In contrast|By contrast|As a result|For example|For instance),\s+")


def figure_clause(sentence: str, stated: str, number: str) -> str:
    """The figure's whole clause, its number left out: the sentence itself when short, else the
    clause (between ';', ':' or ', and', ', as', ...) that holds it; '' when no whole clause is short
    enough to quote. A window of words cut from a long sentence ('an apprenticeship program were
    approximately $… while the net') names nothing a reader can find, so such a figure is not asked."""
    start = sentence.find(stated)
    start = start + max(stated.find(number), 0) if start >= 0 else sentence.find(number)
    if start < 0:
        return ""
    blanked = (sentence[:start] + "…" + sentence[start + len(number):]).strip().rstrip(".")
    blanked = re.sub(r"([$€£]) …", r"\1…", blanked.replace("… %", "…%"))
    if len(blanked.split()) <= MAX_QUOTED_WORDS:
        return blanked
    for clause in CLAUSE_BREAK.split(blanked):
        if "…" in clause and 5 <= len(clause.split()) <= MAX_QUOTED_WORDS + 2:
            return SENTENCE_ADVERB.sub("", clause.strip(" ,;:"))
    return ""


def statement_label(facts: SourceFacts, index: int) -> str:
    """'Framework Core', "the term 'Impact'", "the figure in 'Memorized secrets SHALL be at least …
    characters in length'" (a figure named by the words around it)."""
    statement = facts.statements[index]
    if statement.kind == "components":
        return statement.subject
    if statement.kind == "quantity":
        clause = figure_clause(statement.sentence, statement.stated, statement.count)
        return f"the figure in '{clause}'" if clause else ""
    if statement.kind == "acronym":
        return f"the abbreviation '{statement.subject}'"
    return f"the term '{statement.subject}'"


def statement_rows(facts: SourceFacts, archetype: str) -> list[dict]:
    """Statements as plan rows (table_id `STATEMENT_TABLE`, row_index = statement number), each with a
    label a reader can find in the document."""
    rows = []
    for index in range(len(facts.statements)):
        values = statement_values(facts, index) or {}
        label = statement_label(facts, index)
        if not label:
            continue  # a figure no whole clause quotes: not asked
        rows.append({"kind": "statement", "label": label, "values": values, "table_id": STATEMENT_TABLE,
                     "row_index": index, "dataset": ""})
    return rows
