"""Token and cost ledger per stage and model (SQLite in the data home).

Every call is one row: stage, backend, model, whether it was served from the cache, tokens, cost,
retries, and whether it failed for good (so requests + retries is what the server received).
`totals()` sums them for asset metadata; `Usage` is the in-memory tally of one session
(one resource instance), so an asset can report what *its* run cost.
"""
from __future__ import annotations

import threading
from dataclasses import asdict, dataclass
from pathlib import Path

from mmeb_resources.llm_cache import open_db


@dataclass
class Usage:
    requests: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    retries: int = 0
    failures: int = 0

    def add(self, other: "Usage") -> None:
        for name, value in asdict(other).items():
            setattr(self, name, getattr(self, name) + value)

    def as_metadata(self) -> dict:
        data = asdict(self)
        data["cost_usd"] = round(self.cost_usd, 6)
        return data


def call_cost(prompt_tokens: int, completion_tokens: int, price_in: float, price_out: float) -> float:
    """Prices are USD per million tokens."""
    return (prompt_tokens * price_in + completion_tokens * price_out) / 1_000_000


class UsageLedger:
    """Rows are buffered and written in one transaction per `flush()` (each batch, or every 256
    rows); `path=None` keeps only the in-memory tallies."""

    SCHEMA = ("CREATE TABLE IF NOT EXISTS calls (stage TEXT, backend TEXT, model TEXT, cached INTEGER, "
              "prompt_tokens INTEGER, completion_tokens INTEGER, cost_usd REAL, retries INTEGER, "
              "failed INTEGER DEFAULT 0)")
    COLUMNS = "stage, backend, model, cached, prompt_tokens, completion_tokens, cost_usd, retries, failed"
    FLUSH_EVERY = 256

    def __init__(self, path: Path | None):
        self.path = Path(path) if path else None
        self._lock = threading.Lock()
        self._conn = open_db(self.path, self.SCHEMA) if self.path else None
        if self._conn is not None:
            names = {row[1] for row in self._conn.execute("PRAGMA table_info(calls)")}
            if "failed" not in names:  # a ledger written before failures were counted
                self._conn.execute("ALTER TABLE calls ADD COLUMN failed INTEGER DEFAULT 0")
        self._pending: list[tuple] = []
        self.session: dict[tuple[str, str], Usage] = {}

    def record(self, *, stage: str, backend: str, model: str, cached: bool, prompt_tokens: int,
               completion_tokens: int, cost_usd: float, retries: int = 0, failed: bool = False) -> None:
        usage = Usage(requests=0 if cached else 1, cache_hits=1 if cached else 0,
                      prompt_tokens=0 if cached else prompt_tokens,
                      completion_tokens=0 if cached else completion_tokens,
                      cost_usd=0.0 if cached else cost_usd, retries=retries, failures=int(failed))
        with self._lock:
            self.session.setdefault((stage, model), Usage()).add(usage)
            self._pending.append((stage, backend, model, int(cached), usage.prompt_tokens,
                                  usage.completion_tokens, usage.cost_usd, retries, int(failed)))
            full = len(self._pending) >= self.FLUSH_EVERY
        if full:
            self.flush()

    def flush(self) -> None:
        with self._lock:
            rows, self._pending = self._pending, []
            if self._conn is None or not rows:
                return
            self._conn.execute("BEGIN")
            self._conn.executemany(f"INSERT INTO calls ({self.COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            self._conn.execute("COMMIT")

    def session_usage(self, stage: str | None = None, model: str | None = None) -> Usage:
        total = Usage()
        with self._lock:
            for (row_stage, row_model), usage in self.session.items():
                if (stage is None or row_stage == stage) and (model is None or row_model == model):
                    total.add(usage)
        return total

    def totals(self, stage: str | None = None, model: str | None = None) -> Usage:
        """All-time totals from the ledger file (session tallies when there is no file)."""
        if self._conn is None:
            return self.session_usage(stage, model)
        self.flush()
        query = ("SELECT COALESCE(SUM(1-cached),0), COALESCE(SUM(cached),0), COALESCE(SUM(prompt_tokens),0), "
                 "COALESCE(SUM(completion_tokens),0), COALESCE(SUM(cost_usd),0), COALESCE(SUM(retries),0), "
                 "COALESCE(SUM(failed),0) FROM calls WHERE (? IS NULL OR stage=?) AND (? IS NULL OR model=?)")
        with self._lock:
            row = self._conn.execute(query, (stage, stage, model, model)).fetchone()
        return Usage(int(row[0]), int(row[1]), int(row[2]), int(row[3]), float(row[4]), int(row[5]), int(row[6]))

    def by_stage_and_model(self) -> list[dict]:
        if self._conn is None:
            return [{"stage": s, "model": m, **u.as_metadata()} for (s, m), u in sorted(self.session.items())]
        self.flush()
        with self._lock:
            rows = self._conn.execute(
                "SELECT stage, model, SUM(1-cached), SUM(cached), SUM(prompt_tokens), SUM(completion_tokens), "
                "SUM(cost_usd), SUM(retries), SUM(failed) FROM calls GROUP BY stage, model ORDER BY stage, model").fetchall()
        keys = ("stage", "model", "requests", "cache_hits", "prompt_tokens", "completion_tokens", "cost_usd", "retries", "failures")
        return [dict(zip(keys, row)) for row in rows]
