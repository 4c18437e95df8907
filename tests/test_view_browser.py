"""The results browser in headless Chromium (Selenium), on the small fixture build with a submitted
system: a leaderboard cell equals the report's table5.csv, a click path reaches a question with its gold
marker and seed page, every image loads, nothing logs an error, nothing is requested outside file:// or
127.0.0.1, keyboard navigation works, hostile text stays text, and it works served over HTTP too."""
from __future__ import annotations

import csv
import threading
import time
from pathlib import Path

import pytest

from ui_browser import chrome

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
LOCAL = ("file://", "http://127.0.0.1", "data:")


def browser(tmp_path: Path):
    """Headless Chromium (ui_browser's) that keeps the console log (goog:loggingPrefs)."""
    return chrome(tmp_path / "chromium", capabilities={"goog:loggingPrefs": {"browser": "ALL"}})


def wait_for(driver, css: str, timeout_s: float = 20.0):
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout_s).until(ec.presence_of_element_located(("css selector", css)))


def wait_view(driver, name: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 20).until(lambda d: d.find_element("tag name", "body").get_attribute("data-painted") == name)


def images_loaded(driver) -> list[str]:
    """The src of every <img> that did not load (naturalWidth 0)."""
    driver.execute_script("document.querySelectorAll('img').forEach(function (i) { i.loading = 'eager'; });")
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 20).until(lambda d: d.execute_script(
        "return Array.from(document.images).every(function (i) { return i.complete; });"))
    return driver.execute_script("return Array.from(document.images).filter(function (i) { return !i.naturalWidth; })"
                                 ".map(function (i) { return i.getAttribute('src'); });")


def requested_urls(driver) -> list[str]:
    return driver.execute_script("return [location.href].concat(performance.getEntriesByType('resource')"
                                 ".map(function (e) { return e.name; }));")


def severe_logs(driver) -> list[dict]:
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def test_a_cell_equals_the_report_and_a_click_path_reaches_a_question_and_its_seed_page(view_site, tmp_path):
    rows = list(csv.DictReader((view_site.parent / "home" / "evaluation" / "reports" / "table5.csv").open()))
    with browser(tmp_path) as driver:
        driver.get((view_site / "index.html").as_uri())
        wait_view(driver, "leaderboard")
        for row in rows:
            selector = (f'a.cell[data-table="table5"][data-model="{row["model"]}"][data-k="{row["k"]}"]'
                        f'[data-column="{row["column"]}"] .acc')
            found = driver.find_elements("css selector", selector)
            if int(row["n"]) == 0:
                assert not found
                continue
            assert found[0].text == f"{float(row['accuracy']):.1f}", selector
        driver.save_screenshot(str(tmp_path / "view_leaderboard.png"))
        driver.find_element("css selector", 'a.cell[data-table="table5"][data-model="model-a"][data-k="10"]'
                                            '[data-column="extraction"]').click()
        wait_view(driver, "slice")
        assert driver.find_element("id", "slice-summary").text.startswith("6 questions · 3 right")
        driver.find_element("link text", "aurora-q01").click()
        wait_view(driver, "q")
        assert "#/q/aurora-q01" in driver.current_url
        golds = driver.find_elements("css selector", "tr.gold td.goldmark")
        assert golds and golds[0].text == "★ gold"
        seed = wait_for(driver, "#seed-page img")
        assert driver.execute_script("return arguments[0].naturalWidth", seed) > 0
        assert "0.628" in driver.find_element("css selector", "#seed-page figcaption").text
        _assert_span_boxed_inside(driver, seed)
        assert images_loaded(driver) == []
        driver.save_screenshot(str(tmp_path / "view_question.png"))
        assert severe_logs(driver) == []
        assert [url for url in requested_urls(driver) if not url.startswith(LOCAL)] == []


def test_every_image_loads_on_every_question_and_no_view_logs_an_error(view_site, tmp_path):

    ids = [line.split('"id": "')[1].split('"')[0] if '"id": "' in line else line.split('"id":"')[1].split('"')[0]
           for line in (view_site.parent / "home" / "benchmark" / "questions.jsonl").read_text().splitlines()]
    with browser(tmp_path) as driver:
        base = (view_site / "index.html").as_uri()
        for qid in ids:
            driver.get(f"{base}#/q/{qid}")
            wait_view(driver, "q")
            assert images_loaded(driver) == [], qid
        for route, view in (("#/slice", "slice"), ("#/compare?a=model-a@10&b=model-b@10&differ=1", "compare"),
                            ("#/health", "health"), ("#/slice?run=my-rag@0", "slice")):
            driver.get(base + route)
            wait_view(driver, view)
        assert severe_logs(driver) == []
        assert [url for url in requested_urls(driver) if not url.startswith(LOCAL)] == []


