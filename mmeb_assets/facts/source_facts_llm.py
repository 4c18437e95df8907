"""The LLM implementation of source-fact extraction: prompt files, schema-checked JSON, regeneration
with the validation errors fed back (bounded by the LLM resource's `max_json_tries`).

A part (the textual extraction, or one figure) whose request fails for good or whose output never
validates is made by the rules twin instead; the reason goes into the provenance's `fallbacks`."""
from __future__ import annotations

from mmeb_assets.facts.source_checks import FigureHint, check_textual, check_visual, source_text
from mmeb_assets.facts.source_facts_rules import RulesSourceFacts, _figure_text
from mmeb_assets.facts.source_facts_rules import visual as rules_visual
from mmeb_assets.prompts import load_prompt
from mmeb_assets.provenance import code_version, content_hash, make_provenance
from mmeb_assets.schema.source import SourceDocument, SourceFacts, Table, TextualExtraction, VisualExtraction

MAX_DOC_CHARS = 24000
MAX_CLAIMS = 40


def tables_markdown(tables: list[Table]) -> str:
    parts = []
    for table in tables:
        lines = [table.caption, "| " + " | ".join(table.header) + " |", "|" + "---|" * len(table.header)]
        lines.extend("| " + " | ".join(row) + " |" for row in table.rows)
        parts.append("\n".join(lines))
    return "\n\n".join(parts) or "(none)"


def document_text(document: SourceDocument, limit: int = MAX_DOC_CHARS) -> str:
    text = "\n\n".join(b.text for p in document.pages for b in p.blocks if b.kind in ("text", "heading", "caption"))
    return text[:limit]


class LLMSourceFacts:
    def __init__(self, llm):
        self.llm = llm
        self.generator = llm.generator_name

    def textual(self, document: SourceDocument):
        template = load_prompt("source_facts", "textual")
        text = source_text(document)
        variables = {"title": document.title, "doc_text": document_text(document),
                     "tables": tables_markdown(document.tables), "max_claims": MAX_CLAIMS}
        return self.llm.generate_json(template, variables, TextualExtraction, stage="source_facts.textual",
                                      validate=lambda value: check_textual(value, text))

    def visual(self, document: SourceDocument, figure, hint: FigureHint | None):
        template = load_prompt("source_facts", "visual")
        printed = [t for t, _b in _figure_text(document, figure)]
        if hint is not None:
            printed = [*hint.text_labels, *hint.key_numbers]
        allowed = "\n".join(printed)

        def validate(value: VisualExtraction) -> list[str]:
            errors = check_visual(value, figure.caption)
            if value.figure_id != figure.id:
                errors.append(f"figure_id must be {figure.id!r}, got {value.figure_id!r}")
            for number in value.key_numbers + [f.value for f in value.image_only_facts]:
                if number not in allowed:
                    errors.append(f"{number!r} is not printed in the figure text given")
            return errors

        variables = {"figure_id": figure.id, "caption": figure.caption, "kind": figure.kind,
                     "figure_text": allowed or "(empty)"}
        return self.llm.generate_json(template, variables, VisualExtraction, stage="source_facts.visual",
                                      validate=validate)

    def extract(self, document: SourceDocument, *, domain: str = "",
                figure_hints: dict[str, FigureHint] | None = None) -> SourceFacts:
        from mmeb_resources.llm import LLMError, failure_reason

        hints = figure_hints or {}
        fallbacks: list[str] = []
        hashes: list[str] = []
        try:
            result = self.textual(document)
            textual = result.value
            hashes.append(result.prompt_hash)
        except LLMError as exc:
            textual = RulesSourceFacts().extract(document, domain=domain, figure_hints=hints).textual
            fallbacks.append(f"textual: {failure_reason(exc)}")
        visuals = []
        for figure in document.figures:
            try:
                result = self.visual(document, figure, hints.get(figure.id))
                visuals.append(result.value)
                hashes.append(result.prompt_hash)
            except LLMError as exc:
                visuals.append(rules_visual(document, figure, hints.get(figure.id)))
                fallbacks.append(f"visual {figure.id}: {failure_reason(exc)}")
        return SourceFacts(
            seed_id=document.seed_id,
            provenance=make_provenance(document.seed_id, "source_facts", self.generator, model=self.llm.model,
                                       prompt_hash=content_hash(hashes), code=code_version("ingestion"),
                                       inputs=document.sha256, fallbacks=fallbacks),
            title=document.title, domain=domain, textual=textual,
            visual=visuals, tables=document.tables, figures=document.figures,
        )
