"""Persistent response cache for every LLM call (SQLite in the data home).

The key is a hash of the backend, model, messages and generation parameters, so re-materializing
an asset with unchanged inputs makes no request. One connection per cache object (WAL mode,
synchronous=NORMAL: no fsync per write), guarded by a lock; batches read and write in one statement
or transaction, so the cache costs microseconds per call, not a disk sync.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from mmeb_resources.sqlite_store import use_wal


@dataclass(frozen=True)
class CachedReply:
    text: str
    prompt_tokens: int
    completion_tokens: int


def cache_key(backend: str, model: str, messages: list[dict], params: dict) -> str:
    """Stable key: images are included through their content (data URLs or paths) as given."""
    payload = {"backend": backend, "model": model, "messages": messages,
               "params": {k: params[k] for k in sorted(params)}}
    data = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


def open_db(path: Path, schema: str) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), timeout=60, check_same_thread=False, isolation_level=None)
    use_wal(conn)
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute(schema)
    return conn


class ResponseCache:
    """`get` / `get_many` / `put` / `put_many`; `path=None` keeps nothing (a disabled cache)."""

    SCHEMA = ("CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, model TEXT, text TEXT, "
              "prompt_tokens INTEGER, completion_tokens INTEGER)")

    def __init__(self, path: Path | None):
        self.path = Path(path) if path else None
        self._lock = threading.Lock()
        self._conn = open_db(self.path, self.SCHEMA) if self.path else None
        self.hits = 0
        self.misses = 0

    def get_many(self, keys: list[str]) -> dict[str, CachedReply]:
        if self._conn is None or not keys:
            self.misses += len(keys)
            return {}
        found: dict[str, CachedReply] = {}
        unique = list(dict.fromkeys(keys))
        with self._lock:
            for start in range(0, len(unique), 500):
                chunk = unique[start:start + 500]
                rows = self._conn.execute(
                    f"SELECT key, text, prompt_tokens, completion_tokens FROM responses WHERE key IN "
                    f"({','.join('?' * len(chunk))})", chunk).fetchall()
                found.update({r[0]: CachedReply(r[1], int(r[2]), int(r[3])) for r in rows})
        self.hits += sum(1 for k in keys if k in found)
        self.misses += sum(1 for k in keys if k not in found)
        return found

    def get(self, key: str) -> CachedReply | None:
        return self.get_many([key]).get(key)

    def put_many(self, rows: list[tuple[str, str, CachedReply]]) -> None:
        """(key, model, reply) rows in one transaction."""
        if self._conn is None or not rows:
            return
        with self._lock:
            self._conn.execute("BEGIN")
            self._conn.executemany("INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?)",
                                   [(k, m, r.text, r.prompt_tokens, r.completion_tokens) for k, m, r in rows])
            self._conn.execute("COMMIT")

    def delete_many(self, keys: list[str]) -> None:
        if self._conn is None or not keys:
            return
        with self._lock:
            self._conn.executemany("DELETE FROM responses WHERE key = ?", [(k,) for k in keys])

    def put(self, key: str, model: str, reply: CachedReply) -> None:
        self.put_many([(key, model, reply)])

    def __len__(self) -> int:
        if self._conn is None:
            return 0
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
