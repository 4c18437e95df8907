"""Dagster asset of the ingestion stage: `seed_document` (PDF -> SourceDocument).

Ingestion reads documents and knows nothing of facts: `source_facts` is the facts stage's asset
(`mmeb_assets.facts.assets`), which reads what this one wrote.
"""

import dagster as dg

from mmeb_assets.ingestion.document import SOURCE_DOCUMENT_FILE, IngestionError, ingest_pdf
from mmeb_assets.manifests import load_manifest
from mmeb_assets.partitions import seed_partitions_def
from mmeb_assets.provenance import code_version
from mmeb_assets.schema.source import SourceDocument, Table
from mmeb_assets.versioning import versioned
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
def seed_document(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.MaterializeResult[SourceDocument]:
    """The seed PDF read into page text/blocks, caption-anchored tables and figures, numeric claims.

    Generated seeds (`generator: demo` or `scale`) are written first if missing. Files: `projects/<seed>/source_document.json`
    and `projects/<seed>/figures/figure_N.png`.
    """
    seed = context.partition_key
    manifest = load_manifest()
    entry = manifest.seed(seed)
    pdf = manifest.seed_pdf(seed)
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
