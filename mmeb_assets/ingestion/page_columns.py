"""The text column a caption sits in, on pages set in two columns.

Why: in a two-column paper a table set in one column shares its lines' heights with the prose of the
other column. An extractor's box (or the band between two captions) spans the page, so that prose
was read as the table's row groups and its header lost: 'annotations still have lower variance
than COARSE' heading the rows of an annotator table. A table whose caption stays on one side of the
gutter is read within that column only; a caption that crosses the gutter (a full-width table) is
left as it is.
"""
from __future__ import annotations

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
