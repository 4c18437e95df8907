"""The SQLite files the build's caches keep (embeddings, ranked lists, reader answers): opened the
same way by every process that shares them, and read by key in chunks SQLite accepts.

Why one place: concurrent runs share each file, so each connection waits for a writer instead of
failing (timeout) and uses WAL so readers never block the writer; and a query for thousands of
keys must be cut below SQLite's bound on parameters.
"""
from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Iterator, Sequence

CHUNK = 500  # keys per query, well under SQLite's limit on bound parameters


def connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=60)
    conn.execute("PRAGMA journal_mode=WAL")
    return conn


@contextlib.contextmanager
def transaction(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection that commits on success, rolls back on error, and is closed either way."""
    with contextlib.closing(connect(path)) as conn, conn:
        yield conn


def rows_for_keys(path: Path, query: str, fixed: Sequence, keys: Sequence[str]) -> list[tuple]:
    """Rows of `query` (its last condition `... IN ({marks})`) for the distinct `keys`, `fixed`
    parameters first."""
    unique = list(dict.fromkeys(keys))
    rows: list[tuple] = []
    with contextlib.closing(connect(path)) as conn:
        for start in range(0, len(unique), CHUNK):
            chunk = unique[start:start + CHUNK]
            rows.extend(conn.execute(query.format(marks=",".join("?" * len(chunk))), [*fixed, *chunk]).fetchall())
    return rows
