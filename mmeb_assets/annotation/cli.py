"""`mmeb annotate`: serve the human validation app, or export every judgment.

    mmeb annotate --annotator alice --annotator bob          # http://127.0.0.1:8765/
    mmeb annotate --host 0.0.0.0 --token auto --annotator a  # elsewhere: a token is required
    mmeb annotate --export judgments.jsonl                   # write all judgments, then exit

The sample is drawn once, on the first start (default 50 accepted + 50 rejected, seed 0), and kept
in the database afterwards so judgments stay attached to the same items.
"""
from __future__ import annotations

import argparse
import re
import secrets
import sys
from pathlib import Path

from mmeb_assets.annotation import db
from mmeb_assets.annotation.sampling import AnnotationInputError, SampleConfig, blind_item, draw_from_home

ANNOTATOR_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")


def register(subparsers) -> None:
    p = subparsers.add_parser("annotate", help="serve the human validation web app, or export its judgments",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, loopback only)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 = any free port)")
    p.add_argument("--token", nargs="?", const="auto", default=None,
                   help="access token every request must carry; required when --host is not loopback; "
                        "'auto' (or no value) makes a random one")
    p.add_argument("--annotator", action="append", default=[],
                   help="annotator name (repeatable or comma-separated); added to the database")
    p.add_argument("--export", metavar="FILE.jsonl", help="write every judgment as JSON lines and exit")
    p.add_argument("--accepted", type=int, default=50, help="accepted items to sample (first start only)")
    p.add_argument("--rejected", type=int, default=50, help="rejected items to sample (first start only)")
    p.add_argument("--seed", type=int, default=0, help="sampling and shuffling seed (first start only)")
    p.add_argument("--project", action="append", default=[], help="sample only from this project (repeatable)")
    p.add_argument("--items", metavar="FILE", help="sample exactly the item ids listed in FILE, one a line "
                   "(first start only)")
    p.set_defaults(func=_cmd_annotate)


def annotator_names(values: list[str]) -> list[str]:
    names = [n.strip() for v in values for n in v.split(",") if n.strip()]
    bad = [n for n in names if not ANNOTATOR_NAME.match(n)]
    if bad:
        raise ValueError(f"--annotator {bad[0]!r}: use letters, digits, '.', '_' or '-' (at most 40)")
    return list(dict.fromkeys(names))


def prepare(home: Path, names: list[str], config: SampleConfig) -> list[str]:
    """Create/migrate the database, add annotators, draw the sample once. Returns notes to print."""
    conn = db.connect(db.db_path(home))
    try:
        db.add_annotators(conn, names)
        if not db.annotators(conn):
            raise ValueError("no annotators yet: name at least one with --annotator NAME")
        if db.sample_size(conn):
            meta = db.sample_meta(conn)
            wanted = config.as_meta()
            drawn_with = ", ".join(f"{k}={meta.get(k, '')}" for k in wanted)
            notes = [f"keeping the existing sample of {db.sample_size(conn)} items (drawn with {drawn_with})"]
            if any(meta.get(k) != v for k, v in wanted.items()):
                notes.append("the sampling options given now differ and are ignored: the sample is drawn once")
            return notes + [v for k, v in sorted(meta.items()) if k.startswith("note")]
        drawn = draw_from_home(home, config)
        rows = [(item.id, item.project, label, blind_item(item)) for item, label in drawn.items]
        meta = {**config.as_meta(), "available_accepted": str(drawn.available["accepted"]),
                "available_rejected": str(drawn.available["rejected"])}
        meta.update({f"note_{i}": n for i, n in enumerate(drawn.notes, start=1)})
        db.write_sample(conn, rows, meta)
        counts = {k: sum(1 for _, label in drawn.items if label == k) for k in ("accepted", "rejected")}
        return [f"drew {len(rows)} items ({counts['accepted']} accepted, {counts['rejected']} rejected), "
                f"seed {config.seed}", *drawn.notes]
    finally:
        conn.close()


def _cmd_annotate(args: argparse.Namespace) -> int:
    from mmeb_assets.annotation.server import AnnotationApp, is_loopback, make_server
    from mmeb_resources.serving import serve_until_interrupted
    from mmeb_resources.storage import default_home

    home = default_home()
    if args.export:
        try:
            conn = db.connect(db.db_path(home), create=False)
        except FileNotFoundError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        try:
            count = db.export_jsonl(conn, Path(args.export))
        finally:
            conn.close()
        print(f"wrote {count} judgments to {args.export}")
        return 0
    token = secrets.token_urlsafe(24) if args.token == "auto" else args.token
    if not is_loopback(args.host) and not token:
        print(f"error: --host {args.host} is not loopback; pass --token (or --token auto)", file=sys.stderr)
        return 2
    try:
        names = annotator_names(args.annotator)
        item_ids = [] if not args.items else [line.strip() for line in
                                              Path(args.items).read_text(encoding="utf-8").splitlines() if line.strip()]
        config = SampleConfig(args.accepted, args.rejected, args.seed, args.project, item_ids)
        for note in prepare(home, names, config):
            print(note)
    except (ValueError, OSError, AnnotationInputError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    server = make_server(AnnotationApp(home=home, token=token), args.host, args.port)
    host, port = server.server_address[:2]
    shown = f"[{host}]" if ":" in str(host) else host
    print(f"annotation app: http://{shown}:{port}/" + (f"?token={token}" if token else ""), flush=True)
    print(f"database: {db.db_path(home)}  (Ctrl-C to stop)", flush=True)
    serve_until_interrupted(server)
    return 0
