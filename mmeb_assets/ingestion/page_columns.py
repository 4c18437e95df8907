"""The text column a caption sits in, on pages set in two columns.

Why: in a two-column paper a table set in one column shares its lines' heights with the prose of the
other column. An extractor's box (or the band between two captions) spans the page, so that prose
was read as the table's row groups and its header lost: 'annotations still have lower variance
than COARSE' heading the rows of an annotator table. A table whose caption stays on one side of the
gutter is read within that column only; a caption that crosses the gutter (a full-width table) is
left as it is.
"""
from __future__ import annotations

import re

import pymupdf

GUTTER_SLACK = 6.0     # points a column's line may run past the page's middle
MIN_SIDE_SHARE = 0.25  # of the page's text lines, in each column
MAX_CROSSING_SHARE = 0.3


def two_column(page: pymupdf.Page) -> bool:
    """Most lines of the page end before its middle or start after it, and both sides hold text."""
    mid = page.rect.width / 2
    left = right = crossing = 0
    for block in page.get_text("dict").get("blocks", []):
        for line in block.get("lines", []):
            x0, _y0, x1, _y1 = line["bbox"]
            if x1 - x0 < 40:
                continue
            if x1 <= mid + GUTTER_SLACK:
                left += 1
            elif x0 >= mid - GUTTER_SLACK:
                right += 1
            else:
                crossing += 1
    total = left + right + crossing
    return bool(total) and min(left, right) >= MIN_SIDE_SHARE * total and crossing <= MAX_CROSSING_SHARE * total


def caption_column(page: pymupdf.Page, caption_bbox: tuple) -> tuple[float, float] | None:
    """(x0, x1) of the column holding the caption on a two-column page, else None."""
    mid = page.rect.width / 2
    x0, _y0, x1, _y1 = caption_bbox
    if not (x1 <= mid + GUTTER_SLACK or x0 >= mid - GUTTER_SLACK) or not two_column(page):
        return None
    return (0.0, mid + GUTTER_SLACK / 2) if x1 <= mid + GUTTER_SLACK else (mid - GUTTER_SLACK / 2, page.rect.width)


def within_column(page: pymupdf.Page, area: tuple, caption_bbox: tuple) -> tuple:
    """`area` cut to the caption's column where the page is set in two columns."""
    column = caption_column(page, caption_bbox)
    if column is None:
        return area
    x0, y0, x1, y1 = area
    cut = (max(x0, column[0]), y0, min(x1, column[1]), y1)
    return cut if cut[2] - cut[0] > 20 else area


def with_row_labels(page: pymupdf.Page, area: tuple, caption_bbox: tuple) -> tuple:
    """`area` widened left over the row labels an extractor left out: words set left of it, in the
    caption's column, on the lines of most of its rows of values (a grid found from the numbers of a
    table without vertical rules starts at its first value column)."""
    x0, y0, x1, y1 = area
    left_bound = (caption_column(page, caption_bbox) or (0.0, page.rect.width))[0]
    words = page.get_text("words", clip=pymupdf.Rect(left_bound, y0, x1, y1))
    inside: dict[int, int] = {}
    for w in words:
        if w[0] >= x0 and _is_number(w[4]):
            key = round((w[1] + w[3]) / 4)  # rows of values, 2-point bands
            inside[key] = inside.get(key, 0) + 1
    rows = [k for k, n in inside.items() if n >= 2]
    left = [w for w in words if w[2] <= x0 + 1 and w[0] >= left_bound - 1]
    labelled = [k for k in rows if any(abs(round((w[1] + w[3]) / 4) - k) <= 1 for w in left)]
    if not rows or len(labelled) < 0.6 * len(rows):
        return area
    return (min(w[0] for w in left) - 2, y0, x1, y1)


def _is_number(text: str) -> bool:
    return bool(re.fullmatch(r"[-−–+]?[$€£]?\d[\d,.]*%?|—|–|-", text.strip()))
