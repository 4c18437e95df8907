"""`mmeb questions`: print the benchmark's statistics tables from the question files on disk."""
from __future__ import annotations

import argparse
from pathlib import Path


def _cmd_by_seed(args: argparse.Namespace) -> int:
    """One quality row per seed project of the data home (see mmeb_assets/qa/quality.py)."""
    from mmeb_assets.qa.quality_report import by_seed
    from mmeb_resources.storage import default_home

    home = Path(args.home) if args.home else default_home()
    try:
        table, rows = by_seed(home, args.retriever or "")
    except (FileNotFoundError, ValueError) as exc:
        print(f"mmeb questions --by-seed: {exc}")
        return 1
    if not rows:
        print(f"no seed project with questions.jsonl under {home / 'projects'} (build through qa_validated first)")
        return 1
    print(table.to_csv() if args.csv else table.to_markdown())
    missed = [q.seed for q in rows if q.misses]
    print(f"{len(rows) - len(missed)} of {len(rows)} seeds meet every target" + (f"; missed: {', '.join(missed)}" if missed else ""))
    return 0


def _cmd_share(home: Path, csv: bool) -> int:
    """What the answerable questions rest on, per seed project and overall (issue 37)."""
    from mmeb_assets.qa.quality_report import share_table

    table, overall = share_table(home)
    if overall.answerable == 0:
        print(f"no seed project with questions.jsonl under {home / 'projects'} (build through qa_validated first)")
        return 1
    print(table.to_csv() if csv else table.to_markdown())
    return 0


def _cmd_questions(args: argparse.Namespace) -> int:
    from mmeb_assets.qa.export import read_questions_jsonl
    from mmeb_assets.qa.stats import compute_statistics
    from mmeb_resources.storage import default_home

    if args.by_seed:
        return _cmd_by_seed(args)
    if args.share:
        return _cmd_share(Path(args.home) if args.home else default_home(), args.csv)

    path = Path(args.file) if args.file else default_home() / "benchmark" / "questions.jsonl"
    if not path.exists():
        print(f"no question file at {path} (materialize the 'benchmark' asset first, e.g. `mmeb demo`)")
        return 1
    items = read_questions_jsonl(path)
    projects = sorted({i.project for i in items})
    stats = compute_statistics(items, projects)
    for table in stats.tables:
        if not args.table or table.name in args.table:
            print(table.to_csv() if args.csv else table.to_markdown())
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("questions", help="statistics of the benchmark questions (paper Tables 2-5)")
    parser.add_argument("--file", help="a questions.jsonl (default: <home>/benchmark/questions.jsonl)")
    parser.add_argument("--table", action="append", help="only this table (e.g. table3c_questions); repeatable")
    parser.add_argument("--csv", action="store_true", help="print CSV instead of markdown")
    parser.add_argument("--by-seed", action="store_true",
                        help="one quality row per seed project: questions per task, evidence size and sources, "
                             "oracle-vs-shortcut gap, first-posted share of cross-source gold")
    parser.add_argument("--share", action="store_true",
                        help="per seed project and overall: the share of answerable questions that rest on a value "
                             "or statement of the seed document, on workspace facts, on the team's own review numbers")
    parser.add_argument("--home", help="data home for --by-seed and --share (default: $MMEB_HOME)")
    parser.add_argument("--retriever", help="--by-seed: shortcut readers read this retriever's stored top 10 "
                                            "(same build), instead of an in-process BM25 top 10")
    parser.set_defaults(func=_cmd_questions)