def test_compare_shows_both_verdicts_the_paired_test_and_filters_to_differences(view_site, tmp_path):
    with browser(tmp_path) as driver:
        driver.get((view_site / "index.html").as_uri() + "#/compare?a=model-a@10&b=model-b@10")
        wait_view(driver, "compare")
        assert "Paired bootstrap (as the report): model-a@10 − model-b@10 =" in driver.find_element("id", "paired").text
        all_rows = len(driver.find_elements("css selector", "table.list tbody tr"))
        driver.find_element("id", "differ").click()
        wait_view(driver, "compare")
        rows = driver.find_elements("css selector", "table.list tbody tr")
        assert 0 < len(rows) < all_rows
        for row in rows:
            cells = row.find_elements("css selector", "td.verdict")
            assert cells[0].text != cells[1].text


def test_the_submitted_system_is_a_row_of_the_leaderboard_and_answers_on_question_pages(view_site, tmp_path):
    with browser(tmp_path) as driver:
        driver.get((view_site / "index.html").as_uri())
        wait_view(driver, "leaderboard")
        assert driver.find_elements("css selector", 'a.cell[data-model="my-rag"][data-table="table5"]')
        assert driver.find_elements("css selector", 'a.cell[data-model="my-rag"][data-table="table7"]')
        driver.get((view_site / "index.html").as_uri() + "#/q/aurora-q01")
        wait_view(driver, "q")
        assert driver.find_element("css selector", 'tr[data-run="my-rag@0"] td.verdict').text == "right"


def test_keyboard_alone_opens_a_cell_and_then_a_question(view_site, tmp_path):
    from selenium.webdriver.common.keys import Keys

    with browser(tmp_path) as driver:
        driver.get((view_site / "index.html").as_uri())
        wait_view(driver, "leaderboard")
        for css, tries, what, view in (("a.cell", 40, "a leaderboard cell", "slice"),
                                       ("a.qid", 60, "a question link", "q")):
            for _ in range(tries):
                driver.switch_to.active_element.send_keys(Keys.TAB)
                if driver.execute_script(f"return document.activeElement.matches('{css}')"):
                    break
            else:
                pytest.fail(f"TAB never reached {what}")
            driver.switch_to.active_element.send_keys(Keys.ENTER)
            wait_view(driver, view)
        assert "#/q/" in driver.current_url


def test_hostile_text_in_records_answers_and_questions_shows_as_text_and_nothing_runs(view_site, tmp_path):
    from selenium.common.exceptions import NoAlertPresentException

    with browser(tmp_path) as driver:
        base = (view_site / "index.html").as_uri()
        for route, view in (("#/q/hostile-q08", "q"), ("#/slice?s=script", "slice"), ("#/health", "health")):
            driver.get(base + route)
            wait_view(driver, view)
            time.sleep(0.3)
            with pytest.raises(NoAlertPresentException):
                driver.switch_to.alert.text  # noqa: B018 (reading it is the check)
            assert driver.execute_script("return window.__pwned") is None
            assert driver.find_elements("css selector", 'main img[src="x"], main script, main a[href^="javascript"]') == []
        driver.get(base + "#/q/hostile-q08")
        wait_view(driver, "q")
        page = driver.find_element("tag name", "main").text
        assert "<script>window.__pwned = 1</script>" in page and 'onerror="window.__pwned = 1; alert(1)"' in page
        assert "javascript:alert(document.domain)" in page
        driver.find_element("css selector", "#evidence ~ article.record")  # the hostile record is rendered
        assert severe_logs(driver) == []


def test_served_over_http_on_127_0_0_1_it_requests_nothing_else(view_site, tmp_path):
    from mmeb_assets.view.serve import make_server

    server = make_server(view_site, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with browser(tmp_path) as driver:
            driver.get(f"http://127.0.0.1:{server.server_address[1]}/index.html#/q/aurora-q03")
            wait_view(driver, "q")
            assert images_loaded(driver) == []
            assert [url for url in requested_urls(driver) if not url.startswith(LOCAL)] == []
            assert severe_logs(driver) == []
    finally:
        server.shutdown()
        server.server_close()


def _assert_span_boxed_inside(driver, image) -> None:
    """The quoted span's box is drawn over the page image (the page is drawn once, unboxed): a small
    box, wholly inside the image, that scales with it."""
    boxes = driver.find_elements("css selector", "#seed-page .span-box")
    assert boxes, "the boxed span has no box over the page"
    rect = "var r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];"
    page = driver.execute_script(rect, image)
    box = driver.execute_script(rect, boxes[0])
    assert page[0] <= box[0] < box[2] <= page[2] and page[1] <= box[1] < box[3] <= page[3], (page, box)
    assert (box[2] - box[0]) * (box[3] - box[1]) < 0.05 * (page[2] - page[0]) * (page[3] - page[1])
