"""`extract_facts(document)`: the facts of a seed document and the non-facts kept out, per reason."""
from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from mmeb_assets.facts.caption_names import with_topics
from mmeb_assets.facts.table_mentions import introduced_measures, with_introduced
from mmeb_assets.facts.glossary import document_glossary, document_words, with_glossary
from mmeb_assets.facts.orientation import oriented
from mmeb_assets.facts.row_groups import measure_groups
from mmeb_assets.facts.prose import Tally, prose_facts
from mmeb_assets.facts.tables import table_facts
from mmeb_assets.schema.source import Fact, NonFactClass, SourceDocument, Table

REASONS = ("furniture", "numbering", "identifier", "citation", "date", "threshold", "example", "no_measure", "list_table")


def _areas(document: SourceDocument) -> dict[int, list[tuple]]:
    areas: dict[int, list[tuple]] = {}
    for item in [*document.tables, *document.figures]:
        if item.bbox:
            areas.setdefault(item.page, []).append(item.bbox)
    return areas


class TableContext(NamedTuple):
    """What the rest of a document says of its tables, read once per document."""

    measures: dict[int, str]  # table number -> the measure the sentences citing it name
    glossary: dict[str, str]  # abbreviation -> its expansion in the document's words
    words: Counter  # the document's words and word pairs, for clipped heads


def table_context(document: SourceDocument) -> TableContext:
    return TableContext(introduced_measures(document), document_glossary(document), document_words(document))


def in_context(tables: list[Table], context: TableContext) -> list[Table]:
    """The tables with what the rest of the document says of them: the topic that sets twin tables apart,
    the measure the sentences citing them name, the expansions of the abbreviations they print."""
    return with_glossary(with_introduced(with_topics(tables), context.measures), context.glossary, context.words)


def extract_facts(document: SourceDocument, context: TableContext | None = None) -> tuple[list[Fact], list[NonFactClass]]:
    """Table facts first (cells of numeric tables), then prose facts outside table and figure areas;
    a value printed twice with the same measure on one page is one fact."""
    tally = Tally()
    facts: list[Fact] = []
    for table in in_context(document.tables, context or table_context(document)):
        for part in measure_groups(oriented(table)):
            facts.extend(table_facts(part, tally))
    facts.extend(prose_facts(document, tally, _areas(document)))
    unique: dict[tuple, Fact] = {}
    for fact in facts:
        unique.setdefault((fact.page, fact.value, fact.measure.lower()), fact)
    non_facts = [NonFactClass(reason=r, count=tally.counts[r], examples=tally.examples[r])
                 for r in REASONS if tally.counts.get(r)]
    return list(unique.values()), non_facts

