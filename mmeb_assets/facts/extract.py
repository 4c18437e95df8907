"""`extract_facts(document)`: the facts of a seed document and the non-facts kept out, per reason."""
from __future__ import annotations

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


def in_context(tables: list[Table], document: SourceDocument) -> list[Table]:
    """The tables with what the rest of the document says of them: the topic that sets twin tables apart,
    the measure the sentences citing them name, the expansions of the abbreviations they print."""
    tables = with_introduced(with_topics(tables), introduced_measures(document))
    return with_glossary(tables, document_glossary(document), document_words(document))


def extract_facts(document: SourceDocument) -> tuple[list[Fact], list[NonFactClass]]:
    """Table facts first (cells of numeric tables), then prose facts outside table and figure areas;
    a value printed twice with the same measure on one page is one fact."""
    tally = Tally()
    facts: list[Fact] = []
    for table in in_context(document.tables, document):
        for part in measure_groups(oriented(table)):
            facts.extend(table_facts(part, tally))
    facts.extend(prose_facts(document, tally, _areas(document)))
    unique: dict[tuple, Fact] = {}
    for fact in facts:
        unique.setdefault((fact.page, fact.value, fact.measure.lower()), fact)
    non_facts = [NonFactClass(reason=r, count=tally.counts[r], examples=tally.examples[r])
                 for r in REASONS if tally.counts.get(r)]
    return list(unique.values()), non_facts

