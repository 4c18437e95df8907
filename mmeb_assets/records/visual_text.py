"""The stored text of a visual record: header, title and a caption-level description, never a value.

The paper's visual records (report pages, slides, charts, table images) carry their values only in
pixels; text-only models and the text retriever see the source header, filename, title, timestamp,
author and a caption. Issue 27 found 32% of "visual-only" questions answerable from the stored text,
because a page's whole text layer was stored. Here the text layer goes to `Record.pixel_text` (what a
reader of the image sees) and the stored text keeps only short heading lines that name no value:
no digit, and none of the project's values, people or fact subjects' values.
"""
from __future__ import annotations

import re

from mmeb_assets.schema import EventPlan, Organization

MAX_HEADINGS = 3
MAX_HEADING_CHARS = 70


def blocked_values(plan: EventPlan, org: Organization) -> list[str]:
    """Every value a question could ask for: cells, wrong values, fact versions, invented values, names."""
    values = [v for item in plan.items for v in item.values.values()] + [i.label for i in plan.items]
    values += [e.wrong_value for e in plan.errors]
    values += [v.value for f in plan.evolving_facts for v in f.versions]
    values += [f.value for f in plan.invented] + [p.name for p in org.people] + [org.customer.contact]
    values += [c for d in plan.decisions for c in d.cites]
    return sorted({v.strip() for v in values if v and len(v.strip()) > 1}, key=len, reverse=True)


def _names_a_value(line: str, blocked: list[str]) -> bool:
    low = line.lower()
    return any(v.lower() in low for v in blocked)


def caption_description(kind: str, page: int | None, pixel_text: str, blocked: list[str]) -> str:
    """'Report page 3. Headings: Results; Discussion.' — short lines with no digit and no value."""
    headings = []
    for line in pixel_text.splitlines():
        line = " ".join(line.split())
        if (len(re.findall(r"[^\W\d_]", line)) < 3 or len(line) > MAX_HEADING_CHARS or re.search(r"\d", line) or line.endswith((",", ";"))
                or _names_a_value(line, blocked) or line in headings):
            continue
        headings.append(line.rstrip(".:"))
        if len(headings) == MAX_HEADINGS:
            break
    where = f"{kind} {page}" if page else kind
    return f"{where}." + (f" Headings: {'; '.join(headings)}." if headings else "")


def drawn_values(labels: list[str], values: list[str]) -> str:
    """A chart's pixel text: 'label: value' per bar."""
    return "\n".join(f"{label}: {value}" for label, value in zip(labels, values))


def drawn_table(header: list[str], rows: list[list[str]]) -> str:
    return "\n".join(" | ".join(map(str, row)) for row in [header] + rows)
