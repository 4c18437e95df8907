"""The LLM implementation of source-fact extraction: prompt files, schema-checked JSON, regeneration
with the validation errors fed back (bounded by the LLM resource's `max_json_tries`)."""
from __future__ import annotations

from mmeb_assets.ingestion.source_facts import FigureHint, check_textual, check_visual, source_text
from mmeb_assets.ingestion.source_facts_rules import _figure_text
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
        hints = figure_hints or {}
        textual = self.textual(document)
        visuals = [self.visual(document, f, hints.get(f.id)) for f in document.figures]
        prompt_hash = content_hash([textual.prompt_hash, *(v.prompt_hash for v in visuals)])
        return SourceFacts(
            seed_id=document.seed_id,
            provenance=make_provenance(document.seed_id, "source_facts", self.generator, model=self.llm.model,
                                       prompt_hash=prompt_hash, code=code_version("ingestion"),
                                       inputs=document.sha256),
            title=document.title, domain=domain, textual=textual.value,
            visual=[v.value for v in visuals], tables=document.tables, figures=document.figures,
        )
