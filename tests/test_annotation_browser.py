"""The annotation app in headless Chromium (Debian's chromium + chromedriver through Selenium):
open an item, expand a card, search the source browser, submit C1-C3 and a comment, reload, and
see the saved state. Skips with the reason when chromium is not installed."""
from __future__ import annotations

import threading

import pytest
from PIL import Image

from mmeb_assets.annotation import db
from mmeb_assets.annotation.cli import prepare
from mmeb_assets.annotation.sampling import SampleConfig
from mmeb_assets.annotation.server import AnnotationApp, make_server
from test_annotation_fixtures import build_home
from ui_browser import chrome, require_chromium

pytestmark = pytest.mark.browser


@pytest.fixture()
def served(mmeb_home):
    require_chromium()
    build_home(mmeb_home)
    prepare(mmeb_home, ["ana", "ben"], SampleConfig())
    server = make_server(AnnotationApp(home=mmeb_home, quiet=True), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield mmeb_home, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_annotator_judges_an_item_and_sees_it_after_reload(served, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    home, base = served
    with chrome(tmp_path / "chromium-profile") as driver:
        wait = WebDriverWait(driver, 30)
        driver.get(base + "/")
        driver.find_element(By.LINK_TEXT, "ana").click()
        wait.until(ec.presence_of_element_located((By.ID, "question")))
        item_url = driver.current_url
        assert "/a/ana/item/" in item_url
        assert driver.find_element(By.ID, "question").text.startswith("What is fact")
        assert driver.find_element(By.ID, "reference-answer").text.startswith("Answer ")
        assert driver.execute_script("return window.__pwned === undefined")  # record markup did not run

        # the visual evidence card is open from the start: metadata, text, and the page image
        card = driver.find_element(By.CSS_SELECTOR, "details.card[data-record$='-pdf_page-3']")
        assert card.get_attribute("open") is not None
        assert "Application: PDF" in card.text and "Page: 3" in card.text and "Author: Dana Li" in card.text
        assert "zebra-crossing" in card.find_element(By.CSS_SELECTOR, "pre.record-text").text
        image = card.find_element(By.CSS_SELECTOR, "img.record-image")
        wait.until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image))
        assert driver.execute_script("return arguments[0].naturalWidth", image) == 240

        # the source browser highlights cited evidence and filters on search
        entries = driver.find_elements(By.CSS_SELECTOR, "#source-list li.source")
        cited = driver.find_elements(By.CSS_SELECTOR, "#source-list li.source.cited")
        assert len(entries) == 5 and len(cited) == 2
        search = driver.find_element(By.ID, "source-search")
        search.send_keys("batch size")
        wait.until(lambda d: d.find_element(By.ID, "source-count").text == "1 of 5 records")
        visible = [e for e in entries if e.is_displayed()]
        assert len(visible) == 1 and visible[0].get_attribute("data-record").endswith("-email-1")

        # judge: C1 No, C2 Yes, C3 present, a comment; save and next
        driver.find_element(By.CSS_SELECTOR, "input[name=c1][value=no]").click()
        driver.find_element(By.CSS_SELECTOR, "input[name=c2][value=yes]").click()
        driver.find_element(By.CSS_SELECTOR, "input[name=c3][value=present]").click()
        driver.find_element(By.ID, "comment").send_keys("answer is <in> the question")
        driver.find_element(By.ID, "save").click()
        wait.until(lambda d: d.current_url != item_url and "/item/" in d.current_url)
        assert "Item 2 of 8" in driver.find_element(By.ID, "position").text

        # back to the first item, reload: the saved state is shown
        driver.get(item_url)
        driver.refresh()
        wait.until(ec.presence_of_element_located((By.ID, "saved-status")))
        assert "Saved (revision 1)" in driver.find_element(By.ID, "saved-status").text
        checked = {name: driver.find_element(By.CSS_SELECTOR, f"input[name={name}]:checked").get_attribute("value")
                   for name in ("c1", "c2", "c3")}
        assert checked == {"c1": "no", "c2": "yes", "c3": "present"}
        assert driver.find_element(By.ID, "comment").get_attribute("value") == "answer is <in> the question"
        driver.find_element(By.ID, "source-search").send_keys("dana")
        wait.until(lambda d: d.find_element(By.ID, "source-count").text == "2 of 5 records")
        driver.set_window_size(1600, 1900)  # the whole page, assessment panel included
        shot = tmp_path / "annotation_item.png"
        assert driver.save_screenshot(str(shot))
    with Image.open(shot) as picture:
        assert picture.size[0] >= 800 and picture.size[1] >= 1000
    conn = db.connect(db.db_path(home))
    item_id = item_url.rsplit("/", 1)[1]
    assert db.get_judgment(conn, "ana", item_id) == db.Judgment("ana", item_id, "no", "yes", "present",
                                                               "answer is <in> the question", 1)
    conn.close()
    print(f"screenshot: {shot}")


