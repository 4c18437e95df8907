"""Tie-aware comparison of top-k results for tests.

Scores from a sliced matrix product and from the full product can differ in the last bits (how BLAS
blocks and threads a product varies from run to run), so tests never compare computed scores bit for
bit. A top-k list is right when, at every rank, the id it holds scores (in float64, recomputed here)
within the tolerance of the true score at that rank, and no id repeats: two ids whose scores are
within the tolerance may swap places; any other difference in order or membership fails.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

RTOL = 1e-5
ATOL = 1e-6


def true_scores(matrix: np.ndarray, queries: np.ndarray) -> np.ndarray:
    """Inner products in float64: the reference every float32 path is compared against."""
    return np.asarray(queries, dtype=np.float64) @ np.asarray(matrix, dtype=np.float64).T


def assert_topk_equivalent(got: Sequence[Sequence[int]], scores: np.ndarray, k: int,
                           rtol: float = RTOL, atol: float = ATOL) -> None:
    """`got[q]` (column indices, best first) is a correct top-k of row `scores[q]` up to near-ties."""
    assert len(got) == len(scores), f"{len(got)} result rows for {len(scores)} queries"
    k = min(k, scores.shape[1])
    for q, (row, truth) in enumerate(zip(got, scores)):
        row = list(row)
        assert len(row) == k, f"query {q}: {len(row)} hits, want {k}"
        assert len(set(row)) == k, f"query {q}: a column appears twice in {row}"
        want = np.sort(truth)[::-1][:k]
        have = truth[np.asarray(row, dtype=np.int64)]
        bad = ~np.isclose(have, want, rtol=rtol, atol=atol)
        if bad.any():
            rank = int(np.argmax(bad))
            raise AssertionError(f"query {q}, rank {rank + 1}: column {row[rank]} scores {have[rank]:.8f}, "
                                 f"the true score at that rank is {want[rank]:.8f}")


def assert_scores_close(got: np.ndarray, want: np.ndarray, rtol: float = RTOL, atol: float = ATOL) -> None:
    """Sorted per row, the two score matrices agree within the tolerance."""
    np.testing.assert_allclose(np.sort(np.asarray(got, dtype=np.float64), axis=1),
                               np.sort(np.asarray(want, dtype=np.float64), axis=1), rtol=rtol, atol=atol)
