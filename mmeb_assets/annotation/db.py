"""The annotation database: one SQLite file in the data home, versioned by ordered migrations.

`<home>/annotation/annotations.sqlite` holds the annotators, the sampled items (with the automatic
validation's decision, which the web app never renders) and one judgment per annotator and item.

Judgments carry a `revision` that counts saves. A form is rendered with the revision it saw
(`base_revision`); saving succeeds only when the stored revision still equals it (compare and set).
A repeated submit of the same form with the same content is idempotent (nothing changes); a stale
form with different content is a conflict (HTTP 409) that keeps the stored judgment.
"""
from __future__ import annotations

import fcntl
import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable

from mmeb_resources.faults import crash_point
from mmeb_resources.storage import default_home

DB_RELATIVE = Path("annotation") / "annotations.sqlite"

C1_VALUES = ("yes", "no", "cannot_judge")
C2_VALUES = ("yes", "no", "cannot_judge")
C3_VALUES = ("absent", "present")


def db_path(home: Path | str | None = None) -> Path:
    return (Path(home) if home else default_home()) / DB_RELATIVE


# --- migrations -------------------------------------------------------------------------------
# Ordered steps; each runs in one transaction with its schema_version row. Never edit a released
# step: add a new one.

MIGRATIONS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (1, "annotators, sample items, judgments", (
        "CREATE TABLE annotators (name TEXT PRIMARY KEY, created_at TEXT NOT NULL)",
        "CREATE TABLE sample_items (position INTEGER NOT NULL UNIQUE, item_id TEXT PRIMARY KEY, "
        "project TEXT NOT NULL, llm_decision TEXT NOT NULL CHECK (llm_decision IN ('accepted', 'rejected')), "
        "item_json TEXT NOT NULL)",
        "CREATE TABLE judgments (annotator TEXT NOT NULL REFERENCES annotators(name), "
        "item_id TEXT NOT NULL REFERENCES sample_items(item_id), c1 TEXT NOT NULL, c2 TEXT NOT NULL, "
        "c3 TEXT NOT NULL, comment TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL, "
        "PRIMARY KEY (annotator, item_id))",
    )),
    (2, "judgment revisions and sample metadata", (
        "ALTER TABLE judgments ADD COLUMN revision INTEGER NOT NULL DEFAULT 1",
        "ALTER TABLE judgments ADD COLUMN updated_at TEXT",
        "UPDATE judgments SET updated_at = created_at WHERE updated_at IS NULL",
        "CREATE TABLE sample_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    )),
    (3, "indexes", (
        "CREATE INDEX judgments_by_item ON judgments(item_id)",
        "CREATE INDEX sample_by_project ON sample_items(project)",
    )),
    (4, "revision history", (
        "CREATE TABLE judgment_history (annotator TEXT NOT NULL, item_id TEXT NOT NULL, revision INTEGER NOT NULL, "
        "c1 TEXT NOT NULL, c2 TEXT NOT NULL, c3 TEXT NOT NULL, comment TEXT NOT NULL, saved_at TEXT NOT NULL, "
        "PRIMARY KEY (annotator, item_id, revision))",
        "INSERT INTO judgment_history SELECT annotator, item_id, revision, c1, c2, c3, comment, updated_at "
        "FROM judgments",
    )),
)
LATEST_VERSION = MIGRATIONS[-1][0]


def schema_version(conn: sqlite3.Connection) -> int:
    exists = conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_version'").fetchone()
    if not exists:
        return 0
    row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0] or 0)


def migrate(conn: sqlite3.Connection, target: int = LATEST_VERSION) -> list[int]:
    """Apply the missing steps up to `target` in order; returns the versions applied."""
    conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                 "description TEXT NOT NULL, applied_at TEXT NOT NULL)")
    current = schema_version(conn)
    if current > LATEST_VERSION:
        raise RuntimeError(f"annotation database is at schema version {current}, newer than this code "
                           f"({LATEST_VERSION}); upgrade mmeb")
    applied = []
    for version, description, statements in MIGRATIONS:
        if version <= current or version > target:
            continue
        conn.execute("BEGIN IMMEDIATE")
        # Another process or thread may have applied it since we looked: decide under the write lock.
        if schema_version(conn) >= version:
            conn.execute("ROLLBACK")
            continue
        try:
            for statement in statements:
                conn.execute(statement)
            conn.execute("INSERT INTO schema_version VALUES (?, ?, ?)", (version, description, _now()))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        applied.append(version)
    return applied


