"""The `records_files` check on a built home: its ruled tables found from the ruling alone (what the
check does) against PyMuPDF's layout model first (what it did), measured in the same run.

Usage: .venv/bin/python bench/bench_files_check.py --home <a built MMEB_HOME> [--projects N]

Prints seconds per variant over the same projects, their ratio, and whether the findings are the
same (both should report nothing on a sound build). The layout variant runs second, so the ruling
variant pays any first-use cost of PyMuPDF.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def _projects(home: Path, limit: int | None) -> list[Path]:
    found = sorted(p for p in (home / "projects").iterdir() if (p / "records.json").exists())
    return found[:limit] if limit else found


def _run(projects: list[Path], use_layout: bool) -> tuple[float, list[str]]:
    import pymupdf

    from mmeb_assets.records.checks_files import check_files
    from mmeb_resources.io_manager import _load

    original = pymupdf.Page.find_tables

    def find_tables(page, **kwargs):
        kwargs["use_layout"] = use_layout
        return original(page, **kwargs)

    pymupdf.Page.find_tables = find_tables
    try:
        findings: list[str] = []
        seconds = 0.0
        for project in projects:
            records, plan = _load(project / "records.json"), _load(project / "event_plan.json")
            started = time.perf_counter()
            findings += check_files(records, plan, project)
            seconds += time.perf_counter() - started
        return seconds, findings
    finally:
        pymupdf.Page.find_tables = original


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", required=True, type=Path)
    parser.add_argument("--projects", type=int, default=None, help="only the first N projects")
    args = parser.parse_args()
    projects = _projects(args.home, args.projects)
    if not projects:
        print(f"bench_files_check: no built project under {args.home / 'projects'}", file=sys.stderr)
        return 2
    ruling, found_ruling = _run(projects, use_layout=False)
    layout, found_layout = _run(projects, use_layout=True)
    print(f"records_files check over {len(projects)} projects of {args.home}")
    print(f"  tables from the ruling alone (now)      {ruling:7.2f} s   findings {len(found_ruling)}")
    print(f"  layout model first (before)             {layout:7.2f} s   findings {len(found_layout)}")
    print(f"  ratio before / now                      {layout / max(ruling, 1e-9):7.1f}x")
    print(f"  same findings: {sorted(found_ruling) == sorted(found_layout)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
