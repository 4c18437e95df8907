"""`mmeb report`: print the leaderboard tables (markdown), Table 4 (human validation), or one table's CSV."""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path


def _reports_dir() -> Path:
    from mmeb_resources.storage import default_home

    return default_home() / "evaluation" / "reports"


def _section(markdown: str, table: str) -> str:
    """The header, notes and one '### Table N' section (all its k blocks)."""
    head, *sections = re.split(r"(?m)^(?=### Table )", markdown)
    chosen = [s for s in sections if s.startswith(f"### Table {table} ")]
    return head + "".join(chosen)


def _cmd_report(args: argparse.Namespace) -> int:
    folder = Path(args.dir) if args.dir else _reports_dir()
    if args.csv:
        path = folder / f"table{args.csv}.csv"
    else:
        path = folder / "leaderboard.md"
    if args.table == "4" and not args.csv:
        from mmeb_resources.storage import default_home

        print(_table4(default_home()).lstrip("\n"))  # Table 4 needs no leaderboard
        return 0
    if not path.exists():
        print(f"no report at {path}: materialize the `leaderboard` asset first (make demo)", file=sys.stderr)
        return 1
    text = path.read_text(encoding="utf-8")
    print(_section(text, args.table) if (args.table and not args.csv) else text, end="")
    if not args.csv:
        if args.table in (None, "4"):
            from mmeb_resources.storage import default_home

            print(_table4(default_home()))
        print(f"\nFiles: {folder} (leaderboard.md, table5/6/7.csv, *.png)")
    return 0


def _table4(home: Path) -> str:
    """Table 4 (human validation) as last built, beside the paper's; where to get it when it is not."""
    from mmeb_assets.annotation.agreement import PAPER_TABLE4, HumanAgreement, table4_markdown

    path = home / "benchmark" / "human_agreement.json"
    if not path.exists():
        return ("\n### Table 4 (human validation)\n\nNot built: judge items with `mmeb annotate`, then "
                "`mmeb build --select human_agreement`.")
    import json

    data = json.loads(path.read_text(encoding="utf-8"))
    result = HumanAgreement.model_validate(data.get("data", data))
    return (f"\n### Table 4 (human validation): this build, {result.judged_items} of {result.sampled_items} "
            f"sampled items judged\n\n{table4_markdown(result)}\n\nThe paper's Table 4:\n\n{PAPER_TABLE4}\n"
            f"\nFile: {path} (and human_agreement_table4.csv beside it)")


def register(subparsers) -> None:
    report = subparsers.add_parser("report", help="print the evaluation tables (Tables 5-7)")
    report.add_argument("--table", choices=["4", "5", "6", "7"], help="only this table (4: human validation)")
    report.add_argument("--csv", choices=["5", "6", "7"], help="print this table's CSV instead")
    report.add_argument("--dir", help="reports folder (default: <home>/evaluation/reports)")
    report.set_defaults(func=_cmd_report)
    from mmeb_assets.evaluation import judge_cli, score_cli, serve_cli

    serve_cli.register(subparsers)
    score_cli.register(subparsers)
    judge_cli.register(subparsers)
