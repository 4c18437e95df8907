"""The exact batch path of `vector_search` returns what LanceDB's own flat search returns, filters
with `where` through LanceDB, and rereads the vectors when the table changes."""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from mmeb_assets.retrieval.search import clear_matrix_cache, lance_vector_search, numpy_topk, vector_search
from topk_compare import assert_scores_close, assert_topk_equivalent, true_scores


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


@pytest.fixture()
def table(tmp_path):
    import lancedb

    rng = np.random.default_rng(3)
    vectors = _unit(rng.standard_normal((300, 16)))
    data = pa.table({"id": [f"r{i:03d}" for i in range(300)], "project": ["a", "b", "c"] * 100,
                     "vector": pa.FixedSizeListArray.from_arrays(pa.array(vectors.reshape(-1)), 16)})
    clear_matrix_cache()
    return lancedb.connect(tmp_path).create_table("t", data=data), vectors, rng


def _ids(result):
    return [[rid for rid, _ in hits] for hits in result]


def _columns(result):
    """Hit lists of ids 'rNNN' as column indices into the fixture's vectors."""
    return [[int(rid[1:]) for rid, _ in hits] for hits in result]


@pytest.mark.parametrize("where", [None, "project IN ('a', 'c')"])
def test_batch_path_equals_lancedb_flat_search(table, where):
    tbl, _vectors, rng = table
    queries = _unit(rng.standard_normal((20, 16)))
    fast, lance = vector_search(tbl, queries, k=10, where=where), lance_vector_search(tbl, queries, k=10, where=where)
    keep = np.array([i % 3 != 1 for i in range(300)]) if where else np.ones(300, dtype=bool)
    truth = np.where(keep[None, :], true_scores(_vectors, queries), -np.inf)  # rows `where` filters out never rank
    assert_topk_equivalent(_columns(fast), truth, 10)
    assert_topk_equivalent(_columns(lance), truth, 10)
    assert_scores_close(np.array([[s for _, s in h] for h in fast]), np.array([[s for _, s in h] for h in lance]))
    if where:
        assert all(int(rid[1:]) % 3 != 1 for hits in fast for rid, _ in hits)


def test_batch_path_equals_numpy_and_sees_new_rows(table):
    tbl, vectors, rng = table
    queries = _unit(rng.standard_normal((5, 16)))
    idx, _ = numpy_topk(vectors, queries, 7)
    truth = true_scores(vectors, queries)
    assert_topk_equivalent(idx.tolist(), truth, 7)
    assert_topk_equivalent(_columns(vector_search(tbl, queries, k=7)), truth, 7)
    tbl.add(pa.table({"id": ["new"], "project": ["a"],
                      "vector": pa.FixedSizeListArray.from_arrays(pa.array(queries[0]), 16)}))
    assert vector_search(tbl, queries, k=7)[0][0][0] == "new"  # a new table version is read again


@pytest.mark.parametrize("k", [1, 10, 100])
def test_threshold_topk_equals_numpy_topk(k):
    """Same top-k as the full product, up to scores within float tolerance (BLAS may slice the
    product differently from run to run, which moves the last bits)."""
    from mmeb_assets.retrieval.search import topk_by_column

    rng = np.random.default_rng(k)
    matrix, queries = _unit(rng.standard_normal((2500, 32))), _unit(rng.standard_normal((300, 32)))
    matrix[40] = matrix[7]  # an exact tie inside the top-k
    queries[0] = matrix[7]
    truth = true_scores(matrix, queries)
    idx, scores = numpy_topk(matrix, queries, k)
    got_idx, got_scores = topk_by_column(matrix, queries, k)
    assert_topk_equivalent(got_idx.tolist(), truth, k)
    assert_topk_equivalent(idx.tolist(), truth, k)
    assert_scores_close(got_scores, scores)
    assert set(got_idx[0, :2].tolist()) <= {7, 40}


@pytest.mark.parametrize("threads", [1, 3])
def test_exact_ties_are_broken_by_column(threads):
    """Small-integer vectors give exact float32 products whatever the BLAS blocking, so ties are real
    ties: every tied group comes out in column order, the k-th place included."""
    from mmeb_assets.retrieval.search import topk_by_column

    rng = np.random.default_rng(11)
    matrix = rng.integers(0, 3, size=(400, 8)).astype(np.float32)
    queries = rng.integers(0, 3, size=(50, 8)).astype(np.float32)
    got_idx, got_scores = topk_by_column(matrix, queries, 25, threads=threads)
    truth = queries.astype(np.int64) @ matrix.astype(np.int64).T
    for row, cols, scores in zip(truth, got_idx.tolist(), got_scores.tolist()):
        want = sorted(range(len(row)), key=lambda c: (-row[c], c))[:25]
        assert cols == want
        assert scores == [float(row[c]) for c in want]
