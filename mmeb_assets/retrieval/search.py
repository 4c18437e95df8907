"""Search over the workspace index: vector (batched), full-text (BM25, phrase), hybrid (RRF),
and the exact NumPy top-k used as the baseline in bench/bench_retrieval.py.

Every function returns, per query, a list of (record id, score) best first. Vector scores are
cosine similarities (the index stores L2-normalised vectors); full-text scores are BM25; hybrid
scores are reciprocal-rank-fusion sums.
"""
from __future__ import annotations

import gc
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Sequence

import numpy as np

Hits = list[tuple[str, float]]
RRF_K = 60


EXACT_MAX_FLOATS = 64_000_000  # 256 MB of float32 vectors held for the exact batch path
_MATRIX_CACHE: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
_MATRIX_CACHE_SIZE = 4


def vector_search(table: Any, queries: np.ndarray, k: int = 100, where: str | None = None,
                  chunk: int = 512, exact: bool = False) -> list[Hits]:
    """Top-k by cosine similarity for a batch of query vectors.

    Without a vector index LanceDB answers a list of queries with one flat scan per query; for a batch
    that is many times the work of one matrix product. So on an unindexed table of at most
    EXACT_MAX_FLOATS floats the stored vectors (those passing `where`, filtered by LanceDB) are read
    once per table version and searched exactly with `topk_by_column` (the same top-k as `numpy_topk`). An indexed or larger table goes
    to LanceDB's own (ANN) search. Both return the same exact top-k on a flat table. `exact=True` takes
    the batch path for a single query too (its scores then match a batch's to the last bit)."""
    queries = np.atleast_2d(np.asarray(queries, dtype=np.float32))
    if (len(queries) > 1 or exact) and _exact_batch_ok(table):
        ids, matrix = _filtered_matrix(table, where)
        return exact_hits(ids, matrix, queries, k)
    return lance_vector_search(table, queries, k=k, where=where, chunk=chunk)


def lance_vector_search(table: Any, queries: np.ndarray, k: int = 100, where: str | None = None,
                        chunk: int = 512) -> list[Hits]:
    """LanceDB list search (exact flat scan when the table has no vector index, else its ANN index)."""
    queries = np.atleast_2d(np.asarray(queries, dtype=np.float32))
    results: list[Hits] = [[] for _ in range(len(queries))]
    for start in range(0, len(queries), chunk):
        block = queries[start:start + chunk]
        builder = table.search([row for row in block]).distance_type("cosine").limit(k) \
            .select(["id", "_distance"])
        if where:
            builder = builder.where(where, prefilter=True)
        arrow = builder.to_arrow()
        qidx = arrow.column("query_index").to_pylist() if "query_index" in arrow.column_names else [0] * arrow.num_rows
        for q, rid, dist in zip(qidx, arrow.column("id").to_pylist(), arrow.column("_distance").to_pylist()):
            results[start + q].append((rid, 1.0 - float(dist)))
    for hits in results:
        hits.sort(key=lambda hit: (-hit[1], hit[0]))
    return results


def exact_hits(ids: np.ndarray, matrix: np.ndarray, queries: np.ndarray, k: int) -> list[Hits]:
    """Exact cosine top-k as hit lists, best first, ties by id (`ids` sorted, as `_filtered_matrix` keeps them)."""
    if len(ids) == 0:
        return [[] for _ in range(len(queries))]
    idx, scores = topk_by_column(matrix, _unit(queries), k)
    gc_was_on = gc.isenabled()
    gc.disable()  # ~10^5 fresh tuples, no cycles: the collector's passes over them are pure cost
    try:
        return [list(zip(row_ids, row_scores)) for row_ids, row_scores in zip(ids[idx].tolist(), scores.tolist())]
    finally:
        if gc_was_on:
            gc.enable()


