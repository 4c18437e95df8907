"""`mmeb search`: query the workspace index; `mmeb recall`: print a retriever's Recall@k table."""
from __future__ import annotations

import argparse
import sys


def _cmd_search(args: argparse.Namespace) -> int:
    from mmeb_assets.retrieval.assets import embedder_for
    from mmeb_assets.retrieval.search import fts_search, hybrid_search, vector_search
    from mmeb_resources.embedder import embedder_from_env
    from mmeb_resources.lancedb import LanceDBResource

    db = LanceDBResource()
    retriever = args.retriever or embedder_from_env().name
    table = db.open_table(retriever)
    if table is None:
        print(f"no index for retriever {retriever!r} under {db.resolved_uri()}: materialize lance_index first "
              "(make demo)", file=sys.stderr)
        return 1
    where = f"project = '{args.project}'" if args.project else None
    if args.mode == "fts":
        hits = fts_search(table, args.query, k=args.k, phrase=args.phrase, where=where)
    else:
        vector = embedder_for(retriever, embedder_from_env()).embed_queries([args.query])[0]
        hits = vector_search(table, vector[None, :], k=args.k, where=where)[0] if args.mode == "vector" else \
            hybrid_search(table, args.query, vector, k=args.k, where=where)
    rows = {r["id"]: r for r in table.search().where("id IN ({})".format(
        ", ".join("'" + rid.replace("'", "''") + "'" for rid, _ in hits) or "''")).limit(None)
        .select(["id", "source", "timestamp", "text"]).to_list()}
    for rank, (rid, score) in enumerate(hits, start=1):
        row = rows.get(rid, {})
        text = " ".join(str(row.get("text", "")).split())[:110]
        print(f"{rank:>3}. {score:8.4f}  {rid:<36} {row.get('source', ''):<9} {str(row.get('timestamp', ''))[:16]}  {text}")
    return 0


def _cmd_recall(args: argparse.Namespace) -> int:
    from mmeb_resources.storage import default_home

    path = default_home() / "evaluation" / "retrieval" / args.retriever / ("recall.csv" if args.csv else "recall.md")
    if not path.exists():
        print(f"no recall table at {path}: materialize `retrievals` for {args.retriever!r} first", file=sys.stderr)
        return 1
    print(path.read_text(encoding="utf-8"), end="")
    return 0


def register(subparsers) -> None:
    search = subparsers.add_parser("search", help="search the workspace index (vector, full-text or hybrid)")
    search.add_argument("query")
    search.add_argument("--mode", choices=("hybrid", "vector", "fts"), default="hybrid")
    search.add_argument("--phrase", action="store_true", help="full-text: match the words as one phrase")
    search.add_argument("-k", type=int, default=10)
    search.add_argument("--project", help="only this project's records")
    search.add_argument("--retriever", help="index to search (default: the embedder resource's, minilm)")
    search.set_defaults(func=_cmd_search)
    recall = subparsers.add_parser("recall", help="print a retriever's Evidence Recall@k table (Table 7 row)")
    recall.add_argument("--retriever", default="minilm")
    recall.add_argument("--csv", action="store_true")
    recall.set_defaults(func=_cmd_recall)
