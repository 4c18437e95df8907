"""`mmeb`: the short command line. Each stage may add commands in `mmeb_assets/<stage>/cli.py`
through a `register(subparsers)` function; this module only collects them."""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

STAGE_CLI_MODULES = (
    "mmeb_assets.ingestion.cli", "mmeb_assets.simulation.cli", "mmeb_assets.records.cli",
    "mmeb_assets.qa.cli", "mmeb_assets.retrieval.cli", "mmeb_assets.evaluation.cli",
    "mmeb_assets.annotation.cli", "mmeb_assets.operations.cli",
)


def _set_environment(args: argparse.Namespace) -> None:
    """Choose the manifest and data home before the Definitions (and their partitions) load."""
    if getattr(args, "manifest", None):
        os.environ["MMEB_MANIFEST"] = str(Path(args.manifest).resolve()) if Path(args.manifest).exists() else args.manifest
    if getattr(args, "home", None):
        os.environ["MMEB_HOME"] = str(Path(args.home).resolve())
    from mmeb_resources.storage import default_home

    os.environ.setdefault("DAGSTER_HOME", str(default_home() / "dagster"))
    Path(os.environ["DAGSTER_HOME"]).mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def _cmd_build(args: argparse.Namespace) -> int:
    from mmeb_assets.build import build_all

    report = build_all(partitions=args.partition or None, selection=args.select or None)
    print(report.summary())
    return 0 if report.ok or args.keep_going else 1


def _cmd_demo(args: argparse.Namespace) -> int:
    from mmeb_assets.build import build_all
    from mmeb_resources.storage import default_home

    report = build_all()
    print(report.summary())
    home = default_home()
    print(f"\nOutputs under {home}:\n  projects/<seed>/     per-project files: records.jsonl, questions.jsonl, docs/, pages/, slides/, images/"
          f"\n  benchmark/           merged questions (JSONL, Parquet), statistics, record lineage"
          f"\n  evaluation/reports/  Tables 5-7 (leaderboard.md, CSV, PNG) — `mmeb report` prints them"
          f"\n  dagster/             the Dagster instance: `make ui` shows these runs")
    return 0 if report.ok else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mmeb", description="MMEnterprise-Bench pipeline")
    parser.add_argument("--home", help="data home (default: $MMEB_HOME or ./data)")
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="run the whole graph offline on the demo seeds")
    demo.set_defaults(func=_cmd_demo, manifest="demo")

    build = sub.add_parser("build", help="materialize the graph for every partition of a manifest")
    build.add_argument("--manifest", required=True, help="manifest file, or 'demo' / 'paper' / 'shared'")
    build.add_argument("--partition", action="append", help="only this seed id (repeatable)")
    build.add_argument("--select", action="append", help="only these asset names (repeatable)")
    build.add_argument("--keep-going", action="store_true", help="exit 0 even if some partitions failed")
    build.set_defaults(func=_cmd_build)

    for module_name in STAGE_CLI_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    _set_environment(args)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
