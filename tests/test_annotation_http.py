"""The annotation app over real HTTP: bad input, double submits, tokens, escaping, blinding, images."""
from __future__ import annotations

import http.client
import re
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

import pytest

from mmeb_assets.annotation import db
from mmeb_assets.annotation.cli import prepare
from mmeb_assets.annotation.sampling import SampleConfig
from mmeb_assets.annotation.server import AnnotationApp, make_server
from test_annotation_fixtures import HIDDEN_CATEGORY, HIDDEN_REASON, XSS, build_home

REPO = Path(__file__).resolve().parents[1]


@contextmanager
def running(home: Path, token: str | None = None):
    server = make_server(AnnotationApp(home=home, token=token, quiet=True), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


ITEM_FORM_TOKEN = re.compile(r"name='form_token' value='([0-9a-f]+)'")


def page_form_token(port: int, path: str, headers: dict | None = None) -> str:
    """The form token of the item page at `path`, read as a browser reads it: from the page."""
    status, _, page = request(port, "GET", path, headers={k: v for k, v in (headers or {}).items()
                                                         if k in ("X-MMEB-Token", "Cookie")})
    found = ITEM_FORM_TOKEN.search(page.decode()) if status == 200 else None
    return found.group(1) if found else ""


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM, then SIGKILL if the server has not exited within 30 s (seen in full-suite runs of a
    fresh clone; what the tests check is what the server served or saved, not how it exits)."""
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=30)


def request(port: int, method: str, path: str, form: dict | str | None = None, headers: dict | None = None,
            own_page: bool = True):
    """One HTTP request. A POSTed dict form carries the token of the item page, as the app's own
    form does, unless `own_page` is False (a forged form) or the dict sets `form_token` itself."""
    if method == "POST" and isinstance(form, dict) and own_page and "form_token" not in form:
        form = {**form, "form_token": page_form_token(port, path, headers)}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    body = urlencode(form, doseq=True) if isinstance(form, dict) else form
    all_headers = {"Content-Type": "application/x-www-form-urlencoded"} if body is not None else {}
    all_headers.update(headers or {})
    conn.request(method, path, body=body, headers=all_headers)
    reply = conn.getresponse()
    data = reply.read()
    conn.close()
    return reply.status, dict(reply.getheaders()), data


@pytest.fixture()
def app_home(mmeb_home):
    build_home(mmeb_home)
    prepare(mmeb_home, ["ana", "ben"], SampleConfig())
    conn = db.connect(db.db_path(mmeb_home))
    order = [r.item_id for r in db.sample(conn)]
    conn.close()
    return mmeb_home, order


GOOD = {"c1": "yes", "c2": "no", "c3": "absent", "comment": "looks off", "base_revision": "0"}


def saved(home: Path, annotator: str, item_id: str):
    conn = db.connect(db.db_path(home))
    try:
        return db.get_judgment(conn, annotator, item_id)
    finally:
        conn.close()


def test_resume_item_page_is_escaped_and_blind(app_home):
    home, order = app_home
    with running(home) as port:
        status, headers, _ = request(port, "GET", "/a/ana/")
        assert status == 303 and headers["Location"] == f"/a/ana/item/{order[0]}"
        status, headers, body = request(port, "GET", headers["Location"])
        page = body.decode()
        assert status == 200 and "default-src 'none'" in headers["Content-Security-Policy"]
        assert "Reference answer" in page and "Source browser" in page and "cited evidence" in page
        assert XSS not in page and "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in page
        assert "<b>bold?</b>" not in page and "&lt;b&gt;bold?&lt;/b&gt;" in page
        assert HIDDEN_REASON not in page and HIDDEN_CATEGORY not in page
        for word in ("accepted", "rejected", "llm_decision"):
            assert word not in page.lower()
        # save item 1 -> redirected to item 2; resuming now starts at item 2
        status, headers, _ = request(port, "POST", f"/a/ana/item/{order[0]}", GOOD)
        assert status == 303 and headers["Location"] == f"/a/ana/item/{order[1]}"
        assert request(port, "GET", "/a/ana/")[1]["Location"] == f"/a/ana/item/{order[1]}"
        assert request(port, "GET", "/a/ben/")[1]["Location"] == f"/a/ben/item/{order[0]}"
        status, _, body = request(port, "GET", f"/a/ana/item/{order[0]}")
        assert "Saved (revision 1): C1 yes, C2 no, C3 absent" in body.decode()
        assert "value='no' required data-key='5' checked" in body.decode()
        status, headers, png = request(port, "GET", "/image/alpha/alpha-pdf_page-3")
        assert status == 200 and headers["Content-Type"] == "image/png" and png[:8] == b"\x89PNG\r\n\x1a\n"


def test_unknown_ids_get_404_with_a_message(app_home):
    home, order = app_home
    with running(home) as port:
        status, _, body = request(port, "GET", "/a/ana/item/no-such-item")
        assert status == 404 and "unknown item id &#x27;no-such-item&#x27;" in body.decode()
        status, _, body = request(port, "POST", "/a/ana/item/no-such-item", GOOD)
        assert status == 404 and "not in the annotation sample" in body.decode()
        status, _, body = request(port, "GET", "/a/mallory/")
        assert status == 404 and "unknown annotator" in body.decode()
        assert request(port, "GET", "/image/alpha/alpha-slack-0")[0] == 404
        assert request(port, "GET", "/image/alpha/..%2F..%2Fetc%2Fpasswd")[0] == 404


@pytest.mark.parametrize("form, field", [
    ({**GOOD, "c1": "maybe"}, "'c1' has invalid value"),
    ({k: v for k, v in GOOD.items() if k != "c2"}, "'c2' is missing"),
    ({**GOOD, "c3": ["absent", "present"]}, "'c3' was given 2 times"),
    ({**GOOD, "base_revision": "x"}, "'base_revision'"),
    ({**GOOD, "comment": "x" * 4001}, "'comment' is longer"),
    ({**GOOD, "llm": "1"}, "'llm' is not part"),
])
def test_malformed_form_is_400_naming_the_field_and_keeps_the_saved_judgment(app_home, form, field):
    home, order = app_home
    with running(home) as port:
        assert request(port, "POST", f"/a/ana/item/{order[0]}", GOOD)[0] == 303
        status, headers, body = request(port, "POST", f"/a/ana/item/{order[0]}", {**form, "base_revision": "1"}
                                        if field != "'base_revision'" else form)
        assert status == 400, body
        assert field in body.decode().replace("&#x27;", "'") and field.split()[0].strip("'") in headers["X-MMEB-Error"]
    assert saved(home, "ana", order[0]) == db.Judgment("ana", order[0], "yes", "no", "absent", "looks off", 1)


def test_wrong_content_type_is_400(app_home):
    home, order = app_home
    with running(home) as port:
        status, _, body = request(port, "POST", f"/a/ana/item/{order[0]}", '{"c1": "yes"}',
                                  {"Content-Type": "application/json"})
        assert status == 400 and "x-www-form-urlencoded" in body.decode()


def test_double_submit_is_idempotent_and_a_stale_different_form_is_409(app_home):
    home, order = app_home
    with running(home) as port:
        first = request(port, "POST", f"/a/ana/item/{order[0]}", GOOD)
        second = request(port, "POST", f"/a/ana/item/{order[0]}", GOOD)  # the same form again
        assert first[0] == second[0] == 303 and first[1]["Location"] == second[1]["Location"]
        assert saved(home, "ana", order[0]).revision == 1
        status, _, body = request(port, "POST", f"/a/ana/item/{order[0]}", {**GOOD, "c2": "yes"})  # stale
        assert status == 409 and "it was kept" in body.decode() and "Reload the item</a>" in body.decode()
        assert saved(home, "ana", order[0]).c2 == "no"
        # an edit made from the current form (base_revision 1) is a normal save
        assert request(port, "POST", f"/a/ana/item/{order[0]}", {**GOOD, "c2": "yes", "base_revision": "1"})[0] == 303
        assert saved(home, "ana", order[0]).revision == 2 and saved(home, "ana", order[0]).c2 == "yes"


def test_cross_site_post_is_refused(app_home):
    home, order = app_home
    with running(home) as port:
        status, _, _ = request(port, "POST", f"/a/ana/item/{order[0]}", GOOD, {"Origin": "http://evil.example"})
        assert status == 403
    assert saved(home, "ana", order[0]) is None


@pytest.mark.parametrize("case,headers,own_page,status", [
    ("sandboxed frame or file:// page", {"Origin": "null"}, True, 403),
    ("another site, by fetch metadata", {"Sec-Fetch-Site": "cross-site"}, True, 403),
    ("a form without the page's token (curl, or a page that never loaded the item)", {}, False, 403),
    ("a rebound name", {"Host": "rebind.test:{port}", "Origin": "http://rebind.test:{port}"}, True, 421),
])
def test_forged_writes_are_refused(app_home, case, headers, own_page, status):
    home, order = app_home
    with running(home) as port:
        sent = {k: v.format(port=port) for k, v in headers.items()}
        got, _, body = request(port, "POST", f"/a/ana/item/{order[0]}", GOOD, sent, own_page=own_page)
        assert got == status, (case, body.decode()[:300])
        assert request(port, "GET", "/", headers={"Host": f"rebind.test:{port}"})[0] == 421  # nothing to read
        # the app's own form, loaded from its page, still saves
        assert request(port, "POST", f"/a/ana/item/{order[1]}", GOOD, {"Origin": f"http://127.0.0.1:{port}",
                                                                       "Sec-Fetch-Site": "same-origin"})[0] == 303
    assert saved(home, "ana", order[0]) is None and saved(home, "ana", order[1]) is not None


def test_a_form_token_is_good_for_its_own_item_and_annotator_only(app_home):
    home, order = app_home
    with running(home) as port:
        token = page_form_token(port, f"/a/ana/item/{order[0]}")
        assert request(port, "POST", f"/a/ana/item/{order[1]}", {**GOOD, "form_token": token})[0] == 403
        assert request(port, "POST", f"/a/ben/item/{order[0]}", {**GOOD, "form_token": token})[0] == 403
        assert request(port, "POST", f"/a/ana/item/{order[0]}", {**GOOD, "form_token": token})[0] == 303


def test_token_is_required_when_set(app_home):
    home, order = app_home
    with running(home, token="s3cret-token") as port:
        status, _, body = request(port, "GET", "/a/ana/")
        assert status == 401 and "access token is required" in body.decode()
        assert request(port, "POST", f"/a/ana/item/{order[0]}", GOOD)[0] == 401
        assert request(port, "GET", "/?token=wrong")[0] == 401
        status, headers, _ = request(port, "GET", "/a/ana/?token=s3cret-token")
        assert status == 303 and headers["Location"] == "/a/ana/" and "HttpOnly" in headers["Set-Cookie"]
        cookie = headers["Set-Cookie"].split(";")[0]
        assert request(port, "GET", "/a/ana/", headers={"Cookie": cookie})[0] == 303
        assert request(port, "POST", f"/a/ana/item/{order[0]}", GOOD, {"X-MMEB-Token": "s3cret-token"})[0] == 303
    assert saved(home, "ana", order[0]) is not None


def test_cli_refuses_non_loopback_without_token_and_exports(app_home, tmp_path):
    home, order = app_home
    env = {"MMEB_HOME": str(home), "PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1"}
    cmd = [sys.executable, "-m", "mmeb_assets.cli", "annotate"]
    refused = subprocess.run(cmd + ["--host", "0.0.0.0", "--annotator", "ana"], cwd=REPO, env=env,
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "--token" in refused.stderr
    conn = db.connect(db.db_path(home))
    db.save_judgment(conn, db.Judgment("ana", order[0], "no", "yes", "present", "leak"), 0)
    conn.close()
    out = tmp_path / "judgments.jsonl"
    exported = subprocess.run(cmd + ["--export", str(out)], cwd=REPO, env=env, capture_output=True, text=True,
                              timeout=120)
    assert exported.returncode == 0, exported.stderr
    assert "wrote 1 judgments" in exported.stdout and '"c3_leak": "present"' in out.read_text()


def test_index_lists_progress_and_done_page_after_the_last_item(app_home):
    home, order = app_home
    with running(home) as port:
        location = request(port, "GET", "/a/ben/")[1]["Location"]
        for item_id in order:
            assert location == f"/a/ben/item/{item_id}"
            location = request(port, "POST", location, GOOD)[1]["Location"]
        assert location == "/a/ben/"
        status, _, body = request(port, "GET", location)
        assert status == 200 and "All 8 items of the sample are judged" in body.decode()
        index = request(port, "GET", "/")[2].decode()
        assert "8 of 8 judged" in index and "0 of 8 judged" in index
        assert "accepted" not in index.lower() and "rejected" not in index.lower()


def test_mmeb_annotate_serves_with_a_token(app_home):
    import re
    import urllib.request
    from http.cookiejar import CookieJar

    home, order = app_home
    env = {"MMEB_HOME": str(home), "PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "mmeb_assets.cli", "annotate", "--port", "0", "--token", "tok-1",
                             "--annotator", "cy"], cwd=REPO, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("annotation app:"):
                break
        url = re.search(r"http://\S+", lines[-1]).group(0)
        assert url.endswith("/?token=tok-1"), lines
        port = int(re.search(r":(\d+)/", url).group(1))
        assert request(port, "GET", "/a/cy/")[0] == 401
        assert request(port, "GET", "/a/cy/", headers={"X-MMEB-Token": "tok-1"})[0] == 303
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        with opener.open(url, timeout=30) as reply:  # the token moves into a cookie, then the redirect
            assert reply.status == 200 and b"cy" in reply.read()
        assert any("keeping the existing sample of 8 items" in line for line in lines)
    finally:
        stop(proc)


def test_broken_records_file_is_a_500_naming_the_file(app_home):
    home, order = app_home
    records = home / "projects" / "alpha" / "records.jsonl"
    records.write_text(records.read_text() + "{not json\n")
    alpha = next(i for i in order if i.startswith("alpha-"))
    with running(home, token="t") as port:
        status, _, body = request(port, "GET", f"/a/ana/item/{alpha}", headers={"X-MMEB-Token": "t"})
        assert status == 500 and "records.jsonl line 6" in body.decode()
        # a form loaded before the file broke, posted with the token in its query, is saved
        loaded = {**GOOD, "form_token": AnnotationApp(home=home).form_token("ana", alpha)}
        status, headers, _ = request(port, "POST", f"/a/ana/item/{alpha}?token=t", loaded)
        assert status == 303 and "/item/" in headers["Location"]
    assert saved(home, "ana", alpha).c2 == "no"


def test_real_qa_stage_output_is_served(mmeb_home):
    """Contract check against the QA stage's own offline fixture and rules validation."""
    import json

    fixture = pytest.importorskip("mmeb_assets.qa.fixture")
    from mmeb_assets.provenance import make_provenance
    from mmeb_assets.qa.evidence import ProjectIndex
    from mmeb_assets.qa.generate import generate_rule_items, make_context
    from mmeb_assets.qa.validation import validate_items
    from mmeb_assets.schema.qa import QASet

    org, plan, records = fixture.fixture_project()
    index = ProjectIndex(plan=plan, org=org, records=records)
    provenance = make_provenance(fixture.SEED, "qa", "rules")
    kept, dropped = validate_items(generate_rule_items(make_context(index, provenance)), index, None)
    folder = mmeb_home / "projects" / fixture.SEED
    folder.mkdir(parents=True)
    (folder / "records.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in records.records))
    qa = QASet(seed_id=fixture.SEED, provenance=provenance, items=kept, dropped=dropped)
    (folder / "qa_validated.json").write_text(json.dumps({"model": "mmeb_assets.schema.qa.QASet",
                                                          "data": qa.model_dump(mode="json")}))
    prepare(mmeb_home, ["ana"], SampleConfig(n_accepted=5, n_rejected=5))
    with running(mmeb_home) as port:
        location = request(port, "GET", "/a/ana/")[1]["Location"]
        status, _, body = request(port, "GET", location)
        page = body.decode()
        assert status == 200 and "Cited evidence" in page and "cited evidence</span>" in page
        assert "not found in the project" not in page


def test_non_loopback_needs_a_token():
    from mmeb_assets.annotation.server import is_loopback

    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1") and is_loopback("127.8.0.1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4") and not is_loopback("example.org")
    with pytest.raises(ValueError, match="without an access token"):
        make_server(AnnotationApp(home=Path("/nonexistent")), "0.0.0.0", 0)


def test_guidelines_are_linked_from_every_item_and_the_good_answer_is_always_first(app_home):
    home, order = app_home
    with running(home) as port:
        status, _, page = request(port, "GET", "/guidelines")
        assert status == 200 and "No evidence cited" in page.decode()
        item = request(port, "GET", f"/a/ana/item/{order[0]}")[2].decode()
        assert "href='/guidelines'" in item and "Keys: 1-3 C1" in item
        for name, first in (("c1", "yes"), ("c2", "yes"), ("c3", "absent")):  # 'Yes' leads all three
            assert re.search(rf"name='{name}' value='(\w+)'", item).group(1) == first
        assert "<kbd>7</kbd> Yes, kept out" in item
