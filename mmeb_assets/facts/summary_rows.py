"""Rows that sum up other rows of their own table: a category printed with its own values above the
rows nested under it ('detectable_format' over 'multiple_sections', 'number_bullets').

Why: such a row is an aggregate of its children. Ranked or subtracted beside a single child of another
category ('detectable_format:multiple_sections' against 'startend') it pairs two levels of the table,
which no reader would do. Its values stay facts of the document; the table later stages compare
leaves it out.
"""
from __future__ import annotations

from mmeb_assets.schema.source import Table


def parent_rows(table: Table) -> set[int]:
    """Rows whose path is the group of some longer row path of the same table."""
    paths = [tuple(p.strip() for p in path if p.strip()) for path in table.row_paths]
    return {r for r, path in enumerate(paths)
            if path and any(len(other) > len(path) and other[:len(path)] == path for other in paths)}
