"""`mmeb ingest PATH.pdf --out DIR`: read one PDF into DIR/source_document.json (+ DIR/figures/*.png).
(The robustness corpus commands, which fetch and judge seed PDFs, are seedgen's: seedgen/cli.py.)"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path


def _seed_id_from(path: Path) -> str:
    slug = re.sub(r"[^a-z0-9_-]+", "-", path.stem.lower()).strip("-_")
    return (slug or "seed")[:63]


def _cmd_ingest(args: argparse.Namespace) -> int:
    from mmeb_assets.ingestion.document import IngestionError, ingest_pdf

    path = Path(args.pdf)
    out = Path(args.out)
    try:
        doc = ingest_pdf(path, out, seed_id=args.seed_id or _seed_id_from(path), title=args.title)
    except IngestionError as exc:
        print(f"mmeb ingest: {exc}", file=sys.stderr)
        return 2
    print(f"{out / 'source_document.json'}: {doc.n_pages} pages, {len(doc.tables)} tables, "
          f"{len(doc.figures)} figures, {len(doc.numeric_claims)} numeric claims")
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("ingest", help="read one PDF: text, tables, figures, numeric claims")
    parser.add_argument("pdf", help="the PDF file")
    parser.add_argument("--out", required=True, help="output folder (source_document.json, figures/)")
    parser.add_argument("--seed-id", help="seed id recorded in the output (default: from the file name)")
    parser.add_argument("--title", help="title (default: PDF metadata or the largest text on page 1)")
    parser.set_defaults(func=_cmd_ingest)
