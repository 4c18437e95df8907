"""The paper's programmatic checks of source facts, and what both extractors share (figure hints).

Every number a claim rests on occurs verbatim in the source; labels carry no digit.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from mmeb_assets.schema.source import SourceDocument, TextualExtraction, VisualExtraction

DIGIT = re.compile(r"\d")


@dataclass
class FigureHint:
    """What a generator knows was drawn inside a raster figure (demo seeds): labels, numbers, pairs."""

    text_labels: list[str] = field(default_factory=list)
    key_numbers: list[str] = field(default_factory=list)
    pairs: list[tuple[str, str]] = field(default_factory=list)  # (what, printed value)


def source_text(document: SourceDocument) -> str:
    """All text a value may be copied from: page text (whitespace-normalized) and every table cell."""
    parts = [" ".join(page.text.split()) for page in document.pages]
    for table in document.tables:
        parts.append(table.caption)
        parts.extend(" ".join(row) for row in [table.header, *table.rows])
    return "\n".join(parts)


def _occurs(value: str, text: str) -> bool:
    return re.search(r"(?<![\d.])" + re.escape(value) + r"(?![\d])", text) is not None


def check_textual(extraction: TextualExtraction, text: str) -> list[str]:
    """Errors: claim numbers or config values not verbatim in the source, digits in labels, empties."""
    errors = []
    if not extraction.method_name.strip():
        errors.append("method_name is empty")
    for index, claim in enumerate(extraction.claims):
        if not claim.value_strings:
            errors.append(f"claims[{index}] has no value_strings")
        for value in claim.value_strings:
            if not _occurs(value, text):
                errors.append(f"claims[{index}].value_strings: {value!r} does not occur verbatim in the source")
        if DIGIT.search(claim.label):
            errors.append(f"claims[{index}].label {claim.label!r} contains a digit; name what is measured, without values")
        if not claim.label.strip():
            errors.append(f"claims[{index}].label is empty")
    for index, fact in enumerate(extraction.config_facts):
        if not _occurs(fact.value, text):
            errors.append(f"config_facts[{index}].value {fact.value!r} does not occur verbatim in the source")
    return errors


def check_visual(visual: VisualExtraction, caption: str) -> list[str]:
    errors = []
    if not visual.description.strip():
        errors.append(f"{visual.figure_id}: description is empty")
    for index, fact in enumerate(visual.image_only_facts):
        if not fact.value.strip():
            errors.append(f"{visual.figure_id}: image_only_facts[{index}] has no value")
        elif fact.fact.strip() and fact.fact.strip().lower() in caption.lower():
            errors.append(f"{visual.figure_id}: image_only_facts[{index}] repeats the caption")
    return errors
