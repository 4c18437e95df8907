"""95% intervals of an accuracy and of a difference of accuracies, one per outcome set.

An interval depends only on the outcomes (question id -> correct), never on which table asks for
it: the resampling seed is a hash of the sorted question ids, and the outcomes are taken in id
order. So the same judgments give the same interval in Table 5 and Table 7.

The percentile bootstrap draws 10,000 resamples of the questions with replacement. For 0/1
outcomes the number correct in a resample of n questions is exactly Binomial(n, correct / n), and
for paired outcomes the counts of (right, wrong) / (wrong, right) / other pairs are exactly
Multinomial(n, shares): numpy draws those counts directly, which is the same bootstrap
distribution at a cost independent of n (tests/test_intervals.py checks it against explicit index
resampling). Cells with fewer than MIN_BOOTSTRAP_N questions get the Wilson score interval, which
keeps its coverage where a bootstrap of a handful of outcomes collapses (5 of 5 right: [100, 100]).
"""
from __future__ import annotations

import hashlib
import math
from typing import Mapping

import numpy as np

BOOTSTRAP_SAMPLES = 10_000
MIN_BOOTSTRAP_N = 30
Z_95 = 1.959963984540054


def outcome_seed(ids) -> int:
    """A seed from the question ids alone (sorted, so the order they come in does not matter)."""
    digest = hashlib.sha256("\n".join(sorted(ids)).encode()).hexdigest()
    return int(digest[:16], 16)


def wilson_interval(correct: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval of correct / n, in %."""
    if n == 0:
        return 0.0, 0.0
    p = correct / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return round(100 * max(0.0, centre - half), 1), round(100 * min(1.0, centre + half), 1)


def bootstrap_interval(correct: int, n: int, seed: int, samples: int = BOOTSTRAP_SAMPLES) -> tuple[float, float]:
    """Percentile interval (2.5, 97.5) of the resampled accuracy, in %."""
    if n == 0:
        return 0.0, 0.0
    counts = np.random.default_rng(seed).binomial(n, correct / n, size=samples)
    means = counts / n * 100
    return round(float(np.percentile(means, 2.5)), 1), round(float(np.percentile(means, 97.5)), 1)


def accuracy_interval(outcomes: Mapping[str, bool]) -> tuple[float, float]:
    """The 95% interval of one outcome set (question id -> correct): Wilson under 30 questions,
    else the bootstrap seeded from the ids."""
    n, correct = len(outcomes), sum(bool(v) for v in outcomes.values())
    if n < MIN_BOOTSTRAP_N or correct in (0, n):  # all right or all wrong: the bootstrap collapses to one point
        return wilson_interval(correct, n)
    return bootstrap_interval(correct, n, outcome_seed(outcomes))


def interval_method(n: int, correct: int | None = None) -> str:
    return "wilson" if n < MIN_BOOTSTRAP_N or correct in (0, n) else "bootstrap"


def paired_difference(a: Mapping[str, bool], b: Mapping[str, bool],
                      samples: int = BOOTSTRAP_SAMPLES) -> tuple[float, float, float, int]:
    """Paired bootstrap of accuracy(a) - accuracy(b) over the questions both answered:
    (difference, low, high) in points and the number of shared questions. The difference is
    significant at 95% when the interval leaves out 0."""
    shared = sorted(set(a) & set(b))
    n = len(shared)
    if n == 0:
        return 0.0, 0.0, 0.0, 0
    a_only = sum(bool(a[q]) and not b[q] for q in shared)
    b_only = sum(bool(b[q]) and not a[q] for q in shared)
    shares = [a_only / n, b_only / n, (n - a_only - b_only) / n]
    counts = np.random.default_rng(outcome_seed(shared)).multinomial(n, shares, size=samples)
    diffs = (counts[:, 0] - counts[:, 1]) / n * 100
    low, high = np.percentile(diffs, [2.5, 97.5])
    return round(100 * (a_only - b_only) / n, 1), round(float(low), 1), round(float(high), 1), n


def differs(a: Mapping[str, bool], b: Mapping[str, bool]) -> bool | None:
    """Whether a and b differ significantly (paired bootstrap, 95%); None when they share no question."""
    _, low, high, n = paired_difference(a, b)
    if n == 0:
        return None
    return low > 0 or high < 0
