"""The closing lines of `mmeb build` / `mmeb demo`: where things are, and the overall accuracy."""
from __future__ import annotations

import csv
from pathlib import Path

from mmeb_assets.build.outcome import BuildReport


def overall_accuracy(reports: Path) -> list[str]:
    """Model x k overall accuracy (%) from evaluation/reports/table5.csv, as a small text table."""
    path = reports / "table5.csv"
    if not path.exists():
        return []
    cells: dict[str, dict[str, str]] = {}
    ks: list[str] = []
    with path.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if row.get("column") != "overall":
                continue
            cells.setdefault(row["model"], {})[row["k"]] = f"{float(row['accuracy']):.1f} (n={row['n']})"
            if row["k"] not in ks:
                ks.append(row["k"])
    if not cells:
        return []
    ks.sort(key=int)
    width = max(len(m) for m in cells) + 2
    lines = ["Overall accuracy (%), Table 5 (intervals and per-task columns in leaderboard.md):",
             "  " + "model".ljust(width) + "".join(f"k={k}".ljust(16) for k in ks)]
    lines += ["  " + model.ljust(width) + "".join(by_k.get(k, "-").ljust(16) for k in ks)
              for model, by_k in cells.items()]
    return lines


def _site_lines(home: Path) -> list[str]:
    """The results browser (the `results_view` asset), when the build wrote it."""
    index = home / "view" / "index.html"
    if not index.exists():
        return []
    return [f"  results:    {index.as_uri()} (open it in a browser; `mmeb view --serve` serves it on 127.0.0.1)"]


def _report_line(report: BuildReport, leaderboard: Path) -> str:
    """Where the report is, only when it exists and this build did not stop before writing it."""
    import time

    fresh = leaderboard.exists() and leaderboard.stat().st_mtime >= time.time() - report.seconds - 5
    if fresh:
        return f"  report:     {leaderboard} (`mmeb report` prints it; plots beside it)"
    if leaderboard.exists():
        return f"  report:     not written by this build; {leaderboard} is from an earlier build"
    return "  report:     not written (the build stopped before the leaderboard, or did not select it)"


def closing_lines(report: BuildReport, home: Path) -> list[str]:
    lines = [report.summary()]
    seeds, cells = report.left_out_of("seed"), report.left_out_of("cell")
    if seeds and not report.stopped:
        lines.append(f"Aggregates were built without the failed seed(s): {', '.join(seeds)}")
    if cells:
        lines.append(f"Failed evaluation cell(s) (k|model), left out of the report: {', '.join(cells)}")
    reports = home / "evaluation" / "reports"
    lines += [f"Outputs under {home}:", _report_line(report, reports / "leaderboard.md"),
              f"  benchmark:  {home / 'benchmark'}/questions.jsonl, questions.parquet, stats/",
              f"  projects:   {home / 'projects'}/<seed>/ records.jsonl, questions.jsonl, docs, slides, images",
              f"  build log:  {report.log_file}",
              *_site_lines(home),
              f"  UI:         `MMEB_HOME={home} make ui` (or `DAGSTER_HOME={home / 'dagster'} .venv/bin/dagster dev "
              f"-w workspace.yaml`), http://127.0.0.1:3000: these runs, lineage, checks"]
    return lines + overall_accuracy(reports)
