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


WINDOW_BEFORE, WINDOW_AFTER = 6, 3
CLAUSE_REACH = 6  # words a window may run on past its size to end where the figure's clause ends
PHRASE_BREAKS = {"across", "per", "than", "that", "which", "who", "over", "under", "into", "during", "while", "after",
                 "before", "between", "within", "since", "until", "is", "are", "was", "were", "will", "has", "have",
                 "had", "be", "been", "but", "if", "when", "where", "because", "so", "not", "also", "about", "of", "the",
                 "a", "an", "in", "to", "for", "and", "or", "with", "by", "on", "at", "from", "as", "its", "their"}
FUNCTION_WORDS = {"of", "the", "a", "an", "in", "to", "for", "and", "or", "with", "by", "on", "at", "from", "as"}


def figure_window(sentence: str, stated: str, number: str) -> str:
    """The words around a stated figure with its number left out: 'Memorized secrets SHALL be at least
    … characters in length' names the figure as the document does (its subject alone, 'the United
    States', may state several)."""
    start = sentence.find(stated)
    start = start + max(stated.find(number), 0) if start >= 0 else sentence.find(number)
    before = sentence[:start].split()[-WINDOW_BEFORE:]
    ends = [k for k, word in enumerate(before) if re.search(r"[a-z]{2}[.!?]$", word)]
    if ends:  # the words before stay in the figure's own sentence ('… room. 94% chose the right')
        before = before[ends[-1] + 1:]
    rest = sentence[start + len(number):].split()
    size = WINDOW_AFTER + len(stated.split()) - 1 + (WINDOW_BEFORE - len(before)) // 2
    cap = min(len(rest), size + 4)
    while size < cap and rest[size - 1].lower().strip(",;:") in FUNCTION_WORDS:
        size += 1  # 'Approximately …% of the range of mink habitat', not '… the range of'
    ends = [k for k, word in enumerate(rest[:size + CLAUSE_REACH]) if word.endswith((",", ";", ":", "."))]
    if ends and len(stated.split()) - 1 <= ends[0]:
        size = ends[0] + 1  # the clause's end, not mid-phrase: '… per cent in 2020', not '… in 2020, the second'
    else:
        while size < min(len(rest), size + 3) and re.fullmatch(r"[a-z][a-z\-]*[,;:.]?", rest[size]) \
                and rest[size].strip(",;:.") not in PHRASE_BREAKS and not rest[size - 1].endswith((",", ";", ":")):
            size += 1  # the noun phrase's last word: '… per 100,000 flight hours', not '… flight'
    after = rest[:size]
    window = " ".join([*before, "…", *after]).replace("… %", "…%")
    return re.sub(r"([$€£]) …", r"\1…", window).rstrip(" .,;:")


MAX_QUOTED_WORDS = 24
CLAUSE_BREAK = re.compile(r"(?<=;)\s+|(?<=:)\s+|,\s+(?=(?:and|but|while|whereas|although|which|so|as|because|since|"
                          r"with|when|where)\b)")
# a connective that opens a sentence says how it follows the one before; the clause reads without it
SENTENCE_ADVERB = re.compile(r"^(?:Additionally|In addition|Moreover|Furthermore|However|Also|Similarly|Likewise|"
                             r"Overall|Finally|Indeed|Notably|Meanwhile|Consequently|Therefore|Thus|Specifically|"
                             r"In particular|In contrast|By contrast|As a result|For example|For instance),\s+")


def figure_clause(sentence: str, stated: str, number: str) -> str:
    """The figure's whole clause, its number left out: the sentence itself when short, else the
    clause (between ';', ':' or ', and') that holds it; a window of words only when the clause is
    still too long. A fragment cut mid-phrase ('fell from about … percent in the late') names
    nothing a reader can find."""
    start = sentence.find(stated)
    start = start + max(stated.find(number), 0) if start >= 0 else sentence.find(number)
    if start < 0:
        return figure_window(sentence, stated, number)
    blanked = (sentence[:start] + "…" + sentence[start + len(number):]).strip().rstrip(".")
    blanked = re.sub(r"([$€£]) …", r"\1…", blanked.replace("… %", "…%"))
    if len(blanked.split()) <= MAX_QUOTED_WORDS:
        return blanked
    for clause in CLAUSE_BREAK.split(blanked):
        if "…" in clause and 5 <= len(clause.split()) <= MAX_QUOTED_WORDS + 2:
            return SENTENCE_ADVERB.sub("", clause.strip(" ,;:"))
    return figure_window(sentence, stated, number)


def statement_label(facts: SourceFacts, index: int) -> str:
    """'Framework Core', "the term 'Impact'", "the figure in 'Memorized secrets SHALL be at least …
    characters in length'" (a figure named by the words around it)."""
    statement = facts.statements[index]
    if statement.kind == "components":
        return statement.subject
    if statement.kind == "quantity":
        return f"the figure in '{figure_clause(statement.sentence, statement.stated, statement.count)}'"
    if statement.kind == "acronym":
        return f"the abbreviation '{statement.subject}'"
    return f"the term '{statement.subject}'"


def statement_rows(facts: SourceFacts, archetype: str) -> list[dict]:
    """Statements as plan rows (table_id `STATEMENT_TABLE`, row_index = statement number)."""
    rows = []
    for index in range(len(facts.statements)):
        values = statement_values(facts, index) or {}
        label = statement_label(facts, index)
        rows.append({"kind": "statement", "label": label, "values": values, "table_id": STATEMENT_TABLE,
                     "row_index": index, "dataset": ""})
    return rows
