"""`mmeb lineage RECORD_ID`."""
from __future__ import annotations

import argparse


def _cmd_lineage(args: argparse.Namespace) -> int:
    from mmeb_assets.operations.lineage import record_lineage
    from mmeb_resources.storage import default_home

    try:
        lineage = record_lineage(default_home(), args.record_id)
    except KeyError as exc:
        print(f"error: {exc.args[0]}")
        return 2
    print(lineage.markdown())
    return 0


def register(subparsers) -> None:
    cmd = subparsers.add_parser("lineage", help="where a record came from, its versions, who cites and retrieved it")
    cmd.add_argument("record_id")
    cmd.set_defaults(func=_cmd_lineage)
