"""Only the app's own pages can write a judgment (issue 39), tried in headless Chromium: a page on
another origin, a sandboxed frame, a `file://` page and a rebound host name each submit a judgment
form and nothing is saved; the app's own form, in the same browser, saves. Skips without chromium."""
from __future__ import annotations

import functools
import http.server
import threading
import time
from html import escape

import pytest

from mmeb_assets.annotation import db
from mmeb_assets.annotation.cli import prepare
from mmeb_assets.annotation.sampling import SampleConfig
from mmeb_assets.annotation.server import AnnotationApp, make_server
from test_annotation_fixtures import build_home
from ui_browser import chrome, require_chromium

pytestmark = pytest.mark.browser


@pytest.fixture()
def served(mmeb_home, tmp_path):
    """The app on one port, an attacker's static site on another."""
    require_chromium()
    build_home(mmeb_home)
    prepare(mmeb_home, ["ana"], SampleConfig())
    conn = db.connect(db.db_path(mmeb_home))
    items = [r.item_id for r in db.sample(conn)]
    conn.close()
    app = make_server(AnnotationApp(home=mmeb_home, quiet=True), "127.0.0.1", 0)
    site = tmp_path / "attacker"
    site.mkdir()
    handler = functools.partial(_QuietHandler, directory=str(site))
    attacker = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    for server in (app, attacker):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    yield mmeb_home, app.server_address[1], attacker.server_address[1], site, items
    for server in (app, attacker):
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def _forged_form(action: str) -> str:
    return (f"<form id='f' method='post' action='{escape(action)}'>"
            "<input name='c1' value='no'><input name='c2' value='no'><input name='c3' value='present'>"
            "<input name='comment' value='forged'><input name='base_revision' value='0'></form>"
            "<script>document.getElementById('f').submit()</script>")


def _saved(home, item_id):
    conn = db.connect(db.db_path(home))
    try:
        return db.get_judgment(conn, "ana", item_id)
    finally:
        conn.close()


def _settle(driver) -> None:
    time.sleep(1.5)  # the auto-submitted form has been answered (or refused) by then
    driver.execute_script("return document.readyState")


def test_forged_forms_save_nothing_and_the_apps_own_form_saves(served, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    home, port, attacker_port, site, items = served
    target = lambda item: f"http://127.0.0.1:{port}/a/ana/item/{item}"  # noqa: E731
    (site / "other-origin.html").write_text(_forged_form(target(items[0])))
    frame = escape(_forged_form(target(items[1])))
    (site / "sandboxed.html").write_text(f"<iframe sandbox='allow-forms allow-scripts' srcdoc=\"{frame}\"></iframe>")
    local = tmp_path / "local.html"
    local.write_text(_forged_form(target(items[2])))
    with chrome(tmp_path / "profile", "--host-resolver-rules=MAP rebind.test 127.0.0.1") as driver:
        driver.get(f"http://127.0.0.1:{attacker_port}/other-origin.html")
        _settle(driver)
        driver.get(f"http://127.0.0.1:{attacker_port}/sandboxed.html")
        _settle(driver)
        driver.get(local.as_uri())
        _settle(driver)
        # a rebound name: the page the attacker's name loads is the refusal, and its form is refused too
        rebound = f"http://rebind.test:{port}/a/ana/item/{items[3]}"
        driver.get(rebound)
        assert "answers at" in driver.find_element(By.TAG_NAME, "body").text
        driver.execute_script("document.body.insertAdjacentHTML('beforeend', arguments[0]);"
                              "document.getElementById('f').submit()", _forged_form(rebound).split("<script>")[0])
        _settle(driver)
        assert [_saved(home, item) for item in items[:4]] == [None] * 4
        # the app's own page, in the same browser, saves
        driver.get(target(items[4]))
        for name, value in (("c1", "yes"), ("c2", "yes"), ("c3", "absent")):
            driver.find_element(By.CSS_SELECTOR, f"input[name={name}][value={value}]").click()
        driver.find_element(By.ID, "save").click()
        WebDriverWait(driver, 30).until(lambda d: d.current_url != target(items[4]))
    own = _saved(home, items[4])
    assert own is not None and (own.c1, own.c2, own.c3) == ("yes", "yes", "absent")
