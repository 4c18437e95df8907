"""The Dagster UI over the materialized demo instance, in headless Chromium: the asset graph shows
every stage, the seed partitions, the model x k grid, and an asset check result."""
from __future__ import annotations

import pytest

from demo_home import REPO, demo_env
from mmeb_assets.manifests import load_manifest
from ui_browser import chrome, dagster_webserver, require_chromium, wait_for_text

pytestmark = [pytest.mark.slow, pytest.mark.browser]
STAGE_ASSETS = ["seed_document", "source_facts", "organization", "event_plan", "records", "qa_items",
                "qa_validated", "benchmark", "corpus", "lance_index", "retrievals", "answers", "judgments",
                "leaderboard"]
STAGE_GROUPS = ["ingestion", "simulation", "records", "qa", "retrieval", "evaluation", "annotation", "operations"]


def _dismiss_welcome(driver) -> None:
    """The UI greets a new profile with a newsletter dialog; 'Skip' closes it for the screenshots."""
    for button in driver.find_elements("xpath", "//button[normalize-space()='Skip']"):
        button.click()


def test_dagster_ui_shows_stages_partitions_grid_and_checks(demo_home, tmp_path):
    require_chromium()
    seeds = load_manifest("demo").ids
    with dagster_webserver(REPO, demo_env(demo_home)) as url, chrome(tmp_path / "profile") as driver:
        driver.get(f"{url}/asset-groups")
        wait_for_text(driver, STAGE_GROUPS, timeout_s=90)
        _dismiss_welcome(driver)
        driver.save_screenshot(str(tmp_path / "asset_graph.png"))

        driver.set_window_size(1600, 3200)  # the catalog renders only the rows in view: show them all
        driver.get(f"{url}/assets")
        wait_for_text(driver, STAGE_ASSETS + ["annotation_judgments"])
        driver.set_window_size(1600, 1000)

        driver.get(f"{url}/assets/records?view=partitions")
        body = wait_for_text(driver, ["Materialized (3)"] + seeds)
        assert "Failed (0)" in body
        driver.save_screenshot(str(tmp_path / "records_partitions.png"))

        driver.get(f"{url}/assets/answers?view=partitions")
        wait_for_text(driver, ["10", "50", "100", "smollm2-135m", "reader-oracle"])
        driver.save_screenshot(str(tmp_path / "answers_grid.png"))

        driver.get(f"{url}/assets/records?view=checks")
        wait_for_text(driver, ["records_event_messages", "records_access", "Succeeded", "Passed"])
        driver.save_screenshot(str(tmp_path / "records_checks.png"))
    assert (tmp_path / "asset_graph.png").stat().st_size > 10_000
