"""Scan built questions for what must never be asked about: nameless measures ('the value of', 'second
value', view/part suffixes), identifiers, numbering and page furniture. Used by the tests on real seeds."""
from __future__ import annotations

import re

DEFECTS = {
    "nameless measure": re.compile(r"\b(?:second|third|fourth) value\b|\bvalue values\b|\breported value\b|"
                                   r"\bvalue printed\b|\(prose view\)|\(sheet [A-Z] view\)|\(part [A-Z]+\)|\bcol\d+\b"),
    "identifier": re.compile(r"\bGAO[-/]\d|\bPub\.\s?L\.|\bU\.S\.C\.|\bISO/IEC\b|\bdoi\.org|https?://|\bEO \d{4,}|"
                             r"\b\d{3}\)?[\s.-]\d{3}[-.]\d{4}\b|@\w+\.\w+"),
    "numbering": re.compile(r"\b(?:Table|Figure|Section|Appendix|Page) \d+\b|(?:^|\s)\d+\.(?:\s|$)|\(\d\)"),
    # a record's own page ("page 10 of the 'Kestrel analysis report v1'") is evidence, not furniture
    "page furniture": re.compile(r"\b[Pp]age (?:\d+|[ivx]+)\b(?! of the ['‘])"),
}


def question_defects(text: str) -> list[str]:
    """The defect classes a question text shows (empty when it reads as a question about a fact)."""
    return [name for name, pattern in DEFECTS.items() if pattern.search(text)]
