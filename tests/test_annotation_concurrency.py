"""Annotators at once, over real HTTP: concurrent saves, races on one form, the server killed mid-write.

Nothing acknowledged is lost, no (annotator, item) has two rows, each save is whole or absent, and
a restarted server resumes where each annotator stopped. Binding beyond loopback needs the token,
and form fields are length-limited and escaped.
"""
from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from mmeb_assets.annotation import db
from mmeb_assets.annotation.server import MAX_COMMENT_CHARS, MAX_FORM_BYTES, AnnotationApp, make_server
from test_annotation_http import GOOD, app_home, request, running, stop  # noqa: F401 - app_home is a fixture

REPO = Path(__file__).resolve().parents[1]


def form(c1: str = "yes", c2: str = "no", c3: str = "absent", comment: str = "", base: int = 0) -> dict:
    return {"c1": c1, "c2": c2, "c3": c3, "comment": comment, "base_revision": str(base)}


def rows(home: Path) -> list[sqlite3.Row]:
    conn = db.connect(db.db_path(home))
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return list(conn.execute("SELECT * FROM judgments ORDER BY annotator, item_id"))
    finally:
        conn.close()


def test_two_annotators_saving_the_same_and_different_items_at_once(app_home):
    home, order = app_home
    statuses: list[int] = []
    lock = threading.Lock()

    def annotate(annotator: str, items: list[str]) -> None:
        for round_, base in (("first", 0), ("second", 1)):
            for item_id in items:
                comment = f"{annotator} {round_} {item_id}"
                status = request(port, "POST", f"/a/{annotator}/item/{item_id}",
                                 form(c2="yes" if round_ == "second" else "no", comment=comment, base=base))[0]
                with lock:
                    statuses.append(status)

    with running(home) as port:
        # ana and ben save the same items at the same time (one judgment row each); each of them
        # also has two tabs saving different items at once (even and odd positions).
        halves = [order[0::2], order[1::2]]
        with ThreadPoolExecutor(max_workers=4) as pool:
            jobs = [pool.submit(annotate, name, half) for name in ("ana", "ben") for half in halves]
            for job in jobs:
                job.result()
    assert statuses == [303] * (2 * 2 * len(order))
    saved = rows(home)
    assert len(saved) == 2 * len(order)
    assert len({(r["annotator"], r["item_id"]) for r in saved}) == len(saved)
    for r in saved:
        assert (r["revision"], r["c2"], r["comment"]) == (2, "yes", f"{r['annotator']} second {r['item_id']}")


def test_one_form_submitted_from_many_tabs_at_once_saves_once(app_home):
    """Eight tabs of one annotator race the same item from the same base revision, with different
    content: exactly one save wins, the others get 409 and the winner's content is what is stored."""
    home, order = app_home
    item = order[0]
    contents = [f"tab {n}" for n in range(8)]
    barrier = threading.Barrier(len(contents))

    def submit(comment: str) -> tuple[int, str]:
        barrier.wait()
        return request(port, "POST", f"/a/ana/item/{item}", form(comment=comment))[0], comment

    with running(home) as port:
        with ThreadPoolExecutor(max_workers=len(contents)) as pool:
            results = list(pool.map(submit, contents))
    winners = [comment for status, comment in results if status == 303]
    assert len(winners) == 1 and sorted(s for s, _ in results) == [303] + [409] * (len(contents) - 1)
    saved = rows(home)
    assert [(r["annotator"], r["item_id"], r["revision"], r["comment"]) for r in saved] == [("ana", item, 1, winners[0])]


