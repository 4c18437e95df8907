"""What a table holds, decided by its columns: measured results, examples (sample inputs, tokens
with their positions, annotated sentences) or lists (numbered items, terms and definitions).

Only results tables give facts. The tests are on the cells, never on one document's words: long
sentences in the cells, integer columns that count positions of single-token rows, a first column of
list numbering, too few numeric cells, numbers cut out of bracketed text, rows named in notation.
"""
from __future__ import annotations

import re

from mmeb_assets.ingestion.table_body import MISSING_MARK
from mmeb_assets.ingestion.table_words import is_value

LIST_MARK = re.compile(r"^\s*(?:\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|[•\-–*](?=\s))\s*(?:\S.*)?$")
LONG_TEXT_WORDS = 6


def _integer(cell: str) -> int | None:
    text = cell.strip()
    return int(text) if re.fullmatch(r"-?\d{1,4}", text) else None


def _position_columns(rows: list[list[str]], stub: int) -> bool:
    """Every value column holds small integers, no larger than the rows could count, and the rows are
    named by single tokens: a table of token positions, heads or slot counts, not of results."""
    n = len(rows)
    labels = [r[0].strip() for r in rows if stub and r and r[0].strip()]
    if n < 3 or not labels or sum(1 for l in labels if " " not in l) < 0.7 * len(labels):
        return False
    columns = range(stub, max(len(r) for r in rows))
    value_columns = 0
    for c in columns:
        cells = [r[c] for r in rows if c < len(r) and r[c].strip()]
        if not any(is_value(x) for x in cells):
            continue
        ints = [_integer(x) for x in cells if is_value(x)]
        if any(i is None or i < 0 or i > n + 2 for i in ints):
            return False
        value_columns += 1
    return value_columns > 0


OPENERS, CLOSERS = "(<[{⟨", ")>]}⟩"


def _unclosed(text: str) -> bool:
    """A bracket opened on a word ('<player', '(templatized') and not closed: '( 5 / 0 )' and '<<'
    open nothing."""
    return len(re.findall(r"[<⟨\[{(](?=[A-Za-z])", text)) > len(re.findall(r"[>⟩\]})]", text))


def _values_inside_brackets(rows: list[list[str]]) -> bool:
    """In most rows a value cell follows a cell that opens a bracket it does not close: the number is
    part of a bracketed phrase cut into cells, not a measured value."""
    cut = 0
    for row in rows:
        cut += any(is_value(row[c]) and _unclosed(" ".join(row[:c])) for c in range(1, len(row)))
    return len(rows) >= 2 and cut >= 0.5 * len(rows)


def _notation_rows(labels: list[str]) -> bool:
    """Most rows are named by bracketed tuples ('⟨(agent, patient)⟩'): patterns of an example."""
    tuples = sum(1 for label in labels if label.strip()[:1] in OPENERS and label.strip()[-1:] in CLOSERS
                 and "," in label)
    return len(labels) >= 2 and tuples >= 0.7 * len(labels)


def _statements_rated_in_percent(rows: list[list[str]], stub: int) -> bool:
    """A survey's table: statements name the rows and every value cell is a share ('69%'), so the
    sentences are what was asked, not sample outputs."""
    values = [c.strip() for r in rows for c in r[max(stub, 1):] if c.strip() and not MISSING_MARK.match(c.strip())]
    labels_only = all(len(c.split()) < LONG_TEXT_WORDS for r in rows for c in r[max(stub, 1):])
    return bool(values) and labels_only and all(c.endswith("%") and is_value(c) for c in values)


def list_reason(rows: list[list[str]], stub: int) -> str:
    """Why the rows read as a list ('' if they do not): list numbering down the first column, or few
    values among the filled cells ('NA', '-' mark no data and count for neither)."""
    first = [r[0] for r in rows if r and r[0].strip()]
    if first and sum(1 for c in first if LIST_MARK.match(c) or re.fullmatch(r"\d{1,3}", c.strip())) >= 0.6 * len(first):
        return "first column is list numbering"
    cells = [c for r in rows for c in r[max(stub, 1):] if c.strip() and not MISSING_MARK.match(c.strip())]
    numeric = sum(1 for c in cells if is_value(c))
    if cells and numeric < 0.2 * len(cells):
        return "term/definition or prose table (few numeric cells)"
    return ""


def table_kind(rows: list[list[str]], stub: int) -> tuple[str, str]:
    """('results' | 'example' | 'list', why)."""
    if why := list_reason(rows, stub):
        return "list", why
    first = [r[0] for r in rows if r and r[0].strip()]
    every = [c for r in rows for c in r if c.strip()]
    long_text = sum(1 for c in every if len(c.split()) >= LONG_TEXT_WORDS)
    if every and long_text >= 0.25 * len(every) and not _statements_rated_in_percent(rows, stub):
        return "example", "cells are sentences (sample inputs or outputs), not measured values"
    if _values_inside_brackets(rows):
        return "example", "numbers sit inside bracketed text ('<player 1 team 2>'): placeholders of an example"
    if _notation_rows(first):
        return "example", "rows are written as tuples or patterns in brackets (an example's notation), not named"
    if _position_columns(rows, stub):
        return "example", "value columns are small integers beside single tokens (positions or counts of an example)"
    return "results", ""
