"""`mmeb score --answers A.jsonl [--retrieved R.jsonl] --name NAME [--json] [--home DIR]`: put your
own system on the leaderboard (see README, "Scoring your own system")."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def _builtin(files) -> tuple[list, list, dict]:
    """(runs of the home's materialized model x k cells, leaderboard cells of a folder, retriever metrics)."""
    from mmeb_assets.evaluation.leaderboard import load_runs, retrieval_metrics
    from mmeb_resources.model_registry import load_registry
    from mmeb_assets.partitions import K_VALUES
    from mmeb_assets.schema.evaluation import Leaderboard
    from mmeb_resources.io_manager import _load as load_envelope

    if files.home is not None:
        registry = load_registry()
        keys = [(spec.name, int(k)) for spec in registry.enabled for k in K_VALUES]
        runs, _ = load_runs(files.home, keys, registry)
        return runs, [], retrieval_metrics(files.home)
    board_path = files.folder / "leaderboard.json"
    if board_path.exists():
        board = load_envelope(board_path)
        if isinstance(board, Leaderboard):
            return [], board.cells, board.retrieval
    return [], [], {}


def _builtin_names() -> dict[str, str]:
    """name -> where it is defined, for every model of the registry (enabled or not)."""
    from mmeb_resources.model_registry import load_registry

    try:
        registry = load_registry()
    except Exception:  # an unreadable registry is reported where it is used, not here
        return {}
    return {spec.name: str(registry.file) for spec in registry.models}


def _keep(score, files, retrieved) -> None:
    """Save the scored system and rewrite the report and its CSV files with its rows, saying where."""
    from mmeb_assets.evaluation.leaderboard import board_with_submitted
    from mmeb_assets.evaluation.score import save_score

    folder = save_score(score, files.home, retrieved)
    report = board_with_submitted(files.home, files.benchmark, files.corpus)
    where = (f"its rows added to {report} and the CSV files beside it" if report is not None
             else "no report here yet: the next build's report holds its rows")
    print(f"mmeb score: saved under {folder}; {where} (`mmeb view` shows it too)", file=sys.stderr)


def _cmd_score(args: argparse.Namespace) -> int:
    from mmeb_assets.evaluation.score import builtin_rows, score_markdown, score_system
    from mmeb_assets.evaluation.submission import SubmissionError, locate_benchmark, read_answers, read_retrieved
    from mmeb_assets.evaluation.submitted import submitted_folder
    from mmeb_resources.storage import default_home

    taken = _builtin_names()
    if args.name in taken:
        print(f"mmeb score: --name {args.name!r} is a built-in model's name ({taken[args.name]}); choose another, "
              "so the tables never hold two rows of one name", file=sys.stderr)
        return 2
    try:
        files = locate_benchmark(Path(args.score_home) if args.score_home else default_home())
        answers = read_answers(Path(args.answers), files.items)
        retrieved = read_retrieved(Path(args.retrieved), files.items) if args.retrieved else None
    except SubmissionError as exc:
        print(f"mmeb score: {exc}", file=sys.stderr)
        return 2
    kept = submitted_folder(files.home, args.name) if files.home is not None else None
    if kept is not None and not args.no_save and not args.replace and kept.exists():
        print(f"mmeb score: a system named {args.name!r} was scored and kept before ({kept});"
              " choose another --name, or --replace it", file=sys.stderr)
        return 2
    score = score_system(args.name, files, answers, retrieved)
    if files.home is not None and not args.no_save:
        _keep(score, files, retrieved)
    if args.json:
        print(json.dumps(score.as_json(), indent=1))
        return 0
    runs, cells, retrievers = _builtin(files)
    print(score_markdown(score, builtin_rows(score, runs, files, cells), retrievers, len(files.items)), end="")
    return 0


def register(subparsers) -> None:
    score = subparsers.add_parser("score", help="judge your own system's answers (and retrievals) and print its "
                                                "Table 5-7 rows beside the built-in systems")
    score.add_argument("--answers", required=True, help='JSONL, one {"id", "answer"} per question')
    score.add_argument("--retrieved", help='JSONL, one {"id", "retrieved": [record ids, best first]} per question')
    score.add_argument("--name", required=True, help="your system's name in the tables")
    score.add_argument("--json", action="store_true", help="print one JSON object instead of the tables")
    score.add_argument("--home", dest="score_home", default=None, metavar="DIR",
                       help="a build's data home, or a benchmark folder holding questions.jsonl "
                            "(default: $MMEB_HOME or ./data)")
    score.add_argument("--replace", action="store_true",
                       help="score again under a name kept before, replacing the kept answers")
    score.add_argument("--no-save", action="store_true",
                       help="do not keep the scored answers under <home>/submitted/<name>/ (kept by default: the "
                            "report, its CSV files and the results browser, `mmeb view`, then show the system)")
    score.set_defaults(func=_cmd_score)