def topk_by_column(matrix: np.ndarray, queries: np.ndarray, k: int, block: int | None = None,
                   threads: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The same exact top-k as `numpy_topk`, but deterministic on ties (broken by column index) and
    faster: `threads` workers each take a slice of the queries, matrix product and selection both.
    BLAS is held to one thread meanwhile: its own threads would otherwise spin against the
    selection (NumPy's partition and sort release the GIL, so the workers really run at once)."""
    n = matrix.shape[0]
    k = min(k, n)
    threads = max(1, min(threads or os.cpu_count() or 1, 8))
    block = block or max(threads, min(4096, 32_000_000 // max(1, n)))
    out_idx = np.empty((len(queries), k), dtype=np.int64)
    out_score = np.empty((len(queries), k), dtype=np.float32)
    if k == 0 or len(queries) == 0:
        return out_idx, out_score

    def search(bounds: tuple[int, int]) -> None:
        lo, hi = bounds
        idx, score = _select_topk(queries[lo:hi] @ matrix.T, k)
        out_idx[lo:hi], out_score[lo:hi] = idx, score

    step = -(-min(block, len(queries)) // threads)
    slices = [(lo, min(lo + step, len(queries))) for lo in range(0, len(queries), step)]
    if threads == 1 or len(slices) == 1:
        for bounds in slices:
            search(bounds)
        return out_idx, out_score
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        list(_selection_pool(threads).map(search, slices))
    return out_idx, out_score


def _select_topk(sims: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the k largest scores, best first, ties by column. argpartition picks an arbitrary
    member of a tie at the k-th place, so the rows with such a tie take the threshold selection."""
    n = sims.shape[1]
    cols = np.argpartition(sims, n - k, axis=1)[:, n - k:]
    values = np.take_along_axis(sims, cols, axis=1)
    tied = np.nonzero(np.count_nonzero(sims >= values.min(axis=1)[:, None], axis=1) > k)[0]
    if len(tied):
        cols[tied], values[tied] = _threshold_topk(sims[tied], k)
    order = np.lexsort((cols, -values))
    return np.take_along_axis(cols, order, axis=1), np.take_along_axis(values, order, axis=1)


def _threshold_topk(sims: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Every score at or above the k-th largest, ordered by (score desc, column), the first k kept."""
    n = sims.shape[1]
    kth = np.partition(sims, n - k, axis=1)[:, n - k]
    rows, cols = np.nonzero(sims >= kth[:, None])
    values = sims[rows, cols]
    order = np.lexsort((cols, -values, rows))
    rows, cols, values = rows[order], cols[order], values[order]
    take = np.searchsorted(rows, np.arange(len(sims)))[:, None] + np.arange(k)[None, :]
    return cols[take], values[take]


_POOLS: dict[int, ThreadPoolExecutor] = {}


def _selection_pool(threads: int) -> ThreadPoolExecutor:
    if threads not in _POOLS:
        _POOLS[threads] = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="topk")
    return _POOLS[threads]


def _unit(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length, unless they already are (re-normalising would move the last bits)."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    if np.allclose(norms, 1.0, atol=1e-5):
        return vectors
    return vectors / np.where(norms == 0, 1.0, norms)


def _exact_batch_ok(table: Any) -> bool:
    try:
        if any("vector" in getattr(ix, "columns", []) for ix in table.list_indices()):
            return False
        dim = table.schema.field("vector").type.list_size
        return table.count_rows() * max(1, dim) <= EXACT_MAX_FLOATS
    except Exception:  # a table that does not expose these: LanceDB's own search
        return False


def _filtered_matrix(table: Any, where: str | None) -> tuple[np.ndarray, np.ndarray]:
    key = (str(getattr(table, "uri", "") or getattr(table, "name", id(table))), table.version, where or "")
    if key not in _MATRIX_CACHE:
        builder = table.search().select(["id", "vector"]).limit(None)
        if where:
            builder = builder.where(where)
        id_list, matrix = _arrow_matrix(builder.to_arrow())
        ids = np.asarray(id_list, dtype=object)
        matrix = _unit(matrix) if len(ids) else matrix
        order = np.argsort(ids, kind="stable")  # rows by id: scores do not depend on the storage order
        ids, matrix = ids[order], np.ascontiguousarray(matrix[order])
        while len(_MATRIX_CACHE) >= _MATRIX_CACHE_SIZE:
            _MATRIX_CACHE.pop(next(iter(_MATRIX_CACHE)))
        _MATRIX_CACHE[key] = (ids, matrix)
    return _MATRIX_CACHE[key]


def clear_matrix_cache() -> None:
    _MATRIX_CACHE.clear()


def fts_search(table: Any, text: str, k: int = 100, phrase: bool = False, where: str | None = None) -> Hits:
    """BM25 over stored text; `phrase=True` matches the words as one exact phrase."""
    from lancedb.query import MatchQuery, PhraseQuery

    if not text.strip():
        return []
    query = PhraseQuery(text, "text") if phrase else MatchQuery(text, "text")
    builder = table.search(query, query_type="fts").limit(k).select(["id", "_score"])
    if where:
        builder = builder.where(where, prefilter=True)
    arrow = builder.to_arrow()
    hits = list(zip(arrow.column("id").to_pylist(), (float(s) for s in arrow.column("_score").to_pylist())))
    return sorted(hits, key=lambda hit: (-hit[1], hit[0]))


def rrf_fuse(rankings: Sequence[Hits], k: int = 100, rrf_k: int = RRF_K) -> Hits:
    """Reciprocal rank fusion: score(d) = sum over rankings of 1 / (rrf_k + rank_d), rank from 1."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, (rid, _) in enumerate(ranking, start=1):
            scores[rid] = scores.get(rid, 0.0) + 1.0 / (rrf_k + rank)
    return sorted(scores.items(), key=lambda hit: (-hit[1], hit[0]))[:k]


def hybrid_search(table: Any, text: str, vector: np.ndarray, k: int = 100, pool: int = 100,
                  where: str | None = None) -> Hits:
    """RRF of the vector top-`pool` and the BM25 top-`pool`."""
    dense = vector_search(table, np.asarray(vector)[None, :], k=pool, where=where)[0]
    sparse = fts_search(table, text, k=pool, where=where)
    return rrf_fuse([dense, sparse], k=k)


def numpy_topk(matrix: np.ndarray, queries: np.ndarray, k: int, block: int | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """Exact top-k by inner product (cosine for normalised rows): (indices, scores), best first.
    Queries go in blocks whose similarity matrix stays near 64 MB."""
    matrix = np.asarray(matrix, dtype=np.float32)
    queries = np.atleast_2d(np.asarray(queries, dtype=np.float32))
    k = min(k, matrix.shape[0])
    block = block or max(1, min(2048, 16_000_000 // max(1, matrix.shape[0])))
    out_idx = np.empty((len(queries), k), dtype=np.int64)
    out_score = np.empty((len(queries), k), dtype=np.float32)
    for start in range(0, len(queries), block):
        sims = queries[start:start + block] @ matrix.T
        part = np.argpartition(-sims, k - 1, axis=1)[:, :k]
        part_scores = np.take_along_axis(sims, part, axis=1)
        order = np.argsort(-part_scores, axis=1, kind="stable")
        out_idx[start:start + block] = np.take_along_axis(part, order, axis=1)
        out_score[start:start + block] = np.take_along_axis(part_scores, order, axis=1)
    return out_idx, out_score


def table_matrix(table: Any) -> tuple[list[str], np.ndarray]:
    """All ids and vectors of a table (for exact search and checks)."""
    return _arrow_matrix(table.to_arrow().select(["id", "vector"]))


def _arrow_matrix(arrow) -> tuple[list[str], np.ndarray]:
    """An Arrow table's `id` column and its fixed-size `vector` column as one float32 matrix."""
    ids = arrow.column("id").to_pylist()
    flat = arrow.column("vector").combine_chunks().flatten().to_numpy(zero_copy_only=False)
    return ids, flat.reshape(len(ids), -1).astype(np.float32)