def connect(path: Path | str | None = None, *, create: bool = True) -> sqlite3.Connection:
    """Open (and migrate) the database. `create=False` raises FileNotFoundError when it is absent."""
    path = Path(path) if path else db_path()
    if not create and not path.exists():
        raise FileNotFoundError(f"annotation database not found: {path} (run `mmeb annotate` first)")
    path.parent.mkdir(parents=True, exist_ok=True)
    # Switching a new file to WAL and migrating it can answer "database is locked" at once, without
    # waiting on the busy timeout, when several processes or threads open it together: set-up is
    # serialized by an advisory lock on a sibling file (flock holds across threads and processes).
    with open(path.with_name(path.name + ".setup-lock"), "a+b") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        try:
            conn = sqlite3.connect(path, timeout=15, isolation_level=None)
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA journal_mode = WAL")
            migrate(conn)
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)
    return conn


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# --- annotators and sample --------------------------------------------------------------------

def add_annotators(conn: sqlite3.Connection, names: Iterable[str]) -> None:
    for name in names:
        conn.execute("INSERT OR IGNORE INTO annotators VALUES (?, ?)", (name, _now()))


def annotators(conn: sqlite3.Connection) -> list[str]:
    return [r["name"] for r in conn.execute("SELECT name FROM annotators ORDER BY name")]


@dataclass(frozen=True)
class SampleRow:
    position: int
    item_id: str
    project: str
    llm_decision: str
    item: dict


