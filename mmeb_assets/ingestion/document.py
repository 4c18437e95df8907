"""`ingest_pdf`: one seed PDF in, a `SourceDocument` (text, blocks, tables, figures, claims) out."""
from __future__ import annotations

from pathlib import Path

from mmeb_assets.ingestion.figures import extract_figures
from mmeb_assets.ingestion.numbers import numeric_claims
from mmeb_assets.ingestion.pdf_text import IngestionError, guess_title, open_pdf, read_pages
from mmeb_assets.ingestion.repairs import screen_tables
from mmeb_assets.ingestion.tables import extract_tables
from mmeb_assets.ingestion.untitled_tables import untitled_tables
from mmeb_assets.provenance import code_version, file_hash, make_provenance
from mmeb_assets.schema.source import SourceDocument
from mmeb_resources.faults import crash_point
from mmeb_resources.storage import atomic_write_text

SOURCE_DOCUMENT_FILE = "source_document.json"

__all__ = ["IngestionError", "SOURCE_DOCUMENT_FILE", "ingest_pdf", "load_source_document"]


def ingest_pdf(path: Path, out_dir: Path, seed_id: str, title: str | None = None,
               display_path: str | None = None) -> SourceDocument:
    """Read a seed PDF into a SourceDocument; figure PNGs go to out_dir/figures/ and the whole
    document to out_dir/source_document.json (atomically). Raises IngestionError on bad input.

    `display_path` is the path recorded in the document (default: `path` as given), so outputs
    do not depend on where a data home lives.
    """
    path = Path(path)
    out_dir = Path(out_dir)
    doc = open_pdf(path)
    try:
        pages, captions = read_pages(doc)
        exclude: dict[int, list] = {}
        found = extract_tables(path, doc, captions, regions=exclude)
        figures = extract_figures(doc, captions, out_dir)
        for figure in figures:
            if figure.bbox:
                exclude.setdefault(figure.page, []).append(figure.bbox)
        found += untitled_tables(path, doc, captions, exclude)  # outside captioned tables and figures
        tables, table_repairs = screen_tables(found)
        claims = numeric_claims(pages, exclude)
        sha = file_hash(path)
        document = SourceDocument(
            seed_id=seed_id,
            provenance=make_provenance(seed_id, "ingestion", "rules", code=code_version("ingestion"), inputs=sha,
                                       repairs=table_repairs),
            title=title or guess_title(doc), path=display_path or str(path), sha256=sha, n_pages=doc.page_count,
            pages=pages, tables=tables, figures=figures, numeric_claims=claims,
        )
    finally:
        doc.close()
    crash_point("ingestion")  # tests: killed with the figures written, before the document
    atomic_write_text(out_dir / SOURCE_DOCUMENT_FILE, document.model_dump_json(indent=1) + "\n")
    return document


def load_source_document(out_dir: Path) -> SourceDocument:
    path = Path(out_dir) / SOURCE_DOCUMENT_FILE
    return SourceDocument.model_validate_json(path.read_text(encoding="utf-8"))
