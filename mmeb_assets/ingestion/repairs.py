"""Item-level repair of ingestion outputs: one defective table is dropped with its reason, so a real
PDF with one odd table still builds (the seed fails only at a floor, e.g. no numeric claim).

The reasons go into `provenance.repairs`; the blocking checks then verify the stored artifact and
show the repairs in their metadata. Claims are the facts stage's (`mmeb_assets.facts.repairs`
drops unverified ones); `with_repairs` stays here, where the facts stage reads it.
"""
from __future__ import annotations

import re

from mmeb_assets.schema.source import Table

# A header cell that is a fragment of prose, not a column name: a citation year '(2012)' or a trailing
# function word ('... is our'). (A sentence alone is a fine header: tables of example messages.)
PROSE_HEADER = re.compile(r"\b[A-Z][a-z]+ \((?:19|20)\d\d[a-z]?\)|\b(?:and|of|the|is|our|we|to|that|which)$")


def table_defects(table: Table) -> list[str]:
    """Why a table cannot stand as a grid of facts: no 'Table N' (or 'Exhibit N') caption (a table
    without a number is named by its title line: `untitled_tables`), ragged rows, no body."""
    problems = []
    if table.number is not None and not table.caption.lower().startswith(("table", "exhibit")):
        problems.append(f"caption {table.caption[:40]!r} is not a 'Table N' caption")
    widths = {len(r) for r in table.rows} | {len(table.header)}
    if len(widths) != 1:
        problems.append(f"row widths {sorted(widths)}")
    if not table.rows:
        problems.append("no body rows")
    prose = next((h for h in table.header if PROSE_HEADER.search(h)), None)
    if prose is not None:
        problems.append(f"header cell {prose[:40]!r} reads as running text (the grid swallowed prose)")
    return problems


def screen_tables(tables: list[Table]) -> tuple[list[Table], list[str]]:
    """Tables that parse cleanly, and one repair line per table dropped from the facts."""
    kept, repairs = [], []
    for table in tables:
        problems = table_defects(table)
        if problems:
            repairs.append(f"dropped {table.id} (page {table.page}): {'; '.join(problems)}")
        else:
            kept.append(table)
    return kept, repairs


def with_repairs(artifact, repairs: list[str]):
    """A copy of a stage artifact whose provenance lists `repairs` after any it already had."""
    if not repairs:
        return artifact
    provenance = artifact.provenance.model_copy(update={"repairs": [*artifact.provenance.repairs, *repairs]})
    return artifact.model_copy(update={"provenance": provenance})
