"""Diagnostic readers' answers kept per (reader code, policy, question text, context records), so a
rebuild answers again only the questions whose text or top-k changed.

A QA-only rebuild re-read every question at every k for both readers (9 cells of 1,798 questions)
although most questions and rankings were the same as before. A reader's answer is a pure function
of the question text, the records it is given (in that order, every field: `read_answer` orders them
by time and reads their text) and the reader's code, so those are the key: a record's digest is
the sha256 of its full JSON, the code is `code_version` of the reader and the answering module.
Rows live in one SQLite file (`<home>/cache/reader_answers.sqlite`, WAL, one transaction per cell).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Callable, Sequence

from mmeb_assets.provenance import code_version
from mmeb_assets.schema.qa import QAItem
from mmeb_assets.schema.records import Record
from mmeb_resources.sqlite_store import create_table, rows_for_keys, transaction

READER_CODE = ("judge/readers", "evaluation/answering", "evaluation/reader_cache")


class ReaderAnswerCache:
    """key -> answer text, in one SQLite file safe for concurrent cells."""

    def __init__(self, path: Path):
        self.path = create_table(path, "CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, answer TEXT NOT NULL)")
        self.code = code_version(*READER_CODE)

    def get_many(self, keys: Sequence[str]) -> dict[str, str]:
        return dict(rows_for_keys(self.path, "SELECT key, answer FROM answers WHERE key IN ({marks})", [], keys))

    def put_many(self, rows: dict[str, str]) -> None:
        with transaction(self.path) as conn:
            conn.executemany("INSERT OR REPLACE INTO answers VALUES (?, ?)", list(rows.items()))


def reader_texts(policy: str, items: Sequence[QAItem], contexts: Sequence[list[Record]],
                 read: Callable[[QAItem, list[Record]], str], cache: ReaderAnswerCache | None) -> tuple[list[str], int]:
    """Every item's answer text (`read(item, context)` for those not in `cache`) and how many were read."""
    if cache is None:
        return [read(item, ctx) for item, ctx in zip(items, contexts)], len(items)
    digests: dict[int, str] = {}

    def digest(record: Record) -> str:
        if id(record) not in digests:
            digests[id(record)] = hashlib.sha256(record.model_dump_json().encode("utf-8")).hexdigest()
        return digests[id(record)]

    keys = [hashlib.sha256(json.dumps([cache.code, policy, item.q, [digest(r) for r in ctx]]).encode("utf-8")).hexdigest()
            for item, ctx in zip(items, contexts)]
    known = cache.get_many(keys)
    fresh = {}
    for key, item, ctx in zip(keys, items, contexts):
        if key not in known and key not in fresh:
            fresh[key] = read(item, ctx)
    if fresh:
        cache.put_many(fresh)
    known.update(fresh)
    return [known[key] for key in keys], len(fresh)
