"""Whether a record's lines print a value in a named row: the row's label on a line, the value on it
or on the cells printed after it before the next row's label (tables drawn one cell a line)."""
from __future__ import annotations

import re
from typing import Iterator

from mmeb_assets.qa.phrasing import strip_series
from mmeb_assets.qa.text import contains_value

STOP = {"the", "of", "and", "for", "in", "on", "a", "an", "to", "by", "with", "per", "at", "or", "column", "value",
        "values", "results", "result", "table"}
MAX_ROW_LINES = 12


def tokens(text: str) -> set[str]:
    return {t for t in re.findall(r"[^\W_]+|[@%]", text.lower()) if t not in STOP and (len(t) > 1 or not t.isascii()
                                                                                  or t.isdigit())}


def row_shows(lines: list[str], label: str | list[str], others: list[str], values: tuple[str, ...]) -> bool:
    """A line naming the row (by any of its names: its label, its 'Method' cell) gives one of its
    values, on that line or on the cells printed after it before the next row's label."""
    names = [tokens(strip_series(n)) for n in ([label] if isinstance(label, str) else label)]
    names = [n for n in names if n]
    for n, line in enumerate(lines):
        have = tokens(line)
        wanted = next((name for name in names if name <= have), None)
        if wanted is None and n + 1 < len(lines) and have:  # a label wrapped onto the next line
            both = have | tokens(lines[n + 1])
            wanted = next((name for name in names if name <= both and name & have and name - have), None)
        if wanted is None:
            continue
        def next_row(cell: str, wanted=wanted) -> bool:
            return any(tokens(strip_series(o)) and tokens(strip_series(o)) <= tokens(cell)
                       and not wanted <= tokens(cell) for o in others)

        if any(contains_value(cell, v) for cell in row_cells(lines, n, next_row) for v in values):
            return True
    return False


def row_cells(lines: list[str], start: int, next_row) -> Iterator[str]:
    """The line naming a row, then the cells printed after it (a table drawn one cell a line), up to
    the line `next_row` says names another row, at most `MAX_ROW_LINES` in all."""
    for k, cell in enumerate(lines[start:start + MAX_ROW_LINES]):
        if k and next_row(cell):
            return
        yield cell


