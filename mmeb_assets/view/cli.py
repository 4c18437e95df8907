"""`mmeb view [--home H] [--out DIR] [--open] [--serve [--port N]]`: the results browser of a finished build."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _cmd_view(args: argparse.Namespace) -> int:
    from mmeb_assets.view.load import IncompleteBuild
    from mmeb_assets.view.site import build_site
    from mmeb_resources.storage import default_home

    home = Path(args.view_home or args.home or default_home()).resolve()
    try:
        summary = build_site(home, Path(args.out).resolve() if args.out else None, say=print)
    except IncompleteBuild as exc:
        print(f"mmeb view: {exc}", file=sys.stderr)
        return 1
    print(f"view: site         {summary.index.as_uri()}")
    if args.open:
        import webbrowser

        webbrowser.open(summary.index.as_uri())
    if args.serve:
        from mmeb_assets.view.serve import serve

        serve(summary.out, args.port)
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("view", help="write the results browser of a build (a static site: leaderboard, "
                                                "slices, questions, compare, question health) and open or serve it")
    parser.add_argument("--home", dest="view_home", help="the build's data home (default: $MMEB_HOME or ./data)")
    parser.add_argument("--out", help="folder for the site (default: <home>/view)")
    parser.add_argument("--open", action="store_true", help="open index.html in the default browser (file://)")
    parser.add_argument("--serve", action="store_true", help="serve the site on http://127.0.0.1:PORT until Ctrl-C")
    parser.add_argument("--port", type=int, default=8041, help="port for --serve (default 8041; 0 picks a free one)")
    parser.set_defaults(func=_cmd_view)
