"""The results browser on a large build: how long the leaderboard takes to paint with 5,000 questions,
beside the small demo's.

    MMEB_HOME=<a built demo home> .venv/bin/python bench/bench_view.py [--questions 5000] [--repeats 5]
        [--out DIR] [--screenshots docs/images]

The large build multiplies the demo's: every question (with its answers, judgments and retrievals) is
copied under new ids until there are --questions of them, and the tables are recomputed by the report's
own functions (compute_cells), so each column holds ~28x the questions. Both sites are written by
`write_site` and opened from file:// in headless Chromium; per site it prints the seconds to generate
it, its size, and the median over --repeats fresh loads of: first contentful paint, leaderboard painted
(Tables 5-7 in the DOM and a frame drawn), a 5,000-question slice painted, and a question page painted.
Prints figures only; nothing here asserts on time.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from mmeb_assets.evaluation.report import Run, compute_cells  # noqa: E402
from mmeb_assets.schema.qa import Benchmark  # noqa: E402
from mmeb_assets.schema.records import Corpus  # noqa: E402
from mmeb_assets.view.load import BuildData, IncompleteBuild, RetrieverRun, load_build  # noqa: E402
from mmeb_assets.view.site import write_site  # noqa: E402
from mmeb_resources.storage import default_home  # noqa: E402


def multiplied(data: BuildData, target: int) -> BuildData:
    """The demo's build with every question copied under new ids ('<id>~<copy>') up to `target` questions."""
    copies = -(-target // len(data.items))
    ids = [(copy, item) for copy in range(copies) for item in data.items][:target]
    new_id = {(copy, item.id): item.id if copy == 0 else f"{item.id}~{copy}" for copy, item in ids}
    items = [item.model_copy(update={"id": new_id[(copy, item.id)]}) for copy, item in ids]

    def copied(rows, attribute: str):
        by_id = {}
        for row in rows:
            by_id.setdefault(getattr(row, attribute), row)
        return [by_id[item.id].model_copy(update={attribute: new_id[(copy, item.id)]})
                for copy, item in ids if item.id in by_id]

    runs = [Run(answers=r.answers.model_copy(update={"answers": copied(r.answers.answers, "question_id")}),
                judgments=r.judgments.model_copy(update={"judgments": copied(r.judgments.judgments, "question_id")}),
                group=r.group) for r in data.runs]
    retrievers = [RetrieverRun(name=r.name, submitted=r.submitted,
                               ranked={row.question_id: row for row in copied(list(r.ranked.values()), "question_id")})
                  for r in data.retrievers]
    corpus = Corpus(records=list(data.records.values()), projects=[])
    cells = compute_cells(runs, Benchmark(items=items, projects=sorted({i.project for i in items})), corpus)
    board = data.board.model_copy(update={"cells": cells})
    return BuildData(home=data.home, items=items, records=data.records, board=board, runs=runs,
                     retrievers=retrievers, submitted_cells=[], lineage=data.lineage)


def size_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6


PAINTED = "return document.body.getAttribute('data-painted') === arguments[0] ? MMEB.paintedAt : null;"


def paint_ms(driver, url: str, view: str) -> float:
    """Milliseconds from navigation start to the frame after the view was put in the DOM."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get("about:blank")
    driver.get(url)
    return float(WebDriverWait(driver, 60, poll_frequency=0.02).until(lambda d: d.execute_script(PAINTED, view)))


def screenshots(site: Path, question: str, shots: Path) -> None:
    """The README's two pictures: the leaderboard, and a question page down to its seed page."""
    from test_view_browser import browser

    shots.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, browser(Path(tmp)) as driver:
        driver.set_window_size(1500, 1100)
        paint_ms(driver, (site / "index.html").as_uri() + "#/", "leaderboard")
        driver.save_screenshot(str(shots / "view_leaderboard.png"))
        paint_ms(driver, (site / "index.html").as_uri() + "#/q/" + question, "q")
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(1500, min(int(height) + 40, 4200))
        time.sleep(0.5)
        driver.save_screenshot(str(shots / "view_question.png"))
    from PIL import Image

    for name in ("view_leaderboard.png", "view_question.png"):  # 256 colours: a quarter of the bytes
        with Image.open(shots / name) as image:
            image.convert("RGB").quantize(256).save(shots / name, optimize=True)


def showcase(data: BuildData) -> str:
    """A question worth a picture: a table value asked of a visual record, answered by several runs."""
    modality = {rid: r.modality for rid, r in data.records.items()}
    for item in data.items:
        key = item.derivation.fact_key if item.derivation else ""
        if key.startswith("run_") and any(modality.get(rid) == "visual" for rid in item.evidence):
            return item.id
    return data.items[0].id


def measure(site: Path, repeats: int, question: str) -> dict[str, float]:
    from test_view_browser import browser

    base = (site / "index.html").as_uri()
    results: dict[str, list[float]] = {"fcp": [], "leaderboard": [], "slice": [], "question": []}
    overall = "#/slice?run=" + question
    with tempfile.TemporaryDirectory() as tmp, browser(Path(tmp)) as driver:
        for _ in range(repeats):
            results["leaderboard"].append(paint_ms(driver, base + "#/", "leaderboard"))
            fcp = driver.execute_script("var p = performance.getEntriesByName('first-contentful-paint');"
                                        "return p.length ? p[0].startTime : null;")
            results["fcp"].append(float(fcp or 0))
            results["slice"].append(paint_ms(driver, base + overall, "slice"))
            first = driver.find_element("css selector", "a.qid").text
            results["question"].append(paint_ms(driver, f"{base}#/q/{first}", "q"))
    return {name: statistics.median(values) for name, values in results.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", default=str(default_home()), help="a built demo home (default $MMEB_HOME)")
    parser.add_argument("--questions", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", default=None, help="where the two sites go (default: a temporary folder)")
    parser.add_argument("--screenshots", default=None, help="save the demo's leaderboard and question page here")
    args = parser.parse_args()
    out = Path(args.out or tempfile.mkdtemp(prefix="bench_view_"))
    started = time.perf_counter()
    try:
        demo = load_build(Path(args.home))
    except IncompleteBuild as exc:  # `make bench` on a fresh checkout: nothing built to multiply yet
        print(f"bench_view: skipped, no finished build at {args.home} ({exc}); run `make demo` first")
        return 0
    print(f"read {args.home}: {len(demo.items)} questions, {len(demo.runs)} runs ({time.perf_counter() - started:.1f}s)")
    rows = []
    for label, data in (("demo", demo), (f"x{args.questions}", None)):
        started = time.perf_counter()
        data = data or multiplied(demo, args.questions)
        summary = write_site(data, out / label)
        seconds = time.perf_counter() - started
        run = max(data.runs, key=lambda r: (len(r.answers.answers), r.answers.model))
        if args.screenshots and label == "demo":
            screenshots(summary.out, showcase(data), Path(args.screenshots))
        timings = measure(summary.out, args.repeats, f"{run.answers.model}@{run.answers.k}")
        rows.append((label, len(data.items), seconds, size_mb(summary.out), timings))
    print(f"\nsites under {out} (headless Chromium, file://, median of {args.repeats} loads; ms from navigation)")
    print(f"{'build':<8} {'questions':>9} {'generate s':>10} {'site MB':>8} {'FCP':>7} {'leaderboard':>11} "
          f"{'slice':>7} {'question':>8}")
    for label, n, seconds, mb, t in rows:
        print(f"{label:<8} {n:>9} {seconds:>10.1f} {mb:>8.1f} {t['fcp']:>7.0f} {t['leaderboard']:>11.0f} "
              f"{t['slice']:>7.0f} {t['question']:>8.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
