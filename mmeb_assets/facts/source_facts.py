"""Source facts: one interface, two implementations (rules twin and LLM).

`extract_source_facts(document, llm, ...)` picks the rules twin when `llm.offline`, else the LLM.
The checks and the figure hints both use live in `source_checks`.
"""
from __future__ import annotations

from typing import Protocol

from mmeb_assets.facts.source_checks import FigureHint
from mmeb_assets.facts.source_facts_llm import LLMSourceFacts
from mmeb_assets.facts.source_facts_rules import RulesSourceFacts
from mmeb_assets.schema.source import SourceDocument, SourceFacts


class SourceFactsExtractor(Protocol):
    generator: str

    def extract(self, document: SourceDocument, *, domain: str = "",
                figure_hints: dict[str, FigureHint] | None = None) -> SourceFacts: ...


def extract_source_facts(document: SourceDocument, llm, *, domain: str = "",
                         figure_hints: dict[str, FigureHint] | None = None) -> SourceFacts:
    """The rules twin when the LLM resource is offline, else the LLM extractor."""
    extractor: SourceFactsExtractor = RulesSourceFacts() if llm.offline else LLMSourceFacts(llm)
    return extractor.extract(document, domain=domain, figure_hints=figure_hints)
