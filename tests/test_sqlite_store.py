"""The caches' SQLite files (mmeb_resources/sqlite_store.py) opened by many processes at once.

Two `lance_index` steps that start together on a fresh cache both switch the new file to WAL; SQLite
answers the second 'database is locked' at once instead of waiting on the busy timeout, and the demo
build's seed failed so. Here processes released together open one fresh file many times over."""
from __future__ import annotations

import multiprocessing as mp
import sqlite3

from mmeb_resources import sqlite_store

PROCESSES = 6
ROWS = 2000  # each writer holds its write transaction a while, as an embedding batch does


def _open_and_write(path: str, start, number: int, errors) -> None:
    start.wait()
    try:
        with sqlite_store.transaction(path) as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY, v BLOB)")
            conn.executemany("INSERT OR REPLACE INTO t VALUES (?, ?)",
                             [(f"{number}-{i}", b"x" * 1500) for i in range(ROWS)])
    except sqlite3.OperationalError as exc:
        errors.put(f"{number}: {exc}")


def test_processes_opening_a_fresh_file_together_all_write(tmp_path):
    ctx = mp.get_context("fork")
    for attempt in range(10):  # the old code failed about 1 in 15 opens, 12 of 180
        path = str(tmp_path / f"cache-{attempt}.sqlite")
        start, errors = ctx.Barrier(PROCESSES), ctx.Queue()
        procs = [ctx.Process(target=_open_and_write, args=(path, start, n, errors)) for n in range(PROCESSES)]
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join(60)
        failed = [errors.get() for _ in range(errors.qsize())] if not errors.empty() else []
        assert failed == [], failed
        with sqlite3.connect(path) as conn:
            assert conn.execute("SELECT COUNT(*) FROM t").fetchone()[0] == PROCESSES * ROWS
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
