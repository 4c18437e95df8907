"""The LanceDB workspace index: one row per record (vector + metadata + stored text).

A table per retriever (`records_<retriever>`), shared by all projects. `replace_project` swaps one
project's rows in a single merge-insert commit (update matched ids, insert new ones, delete that
project's rows that are gone), so other projects' rows are never rewritten. A native full-text
index (BM25, with positions for phrase queries) on `text` is rebuilt after every replacement.
"""
from __future__ import annotations

import contextlib
import fcntl
import random
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pyarrow as pa

from mmeb_assets.schema.records import Record
from mmeb_resources.embedder import EmbedderResource, EmbedInput
from mmeb_resources.faults import crash_point
from mmeb_resources.lancedb import table_names

FTS_COLUMN = "text"
FTS_SETTINGS = "fts:text:with_position=True"  # part of the hits cache's key (hits_cache.py): change both together
METADATA_COLUMNS = ("id", "project", "source", "modality", "timestamp", "author", "version", "image_path",
                    "title", "filename", "page", "doc_id", "content_hash")


def image_file(record: Record, projects_root: Path) -> str | None:
    """Absolute path of a visual record's image (`image_path` is relative to projects/<seed>/)."""
    if not record.image_path:
        return None
    path = Path(record.image_path)
    return str(path if path.is_absolute() else projects_root / record.project / path)


def embed_inputs(records: Sequence[Record], projects_root: Path, embedder: EmbedderResource) -> list[EmbedInput]:
    """Stored text for every record; the image too for visual records when the model sees images."""
    inputs = []
    for record in records:
        image = image_file(record, projects_root) if embedder.uses_images() and record.modality == "visual" else None
        if image and not Path(image).exists():
            raise FileNotFoundError(f"record {record.id}: image_path {record.image_path!r} not found at {image}")
        inputs.append(EmbedInput(text=record.text, image_path=image))
    return inputs


def record_table(records: Sequence[Record], vectors: np.ndarray, hashes: Sequence[str]) -> pa.Table:
    """Arrow rows of the index: metadata, text and a fixed-size float32 vector column."""
    dim = max(1, int(vectors.shape[1])) if len(records) else 1  # an empty project still needs a valid type
    columns: dict[str, Any] = {
        "id": [r.id for r in records],
        "project": [r.project for r in records],
        "source": [r.source for r in records],
        "modality": [r.modality for r in records],
        "timestamp": [r.timestamp.isoformat() for r in records],
        "author": [r.author for r in records],
        "version": pa.array([r.version for r in records], type=pa.int32()),
        "image_path": pa.array([r.image_path for r in records], type=pa.string()),
        "title": [r.title for r in records],
        "filename": [r.filename for r in records],
        "page": pa.array([r.page for r in records], type=pa.int32()),
        "doc_id": [r.doc_id for r in records],
        "content_hash": list(hashes),
        "text": [r.text for r in records],
    }
    flat = pa.array(np.asarray(vectors, dtype=np.float32).reshape(-1), type=pa.float32())
    columns["vector"] = pa.FixedSizeListArray.from_arrays(flat, dim)
    return pa.table(columns)


def _sql_quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _retry(action, tries: int = 8):
    """Concurrent partitions commit to the same table; retry a conflicting commit with jittered backoff."""
    for attempt in range(tries):
        try:
            return action()
        except Exception as exc:  # noqa: BLE001 - lance raises generic errors on commit conflicts
            conflict = "onflict" in str(exc) or "retry" in str(exc).lower()
            if attempt == tries - 1 or not conflict:
                raise
            time.sleep(0.1 * 2 ** attempt * (1 + random.random()))


def replace_project(db: Any, table_name: str, project: str, rows: pa.Table) -> dict:
    """Make `project`'s rows equal `rows`, touching no other project; returns counts."""
    if any(p != project for p in rows.column("project").to_pylist()):
        raise ValueError(f"replace_project({project!r}): rows of other projects were passed")
    table = _open_if_present(db, table_name)
    if table is None:
        if rows.num_rows == 0:
            return {"inserted": 0, "updated": 0, "deleted": 0, "rows": 0}
        table, created = _create_or_open(db, table_name, rows)
        if created:
            crash_point("lance")
            _index_text(db, table_name, table)
            return {"inserted": rows.num_rows, "updated": 0, "deleted": 0, "rows": table.count_rows()}
    where = f"project = {_sql_quote(project)}"
    if rows.num_rows == 0:
        before = table.count_rows(where)
        _retry(lambda: table.delete(where))
        result = {"inserted": 0, "updated": 0, "deleted": before}
    else:
        _check_dimension(table, rows, table_name)
        merged = _retry(lambda: table.merge_insert("id").when_matched_update_all().when_not_matched_insert_all()
                        .when_not_matched_by_source_delete(where).execute(rows))
        result = {"inserted": merged.num_inserted_rows, "updated": merged.num_updated_rows,
                  "deleted": merged.num_deleted_rows}
    crash_point("lance")  # tests: killed after the rows were committed, before the text index and the asset
    _index_text(db, table_name, table)
    return {**result, "rows": table.count_rows()}


def _open_if_present(db: Any, table_name: str) -> Any | None:
    """The table, or None when it is missing or only a folder without a committed version."""
    if table_name not in table_names(db):
        return None
    try:
        return db.open_table(table_name)
    except Exception as exc:  # noqa: BLE001 - lance names the state only in the message
        if "not found" not in str(exc).lower():
            raise
        return None


