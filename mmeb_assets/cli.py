"""`mmeb`: the short command line. Each stage may add commands in `mmeb_assets/<stage>/cli.py`
through a `register(subparsers)` function; this module only collects them."""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

STAGE_CLI_MODULES = (
    "mmeb_assets.seedgen.cli", "mmeb_assets.ingestion.cli", "mmeb_assets.simulation.cli", "mmeb_assets.records.cli",
    "mmeb_assets.qa.cli", "mmeb_assets.retrieval.cli", "mmeb_assets.evaluation.cli",
    "mmeb_assets.annotation.cli", "mmeb_assets.operations.cli", "mmeb_assets.export.cli",
    "mmeb_assets.view.cli",
)


def _choose_manifest_and_home(args: argparse.Namespace) -> None:
    """Choose the manifest and data home before the Definitions (and their partitions) load."""
    if getattr(args, "manifest", None):
        os.environ["MMEB_MANIFEST"] = str(Path(args.manifest).resolve()) if Path(args.manifest).exists() else args.manifest
    if getattr(args, "executor", None):  # before the Definitions load: they read it (operations/executors.py)
        os.environ["MMEB_EXECUTOR"] = args.executor
    if getattr(args, "home", None):
        os.environ["MMEB_HOME"] = str(Path(args.home).resolve())


def _refuse_unbuildable_manifest(args: argparse.Namespace) -> int:
    """0, or (the reasons printed) the exit status of a build whose manifest has nothing to build."""
    if args.func not in (_cmd_build, _cmd_demo):
        return 0
    from mmeb_assets.build.preflight import EXIT_BAD_MANIFEST, manifest_refusal

    lines = manifest_refusal()
    if lines:
        print("\n".join(lines), file=sys.stderr)
        return EXIT_BAD_MANIFEST
    return 0


def _set_environment(args: argparse.Namespace) -> None:
    """The Dagster home under the data home (created here, after the manifest was found buildable)."""
    from mmeb_resources.storage import atomic_write_text, default_home

    os.environ.setdefault("DAGSTER_HOME", str(default_home() / "dagster"))
    dagster_home = Path(os.environ["DAGSTER_HOME"])
    dagster_home.mkdir(parents=True, exist_ok=True)
    if not (dagster_home / "dagster.yaml").exists():  # else Dagster prints a notice and a telemetry banner
        atomic_write_text(dagster_home / "dagster.yaml", "# created by mmeb: default SQLite storage here\n"
                          "telemetry:\n  enabled: false\n")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def _build(args: argparse.Namespace, partitions=None, selection=None, force: bool = False) -> int:
    from mmeb_assets.build import build_all
    from mmeb_assets.build.summary import closing_lines
    from mmeb_resources.storage import default_home

    report = build_all(partitions=partitions, selection=selection, force=force, workers=args.workers,
                       verbose=args.verbose, launch=bool(getattr(args, "executor", None)))
    print("\n".join(closing_lines(report, default_home())))
    return 0 if report.ok else 1


def _cmd_build(args: argparse.Namespace) -> int:
    if args.resume and args.force:
        print("mmeb build: --resume and --force contradict each other (resume skips what --force rebuilds)")
        return 2
    code = _build(args, args.partition or None, args.select or None, args.force)
    return 0 if args.keep_going else code


def _cmd_demo(args: argparse.Namespace) -> int:
    return _build(args)


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=int, default=None,
                        help="runs at once (processes); default: the machine's cores")
    parser.add_argument("--verbose", action="store_true",
                        help="Dagster's full event log on the terminal (else it goes to $MMEB_HOME/logs/)")
    parser.add_argument("--executor", choices=["celery", "k8s", "multiprocess", "in_process"], default=None,
                        help="launch each run through $DAGSTER_HOME's run coordinator and launcher, its steps on "
                             "this executor (sets MMEB_EXECUTOR; docs/scale_out.md), and wait; default: run in "
                             "this process")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mmeb", description="MMEnterprise-Bench pipeline")
    parser.add_argument("--home", help="data home (default: $MMEB_HOME or ./data)")
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="run the whole graph offline on the demo seeds")
    demo.set_defaults(func=_cmd_demo, manifest="demo")
    _add_run_options(demo)

    build = sub.add_parser("build", help="materialize the graph for every partition of a manifest")
    build.add_argument("--manifest", required=True, help="manifest file, or 'demo' / 'paper' / 'shared'")
    build.add_argument("--partition", action="append", help="only this seed id (repeatable)")
    build.add_argument("--select", action="append", help="only these asset names (repeatable)")
    build.add_argument("--keep-going", action="store_true", help="exit 0 even if some partitions failed")
    build.add_argument("--force", action="store_true", help="rematerialize even what is up to date (default: resume, "
                       "skipping asset partitions that are fresh, see mmeb_assets/operations/resume.py)")
    build.add_argument("--resume", action="store_true", help="the default, said out loud: rerun after a failure or "
                       "a lost worker and only what did not finish runs again")
    _add_run_options(build)
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
    _choose_manifest_and_home(args)
    refused = _refuse_unbuildable_manifest(args)
    if refused:
        return refused
    _set_environment(args)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
