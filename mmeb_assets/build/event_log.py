"""The Dagster instance's SQLite files written without an fsync per event.

Dagster's SQLite storage opens a fresh engine for every event it stores (NullPool), commits, and
closes it; with SQLite's default `synchronous=FULL` each commit fsyncs the write-ahead log and each
close checkpoints it (more fsyncs). A 30-project build stores several thousand events: py-spy on its
QA-only rebuild found 59 of 121 "Dagster" CPU seconds in `store_event`, mostly SQLAlchemy's commit and
close, and a bare loop of Dagster's pattern here takes 21 ms per event against 0.7 ms with
`synchronous=OFF` (`synchronous=NORMAL` still checkpoints with an fsync on close: 18 ms).

So a build's processes set `synchronous=OFF` on connections to files under `$DAGSTER_HOME`, and only
there (the embedding and hits caches keep SQLite's default). A killed build loses nothing by it: the
writes are in the kernel's page cache when the process dies, so resume works as before; only a crash
of the machine itself could lose the newest events, as it could lose the data home's own files,
which are renamed into place without an fsync either. `MMEB_DAGSTER_SYNC=FULL` (or NORMAL) keeps
SQLite's durability for runs on a machine that may lose power.
"""
from __future__ import annotations

import os
from pathlib import Path

_INSTALLED: dict[str, str] = {}


def relax_event_log_sync(dagster_home: str | None = None) -> str:
    """Install (once per process) the connection hook for files under `dagster_home` (default:
    $DAGSTER_HOME); returns the synchronous mode applied, '' when there is no home or it is FULL."""
    home = dagster_home or os.environ.get("DAGSTER_HOME") or ""
    mode = (os.environ.get("MMEB_DAGSTER_SYNC") or "OFF").upper()
    if not home or mode not in ("OFF", "NORMAL"):
        return ""
    root = str(Path(home).resolve())
    if root in _INSTALLED:
        return _INSTALLED[root]
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    def on_connect(dbapi_connection, _record) -> None:
        if type(dbapi_connection).__module__ != "sqlite3":
            return
        rows = dbapi_connection.execute("PRAGMA database_list").fetchall()
        if any(row[2] and (row[2] == root or row[2].startswith(root + os.sep)) for row in rows):
            dbapi_connection.execute(f"PRAGMA synchronous={mode}")

    event.listen(Engine, "connect", on_connect)
    _INSTALLED[root] = mode
    return mode