def test_five_items_judged_with_the_keyboard_alone_and_a_refused_save_keeps_the_choices(served, tmp_path):
    """Issue 39: keys pick every choice and save; a reload, or a save refused with 409 because the item
    changed meanwhile, brings back the choices typed (the saved revision is shown beside them)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    home, base = served
    with chrome(tmp_path / "chromium-profile") as driver:
        wait = WebDriverWait(driver, 30)
        driver.get(base + "/a/ben/")
        judged = []
        for _ in range(5):
            wait.until(lambda d: "/item/" in d.current_url and d.find_elements(By.ID, "assessment"))
            judged.append(driver.current_url.rsplit("/", 1)[1])
            body = driver.find_element(By.TAG_NAME, "body")
            for key in "158s":  # C1 yes, C2 no, C3 present, save
                body.send_keys(key)
            wait.until(lambda d: not d.current_url.endswith(judged[-1]))
        # a draft survives a reload
        item = driver.current_url
        driver.find_element(By.TAG_NAME, "body").send_keys("2")
        driver.find_element(By.ID, "comment").send_keys("typed before a reload")
        driver.refresh()
        wait.until(lambda d: d.find_element(By.ID, "draft-status").is_displayed())
        assert driver.find_element(By.CSS_SELECTOR, "input[name=c1]:checked").get_attribute("value") == "no"
        assert driver.find_element(By.ID, "comment").get_attribute("value") == "typed before a reload"
        # someone saves this item meanwhile: the save is refused, and the choices come back on reload
        conn = db.connect(db.db_path(home))
        item_id = item.rsplit("/", 1)[1]
        db.save_judgment(conn, db.Judgment("ben", item_id, "yes", "yes", "absent", "from another tab"), 0)
        conn.close()
        body = driver.find_element(By.TAG_NAME, "body")
        for key in "47s":
            body.send_keys(key)
        wait.until(lambda d: "409" in d.title or "kept" in d.find_element(By.TAG_NAME, "body").text)
        driver.get(item)
        wait.until(lambda d: d.find_element(By.ID, "draft-status").is_displayed())
        assert "Saved (revision 1): C1 yes, C2 yes, C3 absent" in driver.find_element(By.ID, "saved-status").text
        assert driver.find_element(By.CSS_SELECTOR, "input[name=c1]:checked").get_attribute("value") == "no"
        assert driver.find_element(By.ID, "comment").get_attribute("value") == "typed before a reload"
    conn = db.connect(db.db_path(home))
    saved = [db.get_judgment(conn, "ben", i) for i in judged]
    conn.close()
    assert [(s.c1, s.c2, s.c3) for s in saved] == [("yes", "no", "present")] * 5


def test_the_item_list_filters_by_status_and_task(served, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    home, base = served
    conn = db.connect(db.db_path(home))
    rows = db.sample(conn)
    db.save_judgment(conn, db.Judgment("ana", rows[0].item_id, "yes", "yes", "absent", ""), 0)
    conn.close()
    with chrome(tmp_path / "chromium-profile") as driver:
        driver.get(base + "/a/ana/item-list")
        wait = WebDriverWait(driver, 30)
        wait.until(lambda d: d.find_element(By.ID, "list-count").text == f"{len(rows)} of {len(rows)} items")
        Select(driver.find_element(By.ID, "filter-status")).select_by_value("judged")
        wait.until(lambda d: d.find_element(By.ID, "list-count").text == f"1 of {len(rows)} items")
        visible = [li for li in driver.find_elements(By.CSS_SELECTOR, "#item-list li") if li.is_displayed()]
        assert len(visible) == 1 and rows[0].item_id in visible[0].text
        Select(driver.find_element(By.ID, "filter-status")).select_by_value("")
        task = rows[0].item.get("task", "")
        Select(driver.find_element(By.ID, "filter-task")).select_by_value(task)
        expected = sum(1 for r in rows if r.item.get("task", "") == task)
        wait.until(lambda d: d.find_element(By.ID, "list-count").text == f"{expected} of {len(rows)} items")
