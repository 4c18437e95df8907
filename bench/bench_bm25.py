"""BM25 baselines on a built benchmark: LanceDB's native full-text search against `bm25s`, and the
MiniLM and hybrid (RRF) retrievers beside them, on the same questions and records.

    MMEB_HOME=<a built home> .venv/bin/python bench/bench_bm25.py

Prints, per ranker: Recall@10/50/100, nDCG@10, MRR (%, answerable questions with gold evidence) and
the seconds to rank every question (index build included for bm25s, whose index is built here; the
LanceDB index is built by the pipeline). Which BM25 the `bm25` retriever uses is decided from these
figures (README, "Retrieval baselines"). Prints figures only; nothing here asserts on time.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from mmeb_assets.retrieval.metrics import ranking_metrics  # noqa: E402
from mmeb_assets.retrieval.rankers import bm25_hits, project_filter  # noqa: E402
from mmeb_assets.retrieval.search import rrf_fuse, vector_search  # noqa: E402
from mmeb_resources.io_manager import _load as load_envelope  # noqa: E402
from mmeb_resources.lancedb import LanceDBResource  # noqa: E402
from mmeb_resources.storage import default_home  # noqa: E402


def bm25s_rank(records, items, k: int = 100, stemmer=None):
    import bm25s

    started = time.perf_counter()
    ids = [r.id for r in records]
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize([r.text for r in records], stopwords="en", stemmer=stemmer, show_progress=False),
                    show_progress=False)
    tokens = bm25s.tokenize([i.q for i in items], stopwords="en", stemmer=stemmer, show_progress=False)
    docs, scores = retriever.retrieve(tokens, k=min(k, len(ids)), show_progress=False, n_threads=1)
    hits = [[(ids[d], float(s)) for d, s in zip(row_d, row_s) if s > 0] for row_d, row_s in zip(docs, scores)]
    return hits, time.perf_counter() - started


def main() -> int:
    home = default_home()
    benchmark = load_envelope(home / "benchmark" / "benchmark.json")
    corpus = load_envelope(home / "benchmark" / "corpus.json")
    items = benchmark.items
    table = LanceDBResource().open_table("minilm")
    if table is None:
        print(f"no minilm index under {home}: build the demo first", file=sys.stderr)
        return 1
    rows = {}
    started = time.perf_counter()
    lance, _ = bm25_hits(table, items, corpus)
    rows["bm25 (LanceDB FTS)"] = (lance, time.perf_counter() - started)
    rows["bm25s (no stemmer)"] = bm25s_rank(corpus.records, items)
    try:
        import Stemmer  # PyStemmer, optional

        rows["bm25s (English stemmer)"] = bm25s_rank(corpus.records, items, stemmer=Stemmer.Stemmer("english").stemWords)
    except ImportError:
        pass
    from mmeb_resources.embedder import embedder_from_env

    started = time.perf_counter()
    queries = embedder_from_env().embed_queries([i.q for i in items])
    dense = vector_search(table, queries, k=100, where=project_filter(corpus))
    rows["minilm"] = (dense, time.perf_counter() - started)
    rows["hybrid (RRF minilm + LanceDB FTS)"] = ([rrf_fuse([d, s]) for d, s in zip(dense, lance)], 0.0)
    print(f"{home}: {len(items)} questions, {len(corpus.records)} records\n")
    print("| ranker | R@10 | R@50 | R@100 | nDCG@10 | MRR | seconds |\n|---|---:|---:|---:|---:|---:|---:|")
    for name, (hits, seconds) in rows.items():
        m = ranking_metrics(items, {i.id: [rid for rid, _ in h] for i, h in zip(items, hits)})
        print(f"| {name} | {100 * m['recall@10']:.1f} | {100 * m['recall@50']:.1f} | {100 * m['recall@100']:.1f} | "
              f"{100 * m['ndcg@10']:.1f} | {100 * m['mrr']:.1f} | {seconds:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
