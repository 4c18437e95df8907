"""Persistent response cache for every LLM call (SQLite in the data home).

The key is a hash of the backend, model, messages and generation parameters, so re-materializing
an asset with unchanged inputs makes no request. Safe across threads and processes (WAL, one short
connection per operation).
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator


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


class ResponseCache:
    """`get(key)` / `put(key, reply)`; `path=None` keeps nothing (a disabled cache)."""

    def __init__(self, path: Path | None):
        self.path = Path(path) if path else None
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        if self.path:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as conn:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute(
                    "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, model TEXT, text TEXT, "
                    "prompt_tokens INTEGER, completion_tokens INTEGER)"
                )

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        conn = sqlite3.connect(str(self.path), timeout=30)
        try:
            with conn:
                yield conn
        finally:
            conn.close()

    def get(self, key: str) -> CachedReply | None:
        if not self.path:
            return None
        with self._lock, self._connect() as conn:
            row = conn.execute("SELECT text, prompt_tokens, completion_tokens FROM responses WHERE key=?",
                               (key,)).fetchone()
        if row is None:
            self.misses += 1
            return None
        self.hits += 1
        return CachedReply(text=row[0], prompt_tokens=int(row[1]), completion_tokens=int(row[2]))

    def put(self, key: str, model: str, reply: CachedReply) -> None:
        if not self.path:
            return
        with self._lock, self._connect() as conn:
            conn.execute("INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?)",
                         (key, model, reply.text, reply.prompt_tokens, reply.completion_tokens))

    def __len__(self) -> int:
        if not self.path:
            return 0
        with self._lock, self._connect() as conn:
            return int(conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0])
