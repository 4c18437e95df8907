"""`mmeb export --format hf|beir|trec|ragas --out DIR`: repackage a finished build for other tools."""
from __future__ import annotations

import argparse
from pathlib import Path


def _formats(values: list[str]) -> list[str]:
    return list(dict.fromkeys(f.strip() for value in values for f in value.split(",") if f.strip()))


def _cmd_export(args: argparse.Namespace) -> int:
    from mmeb_assets.export import IncompleteBuild, export_build
    from mmeb_resources.storage import default_home

    home = Path(args.export_home or args.home or default_home()).resolve()
    try:
        written = export_build(home, Path(args.out).resolve(), _formats(args.format), manifest=args.manifest)
    except (IncompleteBuild, ValueError) as exc:
        print(f"mmeb export: {exc}")
        return 1
    for fmt, counts in written.items():
        parts = ", ".join(f"{part} {n}" for part, n in counts.items())
        print(f"{fmt:<6} {Path(args.out).resolve() / fmt}  ({parts})")
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("export", help="write a built benchmark as a Hugging Face dataset, BEIR, TREC "
                                                  "runs or RAGAS tables")
    parser.add_argument("--format", action="append", required=True,
                        help="hf, beir, trec or ragas; repeatable or comma-separated (--format hf,beir,trec,ragas)")
    parser.add_argument("--out", required=True, help="folder; each format goes to OUT/<format>/")
    parser.add_argument("--home", dest="export_home", help="the build's data home (default: $MMEB_HOME)")
    parser.add_argument("--manifest", help="the manifest the home was built from, for the seeds' licences "
                                           "(default: $MMEB_MANIFEST or demo)")
    parser.set_defaults(func=_cmd_export)
