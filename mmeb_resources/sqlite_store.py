"""The SQLite files the build's caches keep (embeddings, ranked lists, reader answers): opened the
same way by every process that shares them, and read by key in chunks SQLite accepts.

Why one place: concurrent runs share each file, so each connection waits for a writer instead of
failing (timeout) and uses WAL so readers never block the writer; and a query for thousands of
keys must be cut below SQLite's bound on parameters.
"""
from __future__ import annotations

import contextlib
import sqlite3
import time
from pathlib import Path
from typing import Iterator, Sequence

CHUNK = 500  # keys per query, well under SQLite's limit on bound parameters


TIMEOUT_S = 60


def connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=TIMEOUT_S)
    use_wal(conn)
    return conn


def use_wal(conn: sqlite3.Connection) -> None:
    """Switch a new file to WAL (kept in the file: later connections find it set and skip this).

    The switch takes an exclusive lock and SQLite answers a second process switching at the same
    moment 'database is locked' at once, without waiting on the busy timeout (two lance_index steps
    starting together on a fresh cache failed so), so the switch is retried here."""
    deadline = time.monotonic() + TIMEOUT_S
    delay = 0.01
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.5)


def create_table(path: Path, schema: str) -> Path:
    """The cache file at `path` (its folder made) with the table `schema` creates; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with transaction(path) as conn:
        conn.execute(schema)
    return path


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
