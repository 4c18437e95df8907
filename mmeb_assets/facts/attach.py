"""Put the extracted facts into `SourceFacts`: the fact list, the non-facts per reason, claims that
rest only on facts (labelled by their measure), only numeric tables (list tables are not facts), and
the document's numbered section titles."""
from __future__ import annotations

from mmeb_assets.facts.acronyms import acronym_statements
from mmeb_assets.facts.extract import extract_facts, in_context, table_context
from mmeb_assets.facts.orientation import oriented
from mmeb_assets.facts.row_groups import measure_groups
from mmeb_assets.facts.quantities import quantity_statements
from mmeb_assets.facts.sections import document_sections
from mmeb_assets.facts.statements import statements
from mmeb_assets.facts.tables import list_table_reason, named_table
from mmeb_assets.ingestion.repairs import with_repairs
from mmeb_assets.schema.source import Claim, Fact, SourceDocument, SourceFacts, Statement

MAX_CLAIMS = 40


def claims_from_facts(facts: list[Fact], limit: int = MAX_CLAIMS) -> list[Claim]:
    """One claim per prose sentence holding facts: its fact values, labelled by the first fact's measure.
    Sentences are taken spread over the document (not only its first pages)."""
    by_sentence: dict[str, list[Fact]] = {}
    for fact in facts:
        if not fact.table_id:
            by_sentence.setdefault(fact.source, []).append(fact)
    groups, seen = [], set()
    for group in by_sentence.values():  # one claim per measure and subject: no two items read the same
        key = (group[0].measure.lower(), group[0].subject.lower())
        if key not in seen:
            seen.add(key)
            groups.append(group)
    if len(groups) > limit:
        step = len(groups) / limit
        groups = [groups[int(i * step)] for i in range(limit)]
    return [Claim(text=group[0].source, value_strings=list(dict.fromkeys(f.value for f in group)),
                  label=group[0].measure, source_hint=f"page {group[0].page}") for group in groups]


def _fact_claims(claims: list[Claim], facts: list[Fact]) -> tuple[list[Claim], list[str]]:
    """Claims (e.g. from the LLM) kept only where every number is a fact of that sentence."""
    values_of: dict[str, set[str]] = {}
    for fact in facts:
        values_of.setdefault(" ".join(fact.source.split()), set()).add(fact.value)
    kept, repairs = [], []
    for index, claim in enumerate(claims):
        known = values_of.get(" ".join(claim.text.split()), set())
        if claim.value_strings and set(claim.value_strings) <= known:
            kept.append(claim)
        else:
            repairs.append(f"dropped claim {index}: {sorted(set(claim.value_strings) - known)} are not facts "
                           f"of its sentence (numbering, identifier, date, citation, furniture or no measure)")
    return kept, repairs


def attach_facts(source_facts: SourceFacts, document: SourceDocument) -> SourceFacts:
    """`source_facts` with its facts, non-facts, fact-only claims and numeric tables only."""
    context = table_context(document)
    facts, non_facts = extract_facts(document, context)
    if source_facts.provenance.generator == "rules":
        claims, repairs = claims_from_facts(facts), []
    else:
        claims, repairs = _fact_claims(source_facts.textual.claims, facts)
    tables = []
    for table in in_context(source_facts.tables, context):
        reason = list_table_reason(table)
        if reason:
            repairs.append(f"left {table.id} (page {table.page}) out of the facts: {reason}")
        else:
            tables.extend(named_table(part) for part in measure_groups(oriented(table)))
    textual = source_facts.textual.model_copy(update={"claims": claims})
    updated = source_facts.model_copy(update={"textual": textual, "facts": facts, "non_facts": non_facts,
                                              "tables": tables, "sections": document_sections(document),
                                              "statements": _statements(document, facts)})
    return with_repairs(updated, repairs)


def _statements(document: SourceDocument, facts: list[Fact]) -> list[Statement]:
    """Parts and definitions, the prose figures asked in their own sentences' words, abbreviations."""
    stated = statements(document)
    stated += quantity_statements(facts, first_number=len(stated) + 1)
    return stated + acronym_statements(document, first_number=len(stated) + 1)
