"""The annotation database: migrations keep rows, sampling, resume order, export, compare-and-set saves."""
from __future__ import annotations

import json
import sqlite3

import pytest

from mmeb_assets.annotation import db
from mmeb_assets.annotation.cli import annotator_names, prepare
from mmeb_assets.annotation.sampling import (AnnotationInputError, SampleConfig, draw_from_home, draw_sample,
                                             validation_decisions)
from test_annotation_fixtures import HIDDEN_CATEGORY, HIDDEN_REASON, build_home, j


def test_migrations_applied_to_an_old_version_database_keep_rows(tmp_path):
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.row_factory = sqlite3.Row
    assert db.migrate(conn, target=1) == [1]
    conn.execute("INSERT INTO annotators VALUES ('ana', '2026-01-01T00:00:00+00:00')")
    conn.execute("INSERT INTO sample_items VALUES (1, 'p-q1', 'p', 'accepted', '{\"id\": \"p-q1\"}')")
    conn.execute("INSERT INTO judgments (annotator, item_id, c1, c2, c3, comment, created_at) "
                 "VALUES ('ana', 'p-q1', 'yes', 'no', 'absent', 'old row', '2026-01-01T00:00:00+00:00')")
    conn.close()

    conn = db.connect(path)  # opening migrates to the latest version
    assert db.schema_version(conn) == db.LATEST_VERSION == 4
    versions = [r[0] for r in conn.execute("SELECT version FROM schema_version ORDER BY version")]
    assert versions == [1, 2, 3, 4]
    kept = db.get_judgment(conn, "ana", "p-q1")
    assert kept == db.Judgment("ana", "p-q1", "yes", "no", "absent", "old row", 1)
    updated_at = conn.execute("SELECT updated_at FROM judgments").fetchone()[0]
    assert updated_at == "2026-01-01T00:00:00+00:00"
    assert db.annotators(conn) == ["ana"] and db.sample_size(conn) == 1
    history = conn.execute("SELECT revision, comment FROM judgment_history").fetchall()
    assert [tuple(r) for r in history] == [(1, "old row")]  # the judgment before history began is its first entry
    assert db.migrate(conn) == []  # idempotent
    conn.close()


def test_newer_database_is_refused(tmp_path):
    conn = db.connect(tmp_path / "a.sqlite")
    conn.execute("INSERT INTO schema_version VALUES (99, 'future', 'x')")
    with pytest.raises(RuntimeError, match="newer than this code"):
        db.migrate(conn)


def test_sampling_defaults_fewer_when_fewer_and_fixed_seed(mmeb_home):
    qa = build_home(mmeb_home)
    drawn = draw_from_home(mmeb_home, SampleConfig())
    labels = [label for _, label in drawn.items]
    assert labels.count("accepted") == 5 and labels.count("rejected") == 3
    assert drawn.notes == ["only 5 accepted item(s) exist; sampled 5 instead of 50",
                           "only 3 rejected item(s) exist; sampled 3 instead of 50"]
    again = draw_from_home(mmeb_home, SampleConfig())
    assert [i.id for i, _ in again.items] == [i.id for i, _ in drawn.items]
    kept_ids = {i.id for s in qa.values() for i in s.items}
    assert all((label == "accepted") == (item.id in kept_ids) for item, label in drawn.items)
    small = draw_from_home(mmeb_home, SampleConfig(n_accepted=2, n_rejected=1, seed=7, projects=["alpha"]))
    assert len(small.items) == 3 and all(i.project == "alpha" for i, _ in small.items) and not small.notes
    with pytest.raises(AnnotationInputError, match="gamma"):
        draw_from_home(mmeb_home, SampleConfig(projects=["gamma"]))
    listed = draw_from_home(mmeb_home, SampleConfig(item_ids=["beta-q100", "alpha-q1", "alpha-q1"]))
    assert sorted((i.id, label) for i, label in listed.items) == [("alpha-q1", "accepted"), ("beta-q100", "rejected")]
    with pytest.raises(AnnotationInputError, match="nope"):
        draw_from_home(mmeb_home, SampleConfig(item_ids=["nope"]))


