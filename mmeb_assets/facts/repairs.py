"""Item-level repair of `SourceFacts`: a claim or configuration fact whose numbers are not verbatim in
the source is dropped with the check's own reason, so one bad extraction does not fail the seed.

This lives in the facts stage because it judges extracted claims; ingestion's own repairs (tables that
do not parse, `with_repairs`) stay in `mmeb_assets.ingestion.repairs`, which this module reads.
"""
from __future__ import annotations

import re

from mmeb_assets.facts.source_checks import check_textual, source_text
from mmeb_assets.ingestion.repairs import with_repairs
from mmeb_assets.schema.source import SourceDocument, SourceFacts

ITEM_REF = re.compile(r"^(?P<kind>claims|config_facts)\[(?P<index>\d+)\]")


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
