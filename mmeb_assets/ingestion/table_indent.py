"""Rows nested by indentation: a state under its region, 'Severe disability' under 'With a disability'.

Why: statistical tables print the hierarchy of their rows only as indentation in the stub column
('Northeast' / '  Connecticut' / '  Maine'). Read flat, two rows of one name under two parents are
one name twice ('With a disability' under 'All ages' and under 'Aged 15 and older'), and a state's
value is asked without its region. A row's parents are the nearest rows above it that sit further
left, as a reader follows the page.

Only indentation a page plainly uses counts: a handful of distinct left edges shared by many rows
(centred or right-aligned labels, '14-17' over 'Over 35' over 'Total', give an edge per label
length), steps of a few characters, and labels with letters in them take part.
"""
from __future__ import annotations

import re

EDGE_TOLERANCE = 1.5   # points: one left edge, whatever the rounding of the PDF
MIN_STEP, MAX_STEP = 2.0, 40.0
BLOCK_GAP = 1.6  # a blank line between rows: their spacing this many times the usual one
MAX_LEVELS = 5
DASH_MARK = re.compile(r"^[-–—•]\s+(?=\S)")


def _aligned(values: list[float]) -> bool:
    return bool(values) and max(values) - min(values) <= EDGE_TOLERANCE


def indent_levels(spans: list[tuple[float, float] | None], labels: list[str]) -> list[int | None] | None:
    """Each row's indentation level (0 = leftmost), or None when the stub is not indented by rule:
    labels set flush right or centred ('Train (70%)' over 'Test (20%)') differ at the left only."""
    x0s = [span[0] if span else None for span in spans]
    placed = [span for span, label in zip(spans, labels) if span and label]
    if _aligned([x1 for _x0, x1 in placed]) or _aligned([(x0 + x1) / 2 for x0, x1 in placed]):
        return None
    edges = sorted({round(x, 1) for x, label in zip(x0s, labels) if x is not None and label})
    clusters: list[float] = []
    for x in edges:
        if not clusters or x - clusters[-1] > EDGE_TOLERANCE:
            clusters.append(x)
    rows = sum(1 for x in x0s if x is not None)
    if not 2 <= len(clusters) <= MAX_LEVELS or len(clusters) > max(2, rows // 3):
        return None
    steps = [b - a for a, b in zip(clusters, clusters[1:])]
    if min(steps) < MIN_STEP or max(steps) > MAX_STEP:
        return None
    return [None if x is None or not _wordy(label) else
            max(i for i, c in enumerate(clusters) if x >= c - EDGE_TOLERANCE)
            for x, label in zip(x0s, labels)]


def indent_paths(spans: list[tuple[float, float] | None], labels: list[str],
                 groups: list[list[str]]) -> list[list[str]]:
    """Each row's parents by indentation (outermost first), within its row group; [] for a row at
    the left edge, and for every row when the stub is not indented. `spans`: each row's own label's
    left and right edges (None where the row has no label of its own)."""
    levels = indent_levels(spans, labels)
    if levels is None:
        return [[] for _ in labels]
    out: list[list[str]] = []
    stack: list[tuple[int, str]] = []
    previous_group: list[str] | None = None
    for level, label, group in zip(levels, labels, groups):
        if group != previous_group:
            stack, previous_group = [], group
        if level is None:
            out.append([])
            continue
        stack = [(lv, text) for lv, text in stack if lv < level]
        out.append([text for _, text in stack])
        stack.append((level, label))
    return out


def _wordy(label: str) -> bool:
    return any(ch.isalpha() for ch in label)


def block_heads(spans: list[tuple[float, float] | None], row_ys: list[float]) -> list[bool]:
    """Which rows head the block of rows they open ('All ages', 'Aged 15 and older' over their
    'With a disability' rows), though they carry values of their own (a block's total).

    Why: census-style tables set a block's head apart by a blank line above it and a label set
    further right than every other label of its block (centred or right-set, often bold), where an
    indented parent would sit further left. Only when the body has two blocks or more and every
    block of several rows opens that way; else no row is a head."""
    steps = sorted(b - a for a, b in zip(row_ys, row_ys[1:]))
    if not steps:
        return [False] * len(row_ys)
    usual = steps[len(steps) // 2]
    starts = [0] + [i for i in range(1, len(row_ys)) if row_ys[i] - row_ys[i - 1] > BLOCK_GAP * usual]
    blocks = [range(a, b) for a, b in zip(starts, [*starts[1:], len(row_ys)])]
    several = [b for b in blocks if len(b) >= 2]
    if len(blocks) < 2 or not several:
        return [False] * len(row_ys)
    for block in several:
        head, rest = spans[block[0]], [spans[i] for i in block[1:] if spans[i]]
        if not head or not rest or head[0] < max(s[0] for s in rest) + MIN_STEP:
            return [False] * len(row_ys)
    heads = {b[0] for b in several}
    return [i in heads for i in range(len(row_ys))]


def dash_nesting(labels: list[str]) -> tuple[list[str], list[list[str]]] | None:
    """Rows nested by a dash instead of indentation ('Card Opens' / '- FamiliarCite' / '-
    RencontrdCite'): the labels without their marks and each row's parent (the nearest unmarked row
    above). None unless the stub mixes marked and unmarked rows, an unmarked one first: a stub of
    marked rows only is a list."""
    marked = [bool(DASH_MARK.match(label)) for label in labels]
    if not any(marked) or all(marked) or marked[0]:
        return None
    stripped, parents, parent = [], [], ""
    for label, is_marked in zip(labels, marked):
        if is_marked:
            stripped.append(DASH_MARK.sub("", label))
            parents.append([parent])
        else:
            parent = label
            stripped.append(label)
            parents.append([])
    return stripped, parents

