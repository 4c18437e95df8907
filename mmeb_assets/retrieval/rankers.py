"""The top-100 of every question for one retriever of config/retrievers.yaml.

Embedding retrievers (minilm, qwen3_vl) bring their table up to date and search it by vector. The
baselines only read: `bm25` searches the native full-text index of an embedding retriever's table,
`hybrid` fuses that retriever's vector top-100 with the BM25 top-100 by reciprocal rank. They write
nothing but a rebuilt full-text index, when it does not cover exactly the current rows (BM25 scores
would otherwise depend on which partition ran first).

With a `HitsCache` (hits_cache.py) every ranked list is kept per (ranker, index version, query text):
a rebuild searches only the queries this index has not answered, and `hybrid` reads the BM25 and
vector top-100 that `bm25` and the dense retriever stored for the same index.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Sequence

from mmeb_assets.retrieval.config import EMBEDDING_KINDS, load_retrievers
from mmeb_assets.retrieval.hits_cache import HitsCache, cached_hits, index_version
from mmeb_assets.retrieval.index import FTS_SETTINGS, refresh_fts_index
from mmeb_assets.retrieval.search import Hits, fts_search, rrf_fuse, vector_search
from mmeb_assets.schema.qa import QAItem
from mmeb_assets.schema.records import Corpus
from mmeb_resources.embedder import EmbedderResource
from mmeb_resources.lancedb import LanceDBResource

TOP_K = 100


@dataclass
class Ranking:
    hits: list[Hits]
    model_key: str
    reindexed: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    searched: int = 0  # queries actually searched (the rest came from the hits cache)


def project_filter(corpus: Corpus) -> str:
    return "project IN ({})".format(", ".join("'" + p.replace("'", "''") + "'" for p in corpus.projects))


def rank_questions(retriever: str, items: Sequence[QAItem], corpus: Corpus, embedder: EmbedderResource,
                   lancedb: LanceDBResource, sync, cache: HitsCache | None = None) -> Ranking:
    """`sync(model) -> reindexed projects` brings an embedding retriever's table up to date."""
    config = load_retrievers()
    spec = config.spec(retriever)
    if spec["kind"] in EMBEDDING_KINDS:
        return _dense(retriever, items, corpus, embedder, lancedb, sync, cache=cache)
    table = _open(lancedb, config.index_of(retriever), retriever)
    refresh_fts_index(table)  # BM25 statistics over exactly the current rows, whichever partition runs first
    started = time.perf_counter()
    if spec["kind"] == "bm25":
        hits, searched = bm25_hits(table, items, corpus, cache=cache)
        return Ranking(hits, "bm25:lancedb-fts", timings={"search_s": time.perf_counter() - started},
                       searched=searched)
    pool = int(spec.get("pool", TOP_K))
    sparse, searched = bm25_hits(table, items, corpus, k=pool, cache=cache)
    sparse_s = time.perf_counter() - started
    dense = _dense(spec["dense"], items, corpus, embedder, lancedb, sync=None, k=pool, cache=cache)
    fused = [rrf_fuse([d, s], k=TOP_K) for d, s in zip(dense.hits, sparse)]
    return Ranking(fused, f"rrf({dense.model_key}, bm25:lancedb-fts)",
                   timings={"search_s": sparse_s + dense.timings["search_s"], **{
                       k: v for k, v in dense.timings.items() if k != "search_s"}},
                   searched=searched + dense.searched)


def bm25_hits(table, items: Sequence[QAItem], corpus: Corpus, k: int = TOP_K,
              cache: HitsCache | None = None) -> tuple[list[Hits], int]:
    """BM25 top-k of every question and how many were searched (not read from `cache`)."""
    import lancedb as lancedb_lib

    where = fts_filter(table, corpus)
    ranker = f"bm25:k={k}:where={where or ''}"
    return cached_hits(cache, ranker, lambda: index_version(table, lancedb_lib.__version__, FTS_SETTINGS, ranker),
                       [item.q for item in items],
                       lambda queries: [fts_search(table, q, k=k, where=where) for q in queries])


def fts_filter(table, corpus: Corpus) -> str | None:
    """The corpus's project filter, or None where the table holds no other project: the filter then
    passes every row, and LanceDB's prefiltered full-text search took about twice the time of an
    unfiltered one (200 questions of the 30-project build: 7.7 vs 3.8 CPU ms each, the same lists)."""
    import pyarrow.compute as pc

    present = table.search().select(["project"]).limit(None).to_arrow().column("project")
    return None if set(pc.unique(present).to_pylist()) <= set(corpus.projects) else project_filter(corpus)


def _open(lancedb: LanceDBResource, index: str, retriever: str):
    table = lancedb.open_table(index)
    if table is None:
        raise FileNotFoundError(f"retriever {retriever!r} searches the {index!r} index, which is not built under "
                                f"{lancedb.resolved_uri()}: materialize lance_index first")
    return table


def _dense(retriever: str, items: Sequence[QAItem], corpus: Corpus, embedder: EmbedderResource,
           lancedb: LanceDBResource, sync, k: int = TOP_K, cache: HitsCache | None = None) -> Ranking:
    from mmeb_assets.retrieval.assets import embedder_for

    model = embedder_for(retriever, embedder)
    reindexed = sync(model) if sync else []
    table = lancedb.open_table(retriever) if sync else _open(lancedb, retriever, retriever)
    if table is not None and sync:
        refresh_fts_index(table)  # fold rows added or deleted since the index was built into it
    if not items or table is None:
        return Ranking([], model.model_key(), reindexed, {"query_embed_s": 0.0, "search_s": 0.0})
    where = project_filter(corpus)
    ranker = f"dense:{model.model_key()}:k={k}:where={where}"
    timings = {"query_embed_s": 0.0, "search_s": 0.0}

    def search(queries: list[str]) -> list[Hits]:
        started = time.perf_counter()
        vectors = model.embed_queries(queries)
        timings["query_embed_s"] = time.perf_counter() - started
        # the exact batch path even for one query: a cached list and a fresh one are ranked alike
        return vector_search(table, vectors, k=k, where=where, exact=True)

    started = time.perf_counter()
    hits, searched = cached_hits(cache, ranker, lambda: index_version(table, ranker), [item.q for item in items],
                                 search, exclusive=False)
    timings["search_s"] = time.perf_counter() - started - timings["query_embed_s"]
    return Ranking(hits, model.model_key(), reindexed, timings, searched)