def sample_size(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT COUNT(*) FROM sample_items").fetchone()[0])


def write_sample(conn: sqlite3.Connection, rows: list[tuple[str, str, str, dict]], meta: dict[str, str]) -> None:
    """rows: (item_id, project, llm_decision, item_dict without validation) in display order."""
    if sample_size(conn):
        raise RuntimeError("the annotation sample already exists; it is kept so judgments stay valid")
    conn.execute("BEGIN IMMEDIATE")
    try:
        for position, (item_id, project, decision, item) in enumerate(rows, start=1):
            conn.execute("INSERT INTO sample_items VALUES (?, ?, ?, ?, ?)",
                         (position, item_id, project, decision, json.dumps(item, ensure_ascii=False)))
        for key, value in meta.items():
            conn.execute("INSERT OR REPLACE INTO sample_meta VALUES (?, ?)", (key, str(value)))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def sample_meta(conn: sqlite3.Connection) -> dict[str, str]:
    return {r["key"]: r["value"] for r in conn.execute("SELECT key, value FROM sample_meta")}


def _sample_row(r: sqlite3.Row) -> SampleRow:
    return SampleRow(r["position"], r["item_id"], r["project"], r["llm_decision"], json.loads(r["item_json"]))


def sample(conn: sqlite3.Connection) -> list[SampleRow]:
    return [_sample_row(r) for r in conn.execute("SELECT * FROM sample_items ORDER BY position")]


def sample_item(conn: sqlite3.Connection, item_id: str) -> SampleRow | None:
    row = conn.execute("SELECT * FROM sample_items WHERE item_id = ?", (item_id,)).fetchone()
    return _sample_row(row) if row else None


# --- judgments --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Judgment:
    annotator: str
    item_id: str
    c1: str
    c2: str
    c3: str
    comment: str = ""
    revision: int = 1

    def same_content(self, other: "Judgment") -> bool:
        return (self.c1, self.c2, self.c3, self.comment) == (other.c1, other.c2, other.c3, other.comment)


def get_judgment(conn: sqlite3.Connection, annotator: str, item_id: str) -> Judgment | None:
    r = conn.execute("SELECT * FROM judgments WHERE annotator = ? AND item_id = ?", (annotator, item_id)).fetchone()
    return _judgment(r) if r else None


def _judgment(r: sqlite3.Row) -> Judgment:
    return Judgment(r["annotator"], r["item_id"], r["c1"], r["c2"], r["c3"], r["comment"], r["revision"])


def all_judgments(conn: sqlite3.Connection) -> list[Judgment]:
    return [_judgment(r) for r in conn.execute("SELECT * FROM judgments ORDER BY item_id, annotator")]


def judged_item_ids(conn: sqlite3.Connection, annotator: str) -> set[str]:
    return {r[0] for r in conn.execute("SELECT item_id FROM judgments WHERE annotator = ?", (annotator,))}


class ConflictError(Exception):
    """A stale form would overwrite a different, already saved judgment."""

    def __init__(self, stored: Judgment):
        super().__init__(f"item {stored.item_id} already has a different saved judgment by {stored.annotator} "
                         f"(revision {stored.revision}); it was kept")
        self.stored = stored


def save_judgment(conn: sqlite3.Connection, new: Judgment, base_revision: int) -> tuple[Judgment, bool]:
    """Compare-and-set save. Returns (stored judgment, changed). Raises ConflictError on a stale form."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        stored = get_judgment(conn, new.annotator, new.item_id)
        current = stored.revision if stored else 0
        if stored is not None and current != base_revision:
            conn.execute("ROLLBACK")
            if stored.same_content(new):
                return stored, False
            raise ConflictError(stored)
        if stored is not None and stored.same_content(new):
            conn.execute("ROLLBACK")
            return stored, False
        now = _now()
        if stored is None:
            conn.execute("INSERT INTO judgments (annotator, item_id, c1, c2, c3, comment, created_at, revision, "
                         "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)",
                         (new.annotator, new.item_id, new.c1, new.c2, new.c3, new.comment, now, now))
        else:
            conn.execute("UPDATE judgments SET c1 = ?, c2 = ?, c3 = ?, comment = ?, revision = revision + 1, "
                         "updated_at = ? WHERE annotator = ? AND item_id = ?",
                         (new.c1, new.c2, new.c3, new.comment, now, new.annotator, new.item_id))
        conn.execute("INSERT INTO judgment_history SELECT annotator, item_id, revision, c1, c2, c3, comment, "
                     "updated_at FROM judgments WHERE annotator = ? AND item_id = ?", (new.annotator, new.item_id))
        crash_point("judgment-commit")  # tests: the server killed inside the transaction
        conn.execute("COMMIT")
    except ConflictError:
        raise
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    saved = get_judgment(conn, new.annotator, new.item_id)
    assert saved is not None
    return saved, True


def export_rows(conn: sqlite3.Connection) -> list[dict]:
    """Every judgment with its item's project, the automatic decision (for analysis, not for annotators)
    and its revision history (every saved revision, oldest first)."""
    query = ("SELECT j.*, s.project, s.llm_decision, s.position FROM judgments j "
             "JOIN sample_items s ON s.item_id = j.item_id ORDER BY s.position, j.annotator")
    history: dict[tuple[str, str], list[dict]] = {}
    for h in conn.execute("SELECT * FROM judgment_history ORDER BY annotator, item_id, revision"):
        history.setdefault((h["annotator"], h["item_id"]), []).append(
            {"revision": h["revision"], "c1_derivable": h["c1"], "c2_correct": h["c2"], "c3_leak": h["c3"],
             "comment": h["comment"], "saved_at": h["saved_at"]})
    rows = []
    for r in conn.execute(query):
        rows.append({
            "item_id": r["item_id"], "project": r["project"], "position": r["position"],
            "annotator": r["annotator"], "c1_derivable": r["c1"], "c2_correct": r["c2"], "c3_leak": r["c3"],
            "comment": r["comment"], "revision": r["revision"], "created_at": r["created_at"],
            "updated_at": r["updated_at"], "llm_decision": r["llm_decision"],
            "history": history.get((r["annotator"], r["item_id"]), []),
        })
    return rows


def export_jsonl(conn: sqlite3.Connection, path: Path) -> int:
    from mmeb_resources.storage import atomic_write_jsonl

    rows = export_rows(conn)
    atomic_write_jsonl(Path(path), rows)
    return len(rows)
