"""The exact batch path of `vector_search` returns what LanceDB's own flat search returns, filters
with `where` through LanceDB, and rereads the vectors when the table changes."""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from mmeb_assets.retrieval.search import clear_matrix_cache, lance_vector_search, numpy_topk, vector_search


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


@pytest.mark.parametrize("where", [None, "project IN ('a', 'c')"])
def test_batch_path_equals_lancedb_flat_search(table, where):
    tbl, _vectors, rng = table
    queries = _unit(rng.standard_normal((20, 16)))
    fast, lance = vector_search(tbl, queries, k=10, where=where), lance_vector_search(tbl, queries, k=10, where=where)
    assert _ids(fast) == _ids(lance)
    assert np.allclose([[s for _, s in h] for h in fast], [[s for _, s in h] for h in lance], atol=1e-5)
    if where:
        assert all(int(rid[1:]) % 3 != 1 for hits in fast for rid, _ in hits)


def test_batch_path_equals_numpy_and_sees_new_rows(table):
    tbl, vectors, rng = table
    queries = _unit(rng.standard_normal((5, 16)))
    idx, _ = numpy_topk(vectors, queries, 7)
    assert _ids(vector_search(tbl, queries, k=7)) == [[f"r{i:03d}" for i in row] for row in idx]
    tbl.add(pa.table({"id": ["new"], "project": ["a"],
                      "vector": pa.FixedSizeListArray.from_arrays(pa.array(queries[0]), 16)}))
    assert vector_search(tbl, queries, k=7)[0][0][0] == "new"  # a new table version is read again


@pytest.mark.parametrize("k", [1, 10, 100])
def test_threshold_topk_equals_numpy_topk(k):
    from mmeb_assets.retrieval.search import topk_by_column

    rng = np.random.default_rng(k)
    matrix, queries = _unit(rng.standard_normal((2500, 32))), _unit(rng.standard_normal((300, 32)))
    matrix[40] = matrix[7]  # an exact tie inside the top-k: broken by column index
    queries[0] = matrix[7]
    idx, scores = numpy_topk(matrix, queries, k)
    want = [[c for c, _ in sorted(zip(r, s), key=lambda h: (-h[1], h[0]))] for r, s in zip(idx.tolist(), scores.tolist())]
    got_idx, got_scores = topk_by_column(matrix, queries, k)
    if k == 1:
        want[0] = [7]  # a tie at the boundary: argpartition keeps either, the threshold path the lower column
    assert got_idx.tolist() == want
    assert np.array_equal(np.sort(got_scores, axis=1), np.sort(scores, axis=1))
