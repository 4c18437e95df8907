"""Dagster assets of the ingestion stage: `seed_document` (PDF -> SourceDocument) and `source_facts`."""

import dagster as dg

from mmeb_assets.facts.attach import attach_facts
from mmeb_assets.seedgen.demo_seeds import ensure_seed_pdf, generated_figure_hints
from mmeb_assets.ingestion.document import SOURCE_DOCUMENT_FILE, IngestionError, ingest_pdf
from mmeb_assets.ingestion.repairs import drop_unverified_claims
from mmeb_assets.facts.source_facts import extract_source_facts
from mmeb_assets.manifests import load_manifest
from mmeb_assets.partitions import seed_partitions_def
from mmeb_assets.provenance import code_version
from mmeb_assets.schema.source import SourceDocument, SourceFacts, Table
from mmeb_assets.versioning import versioned
from mmeb_resources.llm import LLMResource
from mmeb_resources.storage import StorageResource

INGESTION_CODE_VERSION = code_version("ingestion")


def table_markdown(table: Table, max_rows: int = 8) -> str:
    def row(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    lines = [f"**{table.caption}** (page {table.page}, {table.extractor})", "", row(table.header),
             "|" + "---|" * len(table.header)]
    lines.extend(row(r) for r in table.rows[:max_rows])
    if len(table.rows) > max_rows:
        lines.append(f"... {len(table.rows) - max_rows} more rows")
    return "\n".join(lines)


@dg.asset(partitions_def=seed_partitions_def, code_version=INGESTION_CODE_VERSION, group_name="ingestion",
          kinds={"pdf", "python"})
def seed_document(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.Output[SourceDocument]:
    """The seed PDF read into page text/blocks, caption-anchored tables and figures, numeric claims.

    Generated seeds (`generator: demo` or `scale`) are written first if missing. Files: `projects/<seed>/source_document.json`
    and `projects/<seed>/figures/figure_N.png`.
    """
    seed = context.partition_key
    manifest = load_manifest()
    entry = manifest.seed(seed)
    pdf = ensure_seed_pdf(entry, manifest.pdf_path(seed))
    out = storage.project_dir(seed)
    try:
        document = ingest_pdf(pdf, out, seed, title=entry.title, display_path=entry.path)
    except IngestionError as exc:  # name the manifest field too, not only the file
        raise IngestionError(exc.path, f"{exc.reason} (the PDF of {manifest.field_ref(seed, 'path')})") from exc
    metadata = {
        "pdf": dg.MetadataValue.path(str(pdf)),
        "source_document": dg.MetadataValue.path(str(out / SOURCE_DOCUMENT_FILE)),
        "pages": document.n_pages, "tables": len(document.tables), "figures": len(document.figures),
        "numeric_claims": len(document.numeric_claims),
        "repairs": len(document.provenance.repairs),
    }
    if document.provenance.repairs:
        metadata["repairs_detail"] = dg.MetadataValue.md("\n".join(f"- {r}" for r in document.provenance.repairs))
    if document.tables:
        metadata["table_preview"] = dg.MetadataValue.md(table_markdown(document.tables[0]))
    if document.figures:
        figure = document.figures[0]
        path = out / figure.image_path
        metadata["figure_thumbnail"] = dg.MetadataValue.path(str(path))
        metadata["figure_preview"] = dg.MetadataValue.md(f"![{figure.id}](file://{path})\n\n{figure.caption}")
    return versioned(document, metadata)


@dg.asset(partitions_def=seed_partitions_def, code_version=INGESTION_CODE_VERSION, group_name="ingestion",
          kinds={"python"})
def source_facts(context: dg.AssetExecutionContext, seed_document: SourceDocument, llm: LLMResource) -> dg.Output[SourceFacts]:
    """Textual and visual extraction (paper: Source Information Extraction); rules twin when offline."""
    entry = load_manifest().seed(context.partition_key)
    hints = generated_figure_hints(entry)
    facts = drop_unverified_claims(extract_source_facts(seed_document, llm, domain=entry.domain, figure_hints=hints),
                                   seed_document)
    facts = attach_facts(facts, seed_document)
    textual = facts.textual
    return versioned(facts, {
        "generator": facts.provenance.generator, "method_name": textual.method_name,
        "claims": len(textual.claims), "config_facts": len(textual.config_facts),
        "components": len(textual.components), "figures_described": len(facts.visual),
        "repairs": len(facts.provenance.repairs),
        "image_only_facts": sum(len(v.image_only_facts) for v in facts.visual),
        "facts": len(facts.facts),
        **{f"non_facts_{n.reason}": n.count for n in facts.non_facts},
        "non_fact_examples": dg.MetadataValue.md("\n".join(
            f"- **{n.reason}** ({n.count}): " + "; ".join(n.examples[:3]) for n in facts.non_facts) or "none"),
        "preview": dg.MetadataValue.md("\n".join(
            [f"**{textual.method_name}**: {textual.one_sentence}", ""]
            + [f"- {c.label}: {', '.join(c.value_strings)}" for c in textual.claims[:8]])),
    })
