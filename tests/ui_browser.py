"""Headless Chromium for UI tests: Debian's chromium and chromedriver, driven by Selenium."""
from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM_FLAGS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--window-size=1600,1000",
)


def require_chromium() -> tuple[str, str]:
    browser, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not browser or not driver:
        pytest.skip("headless Chromium not installed (apt-get install chromium chromium-driver)")
    pytest.importorskip("selenium", reason="selenium not installed")
    return browser, driver


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_http(url: str, timeout_s: float = 120.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(1.0)
    raise TimeoutError(f"{url} did not answer within {timeout_s:.0f}s")


@contextmanager
def chrome(user_data_dir: Path, *extra_flags: str, capabilities: dict | None = None):
    """Headless Chromium with the project's flags; `capabilities` e.g. keep the console log
    ({"goog:loggingPrefs": {"browser": "ALL"}})."""
    browser, driver_path = require_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = browser
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={user_data_dir}")
    for flag in extra_flags:  # '--host-resolver-rules=MAP rebind.test 127.0.0.1': a rebound name
        options.add_argument(flag)
    for name, value in (capabilities or {}).items():
        options.set_capability(name, value)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def wait_for_text(driver, needles: list[str], timeout_s: float = 60.0) -> str:
    """Poll the page body until every needle shows (the Dagster UI renders after GraphQL calls)."""
    deadline = time.monotonic() + timeout_s
    body = ""
    while time.monotonic() < deadline:
        body = driver.find_element("tag name", "body").text
        if all(n in body for n in needles):
            return body
        time.sleep(1.0)
    missing = [n for n in needles if n not in body]
    raise AssertionError(f"page {driver.current_url} never showed {missing}; it showed:\n{body[:2000]}")


@contextmanager
def dagster_webserver(repo: Path, env: dict):
    port = free_port()
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "dagster-webserver"), "-w", "workspace.yaml", "-h", "127.0.0.1",
         "-p", str(port)], cwd=repo, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        wait_http(f"http://127.0.0.1:{port}/server_info")
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
