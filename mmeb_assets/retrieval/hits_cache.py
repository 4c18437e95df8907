"""Ranked lists kept on disk per (ranker, index version, query text), so a rebuild whose questions did
not change (or changed only in part) searches only the queries it has not seen against this index.

A QA-only rebuild re-ran every retriever over every question although neither the index nor most query
texts had changed: about 1,800 full-text searches each for `bm25` and again for `hybrid` (whose sparse
half is the same BM25 top-100), most of the `retrievals` step. A hit list is a pure function of

- the ranker and its settings (`bm25` with k and the project filter, or the dense model key), and
- the rows it searches (`index_version`: every row's id, project and stored text, and for a dense
  ranker its content hash, which names the vector's model input), and
- the query text,

so those three are the key, and any change to one of them misses. Rows live in one SQLite file
(`<home>/cache/retrievals.sqlite`, WAL, one transaction per batch: a reader never sees half a write,
and the `bm25` and `hybrid` partitions may fill it at once).
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from mmeb_resources.sqlite_store import create_table, rows_for_keys, transaction

Hits = list[tuple[str, float]]
SCHEMA = 1  # bump when the stored form of a hit list changes


def index_version(table: Any, *parts: str) -> str:
    """A digest of every row the ranker can see (id, project, text, content hash), sorted by id, and of
    `parts` (the ranker's settings: library version, index config, filter, k). Two tables with the
    same rows give the same version whatever their commit history; one changed text changes it."""
    import pyarrow.compute as pc

    columns = ["id", "project", "text", "content_hash"]
    rows = table.search().select(columns).limit(None).to_arrow()
    rows = rows.take(pc.sort_indices(rows, sort_keys=[("id", "ascending")]))
    digest = hashlib.sha256(json.dumps([SCHEMA, *parts]).encode("utf-8"))
    for name in columns:
        digest.update(b"\x00" + name.encode())
        for value in rows.column(name).to_pylist():
            digest.update(b"\x1f" + (value or "").encode("utf-8"))
    return digest.hexdigest()


class HitsCache:
    """(ranker key, index version, query text) -> hit list, in one SQLite file."""

    def __init__(self, path: Path):
        self.path = create_table(path, "CREATE TABLE IF NOT EXISTS hits (ranker TEXT NOT NULL, version TEXT NOT NULL, "
                                       "query TEXT NOT NULL, hits TEXT NOT NULL, PRIMARY KEY (ranker, version, query))")

    def get_many(self, ranker: str, version: str, queries: Sequence[str]) -> dict[str, Hits]:
        rows = rows_for_keys(self.path, "SELECT query, hits FROM hits WHERE ranker = ? AND version = ? AND query IN ({marks})",
                             [ranker, version], queries)
        return {q: [(rid, score) for rid, score in json.loads(blob)] for q, blob in rows}

    def put_many(self, ranker: str, version: str, hits: dict[str, Hits]) -> None:
        rows = [(ranker, version, q, json.dumps(h)) for q, h in hits.items()]
        with transaction(self.path) as conn:  # one transaction: all rows or none
            conn.executemany("INSERT OR REPLACE INTO hits VALUES (?, ?, ?, ?)", rows)

    @contextlib.contextmanager
    def filling(self, ranker: str, version: str) -> Iterator[None]:
        """An exclusive flock per (ranker, version) beside the cache file, held while its lists are
        read, searched and stored."""
        name = hashlib.sha256(f"{ranker}\x00{version}".encode("utf-8")).hexdigest()[:24]
        folder = self.path.parent / ".retrievals-locks"
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / name, "a+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def count(self) -> int:
        with transaction(self.path) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM hits").fetchone()[0])


def cached_hits(cache: HitsCache | None, ranker: str, version: Callable[[], str], queries: Sequence[str],
                search: Callable[[list[str]], list[Hits]], exclusive: bool = True) -> tuple[list[Hits], int]:
    """Hit lists of `queries` in order: cached ones read, the rest searched (`search` takes the
    distinct unseen texts, in first-appearance order) and stored; returns (hits, queries searched).
    `version` is called only with a cache (reading the rows costs a table scan).

    One process at a time fills a (ranker, version): `hybrid` asks for the dense top-100 while the
    dense retriever's partition is computing the same lists, and without the lock both embedded and
    searched all 1,798 questions at once on the same two cores (the 30-project build: hybrid 34.5 s,
    minilm 40.1 s, against 17 and 28 s before hybrid could find BM25 lists cached and start early).
    The second waits, then reads what the first stored. Dense lists are filled with `exclusive`
    off: their cost, the question vectors, is shared through the embedding cache (the two runs
    embed about half each, `mmeb_resources/embed_shared.py`), and their searches are cheap, so the
    second run helps instead of waiting (the phase took 22 s, hybrid waiting on minilm's vectors)."""
    if cache is None:
        return search(list(queries)), len(queries)
    key = version()
    with cache.filling(ranker, key) if exclusive else contextlib.nullcontext():
        known = cache.get_many(ranker, key, queries)
        todo = [q for q in dict.fromkeys(queries) if q not in known]
        if todo:
            fresh = dict(zip(todo, search(todo)))
            cache.put_many(ranker, key, fresh)
            known.update(fresh)
    return [list(known[q]) for q in queries], len(todo)