def _create_or_open(db: Any, table_name: str, rows: pa.Table) -> tuple[Any, bool]:
    """(the table, whether `rows` created it). Partitions running at once may all find it missing;
    an exclusive lock beside the table lets one create it while the others wait, then open it. A
    folder left by a creation killed before its first commit is overwritten (under the lock, where
    no other writer can be creating it)."""
    with _table_lock(db, table_name, "create"):
        table = _open_if_present(db, table_name)
        if table is not None:
            return table, False
        try:
            return db.create_table(table_name, data=rows), True
        except Exception as exc:  # noqa: BLE001
            if "exist" not in str(exc).lower():
                raise
        return db.create_table(table_name, data=rows, mode="overwrite"), True


def _index_text(db: Any, table_name: str, table: Any) -> None:
    """Rebuild the full-text index, one writer at a time: concurrent index builds preempt each
    other's commits, and each is a whole-table pass, so waiting costs less than retrying."""
    with _table_lock(db, table_name, "index"):
        table.checkout_latest()  # the index another writer just built, not this handle's old version
        ensure_fts_index(table)


@contextlib.contextmanager
def _table_lock(db: Any, table_name: str, purpose: str):
    uri = str(getattr(db, "uri", "") or "")
    if "://" in uri and not uri.startswith("file://"):
        yield  # object storage: no local file to lock; creation conflicts surface as errors
        return
    folder = Path(uri.removeprefix("file://"))
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f".{table_name}.{purpose}.lock", "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _check_dimension(table: Any, rows: pa.Table, table_name: str) -> None:
    have = table.schema.field("vector").type.list_size
    new = rows.schema.field("vector").type.list_size
    if have != new:
        raise ValueError(f"LanceDB table {table_name}: vectors have {have} dims, new rows {new} "
                         "(a different embedder was configured for this retriever; drop the table to rebuild)")


def has_fts_index(table: Any) -> bool:
    return any(getattr(ix, "index_type", "") == "FTS" and FTS_COLUMN in getattr(ix, "columns", [])
               for ix in table.list_indices())


def fts_index_current(table: Any) -> bool:
    """Whether the full-text index covers exactly the table's rows: none written after it (unindexed)
    and none deleted since (still counted in its BM25 statistics). Only then are BM25 scores the same
    whenever the table is searched."""
    for index in table.list_indices():
        if getattr(index, "index_type", "") == "FTS" and FTS_COLUMN in getattr(index, "columns", []):
            stats = table.index_stats(index.name)
            return stats is not None and stats.num_unindexed_rows == 0 and \
                stats.num_indexed_rows == table.count_rows()
    return False


def refresh_fts_index(table: Any) -> None:
    """Rebuild the full-text index unless it is current, one writer at a time: retriever partitions
    that run at once (bm25, hybrid, the dense one) would otherwise preempt each other's CreateIndex
    commits. Under the lock the latest version is checked again, so the second writer finds the first
    writer's index current and leaves it."""
    if fts_index_current(table):
        return
    with _fts_lock(table):
        table.checkout_latest()
        if not fts_index_current(table):
            ensure_fts_index(table, rebuild=True)


@contextlib.contextmanager
def _fts_lock(table: Any):
    """An flock beside a local table's folder (object storage: none; conflicts are retried)."""
    uri = str(getattr(table, "uri", "") or "")
    if not uri or ("://" in uri and not uri.startswith("file://")):
        yield
        return
    folder = Path(uri.removeprefix("file://"))
    with open(folder.parent / f".{folder.name}.fts.lock", "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def ensure_fts_index(table: Any, rebuild: bool = False) -> None:
    """The native BM25 index on `text`, with token positions so phrase queries work.

    Created once; rows written after it are still searched (Lance scans unindexed fragments and
    honours deletions), so per-project updates leave it alone and concurrent partitions do not
    fight over it. `rebuild=True` (done by `retrievals`, a single writer) folds new rows in."""
    from lancedb.index import FTS

    if rebuild or not has_fts_index(table):
        _retry(lambda: table.create_index(FTS_COLUMN, config=FTS(with_position=True), replace=True))


def project_hashes(table: Any | None, project: str) -> dict[str, str]:
    """id -> content hash of one project's rows (empty when the table or project is absent)."""
    if table is None:
        return {}
    rows = table.search().where(f"project = {_sql_quote(project)}").select(["id", "content_hash"]) \
        .limit(None).to_arrow()
    return dict(zip(rows.column("id").to_pylist(), rows.column("content_hash").to_pylist()))


def index_records(db: Any, table_name: str, project: str, records: Sequence[Record], projects_root: Path,
                  embedder: EmbedderResource) -> dict:
    """Embed one project's records (cache first) and replace that project's rows in the table."""
    inputs = embed_inputs(records, projects_root, embedder)
    hashes = [embedder.content_hash(item, "document") for item in inputs]
    before = dict(embedder.stats)
    vectors = embedder.embed_documents(inputs) if records else np.zeros((0, 1), dtype=np.float32)
    counts = replace_project(db, table_name, project, record_table(records, vectors, hashes))
    counts["embedded"] = embedder.stats["misses"] - before["misses"]
    counts["cached"] = embedder.stats["hits"] - before["hits"]
    return counts