def _serve(home: Path, *extra_env: tuple[str, str]) -> tuple[subprocess.Popen, int]:
    env = {**os.environ, "MMEB_HOME": str(home), "HF_HUB_OFFLINE": "1", **dict(extra_env)}
    proc = subprocess.Popen([sys.executable, "-m", "mmeb_assets.cli", "annotate", "--port", "0", "--annotator", "ana",
                             "--annotator", "ben"], cwd=REPO, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    for line in proc.stdout:
        if line.startswith("annotation app:"):
            return proc, int(re.search(r":(\d+)/", line).group(1))
    proc.wait(timeout=30)
    raise AssertionError(f"the annotation server did not start (rc={proc.returncode})")


def _post_all(port: int, annotator: str, items: list[str], acknowledged: list, comment: str) -> None:
    """Save each item once; record what the server acknowledged (303) before it went away."""
    for item_id in items:
        try:
            status = request(port, "POST", f"/a/{annotator}/item/{item_id}", form(comment=f"{comment} {item_id}"))[0]
        except OSError:
            return  # the server is gone
        if status == 303:
            acknowledged.append((annotator, item_id, f"{comment} {item_id}"))


def test_server_killed_inside_a_save_keeps_it_whole_and_resumes(app_home, tmp_path):
    home, order = app_home
    state = tmp_path / "crash.state"
    proc, port = _serve(home, ("MMEB_CRASH_AT", "judgment-commit@4"), ("MMEB_CRASH_STATE", str(state)))
    acknowledged: list = []
    try:
        _post_all(port, "ana", order, acknowledged, "first")
        assert proc.wait(timeout=60) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
    assert Path(str(state) + ".fired").read_text().startswith("judgment-commit@4")
    # The 4th save died between its INSERT and COMMIT: the three before it are whole, it is absent.
    saved = rows(home)
    assert sorted((r["annotator"], r["item_id"], r["comment"]) for r in saved) == sorted(acknowledged)
    assert {r["item_id"] for r in saved} == set(order[:3]) and all(r["revision"] == 1 for r in saved)

    proc, port = _serve(home)
    try:
        status, headers, _ = request(port, "GET", "/a/ana/")
        assert status == 303 and headers["Location"] == f"/a/ana/item/{order[3]}"  # resumes at the lost one
        _post_all(port, "ana", order[3:], acknowledged, "again")
    finally:
        stop(proc)
    saved = rows(home)
    assert sorted((r["annotator"], r["item_id"], r["comment"]) for r in saved) == sorted(acknowledged)
    assert len(saved) == len(order)


def test_server_killed_at_a_random_moment_loses_nothing_acknowledged(app_home):
    """No hook this time: two annotators save in a loop and the server is SIGKILLed whenever the
    first saves have landed; whatever was acknowledged is stored, whole, once."""
    home, order = app_home
    proc, port = _serve(home)
    acknowledged: list = []
    threads = [threading.Thread(target=_post_all, args=(port, name, order, acknowledged, name)) for name in ("ana", "ben")]
    try:
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 60
        while len(acknowledged) < 3 and time.monotonic() < deadline:
            time.sleep(0.005)
        os.killpg(proc.pid, signal.SIGKILL)
        for thread in threads:
            thread.join(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
    saved = {(r["annotator"], r["item_id"]): (r["comment"], r["c1"], r["c2"], r["c3"], r["revision"]) for r in rows(home)}
    assert len(acknowledged) >= 3
    for annotator, item_id, comment in acknowledged:
        assert saved[(annotator, item_id)] == (comment, "yes", "no", "absent", 1)
    # A save the server did not acknowledge may have committed just before the kill, but whole.
    assert all(value[1:] == ("yes", "no", "absent", 1) and value[0].endswith(key[1]) for key, value in saved.items())


def test_beyond_loopback_every_request_needs_the_token(app_home):
    home, order = app_home
    with pytest.raises(ValueError, match="without an access token"):
        make_server(AnnotationApp(home=home), "0.0.0.0", 0)
    server = make_server(AnnotationApp(home=home, token="t0ken-abc", quiet=True), "0.0.0.0", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = server.server_address[1]
    try:
        for method, path, body in (("GET", "/", None), ("GET", f"/a/ana/item/{order[0]}", None),
                                   ("POST", f"/a/ana/item/{order[0]}", GOOD), ("GET", "/static/app.css", None)):
            assert request(port, method, path, body)[0] == 401, path
            assert request(port, method, path, body, {"X-MMEB-Token": "t0ken-ab"})[0] == 401, path
        assert request(port, "POST", f"/a/ana/item/{order[0]}", GOOD, {"X-MMEB-Token": "t0ken-abc"})[0] == 303
    finally:
        server.shutdown()
        server.server_close()
    assert [r["item_id"] for r in rows(home)] == [order[0]]


def test_form_fields_are_length_limited_and_escaped(app_home):
    home, order = app_home
    hostile = "<script>alert('x')</script>\"'><img src=x onerror=alert(1)>"
    with running(home) as port:
        too_long = form(comment="x" * (MAX_COMMENT_CHARS + 1))
        status, headers, _ = request(port, "POST", f"/a/ana/item/{order[0]}", too_long)
        assert status == 400 and "comment" in headers["X-MMEB-Error"]
        status = request(port, "POST", f"/a/ana/item/{order[0]}", "c1=yes&comment=" + "y" * MAX_FORM_BYTES)[0]
        assert status == 413
        assert request(port, "POST", f"/a/ana/item/{order[0]}", form(c1="<b>yes</b>"))[0] == 400
        assert request(port, "POST", f"/a/ana/item/{order[0]}", form(comment=hostile))[0] == 303
        page = request(port, "GET", f"/a/ana/item/{order[0]}")[2].decode()
        assert hostile not in page and "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
        status, _, body = request(port, "GET", "/a/%3Cscript%3Ex/")
        assert status == 404 and "<script>x" not in body.decode()
    assert [r["comment"] for r in rows(home)] == [hostile]  # stored as typed, escaped only when shown


def test_many_connections_opening_a_fresh_database_at_once(tmp_path):
    """Two `mmeb annotate` processes (or request threads) starting on a new database: the schema
    migration is decided under the write lock, so none fails with 'table already exists'."""
    failures: list[str] = []
    for trial in range(10):
        path = tmp_path / f"trial{trial}" / "annotations.sqlite"
        barrier = threading.Barrier(6)

        def open_it() -> None:
            barrier.wait()
            try:
                db.connect(path).close()
            except sqlite3.Error as exc:
                failures.append(repr(exc))

        threads = [threading.Thread(target=open_it) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        conn = db.connect(path)
        assert [r[0] for r in conn.execute("SELECT version FROM schema_version ORDER BY version")] == [1, 2, 3, 4]
        conn.close()
    assert failures == []