def test_draw_sample_is_a_shuffle_of_both_kinds(mmeb_home):
    qa = build_home(mmeb_home)["alpha"]
    orders = {tuple(i.id for i, _ in draw_sample(qa.items, qa.dropped, SampleConfig(seed=s)).items) for s in range(6)}
    assert len(orders) > 1  # the seed changes the order
    assert validation_decisions(mmeb_home)["alpha-q100"] == "rejected"


def test_prepare_blinds_items_keeps_sample_and_resumes(mmeb_home):
    build_home(mmeb_home)
    notes = prepare(mmeb_home, ["ana", "ben"], SampleConfig())
    assert notes[0].startswith("drew 8 items (5 accepted, 3 rejected)")
    conn = db.connect(db.db_path(mmeb_home))
    rows = db.sample(conn)
    stored = json.dumps([r.item for r in rows])
    assert HIDDEN_REASON not in stored and HIDDEN_CATEGORY not in stored and '"validation"' not in stored
    again = prepare(mmeb_home, ["cy"], SampleConfig(n_accepted=1))
    assert "keeping the existing sample of 8 items" in again[0] and "ignored" in again[1]
    assert [r.item_id for r in db.sample(conn)] == [r.item_id for r in rows]
    assert db.annotators(conn) == ["ana", "ben", "cy"]
    conn.close()


def test_compare_and_set_saves_and_export(mmeb_home, tmp_path):
    build_home(mmeb_home)
    prepare(mmeb_home, ["ana", "ben"], SampleConfig())
    conn = db.connect(db.db_path(mmeb_home))
    first = db.sample(conn)[0].item_id
    saved, changed = db.save_judgment(conn, j("ana", first, c1="no"), base_revision=0)
    assert changed and saved.revision == 1
    again, changed = db.save_judgment(conn, j("ana", first, c1="no"), base_revision=0)  # double submit
    assert not changed and again.revision == 1
    with pytest.raises(db.ConflictError):
        db.save_judgment(conn, j("ana", first, c1="yes"), base_revision=0)  # stale form, other content
    assert db.get_judgment(conn, "ana", first).c1 == "no"
    edited, changed = db.save_judgment(conn, j("ana", first, c1="yes"), base_revision=1)
    assert changed and edited.revision == 2
    db.save_judgment(conn, j("ben", first, c3="present"), base_revision=0)
    count = db.export_jsonl(conn, tmp_path / "out.jsonl")
    lines = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert count == 2 and {r["annotator"] for r in lines} == {"ana", "ben"}
    assert lines[0]["c1_derivable"] == "yes" and lines[0]["revision"] == 2 and lines[1]["c3_leak"] == "present"
    assert {"llm_decision", "project", "comment", "created_at"} <= set(lines[0])
    conn.close()


def test_annotator_names_are_checked():
    assert annotator_names(["ana,ben", "ana", " cy "]) == ["ana", "ben", "cy"]
    with pytest.raises(ValueError, match="--annotator"):
        annotator_names(["<script>"])


def test_the_export_carries_every_revision(mmeb_home, tmp_path):
    import json

    from mmeb_assets.annotation.cli import prepare
    from mmeb_assets.annotation.sampling import SampleConfig

    build_home(mmeb_home)
    prepare(mmeb_home, ["ana"], SampleConfig())
    conn = db.connect(db.db_path(mmeb_home))
    item = db.sample(conn)[0].item_id
    db.save_judgment(conn, db.Judgment("ana", item, "yes", "yes", "absent", "first look"), 0)
    db.save_judgment(conn, db.Judgment("ana", item, "no", "yes", "absent", "second look"), 1)
    db.save_judgment(conn, db.Judgment("ana", item, "no", "yes", "absent", "second look"), 2)  # same: no revision
    assert db.export_jsonl(conn, tmp_path / "out.jsonl") == 1
    conn.close()
    [row] = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert row["revision"] == 2
    assert [(h["revision"], h["c1_derivable"], h["comment"]) for h in row["history"]] == [
        (1, "yes", "first look"), (2, "no", "second look")]
