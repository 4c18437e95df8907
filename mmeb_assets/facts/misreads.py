"""Rows and heads a table reader misread, which no question may name.

Why: a wrapped row label split in two gives a row named '(percentage change; - depreciation)' that
holds the next row's values; a head read across two columns has unpaired brackets ('7B Models
(Based'); a label that swallowed its row's values reads '0.29 0.2 (Prodigy-METEO 0.19'. Facts and the
tables later stages show leave such rows and columns out rather than ask about them.
"""
from __future__ import annotations

import re


def continuation(row_path) -> bool:
    """A row whose own label is the second line of the label above ('(percentage change; -
    depreciation)' under 'Real effective exchange rate'): the reader split one wrapped label, and
    the values beside it may be the next row's."""
    own = next((p.strip() for p in reversed(list(row_path)) if p.strip()), "")
    return bool(re.match(r"^\(\s*[a-z%]", own))


def garbled(name: str) -> bool:
    """A head read across two columns ('MATH Tokens on Qwen2.5-7B-Instruct)', '7B Models (Based'):
    its brackets do not pair, and no reader of the page would name the column so."""
    return name.count("(") != name.count(")")


def values_in_label(label: str) -> bool:
    """A row label holding a row of values ('0.29 0.2 (Prodigy-METEO 0.19 0.69 0)'): cells of a table
    printing several values per cell ran into the stub; no reader names a row so."""
    numbers = [t for t in label.split() if re.fullmatch(r"\(?[-−]?(?:\d[\d,]*)?\.?\d+\)?,?", t)]
    return len(numbers) >= 3 or len(numbers) >= 2 and any("." in n for n in numbers)
