"""The build's Dagster SQLite files skip the fsync per event (build/event_log.py), and only they do."""
from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.pool import NullPool

from mmeb_assets.build.event_log import relax_event_log_sync


def _synchronous(path) -> int:
    engine = sa.create_engine(f"sqlite:///{path}", poolclass=NullPool)
    with engine.connect() as conn:
        value = conn.execute(sa.text("PRAGMA synchronous")).scalar()
    engine.dispose()
    return int(value)


def test_only_files_under_the_dagster_home_are_relaxed(tmp_path, monkeypatch):
    home = tmp_path / "dagster"
    (home / "storage").mkdir(parents=True)
    monkeypatch.delenv("MMEB_DAGSTER_SYNC", raising=False)
    assert _synchronous(home / "storage" / "run.db") == 2  # SQLite's default, FULL, before the hook
    assert relax_event_log_sync(str(home)) == "OFF"
    assert _synchronous(home / "storage" / "run.db") == 0
    assert _synchronous(tmp_path / "embeddings.sqlite") == 2  # a cache beside it keeps the default
    (tmp_path / "dagster-other").mkdir()  # a sibling whose name starts the same is not under the home
    assert _synchronous(tmp_path / "dagster-other" / "x.db") == 2


def test_full_keeps_sqlite_durability(tmp_path, monkeypatch):
    home = tmp_path / "dagster"
    home.mkdir()
    monkeypatch.setenv("MMEB_DAGSTER_SYNC", "FULL")
    assert relax_event_log_sync(str(home)) == ""
    assert _synchronous(home / "run.db") == 2
