"""Item-level repair of ingestion outputs: one defective table or claim is dropped with its reason,
so a real PDF with one odd table still builds (the seed fails only at a floor, e.g. no numeric claim).

The reasons go into `provenance.repairs`; the blocking checks then verify the stored artifact and
show the repairs in their metadata.
"""
from __future__ import annotations

import re

from mmeb_assets.facts.source_facts import check_textual, source_text
from mmeb_assets.schema.source import SourceDocument, SourceFacts, Table

# A header cell that is a fragment of prose, not a column name: a citation year '(2012)' or a trailing
# function word ('... is our'). (A sentence alone is a fine header: tables of example messages.)
PROSE_HEADER = re.compile(r"\((?:19|20)\d\d[a-z]?\)|\b(?:and|of|the|is|our|we|to|that|which)$")
ITEM_REF = re.compile(r"^(?P<kind>claims|config_facts)\[(?P<index>\d+)\]")


def table_defects(table: Table) -> list[str]:
    """Why a table cannot stand as a grid of facts: no 'Table N' caption, ragged rows, no body."""
    problems = []
    if not table.caption.lower().startswith("table"):
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


def drop_unverified_claims(facts: SourceFacts, document: SourceDocument) -> SourceFacts:
    """Claims and configuration facts whose numbers are not verbatim in the source (or whose label
    holds a digit) are dropped one by one, with the check's own reason; the rest stands."""
    textual = facts.textual
    bad: dict[tuple[str, int], str] = {}
    for error in check_textual(textual, source_text(document)):
        match = ITEM_REF.match(error)
        if match:
            bad.setdefault((match["kind"], int(match["index"])), error)
    if not bad:
        return facts
    repairs = [f"dropped {kind} {index}: {error}" for (kind, index), error in sorted(bad.items())]
    claims = [c for i, c in enumerate(textual.claims) if ("claims", i) not in bad]
    configs = [f for i, f in enumerate(textual.config_facts) if ("config_facts", i) not in bad]
    textual = textual.model_copy(update={"claims": claims, "config_facts": configs})
    return with_repairs(facts.model_copy(update={"textual": textual}), repairs)
