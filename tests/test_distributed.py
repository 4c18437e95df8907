"""The distributed path for real (heavy, tens of minutes on 2 cores): `tests/distributed_check.py`, as
`make distributed-check` runs it. Skipped with the reason where Postgres or Redis cannot start or the
[celery] extra is not installed."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.heavy
def test_a_killed_celery_worker_loses_nothing_and_outputs_match_the_in_process_build():
    for module in ("dagster_celery", "dagster_postgres", "redis", "psycopg2"):
        pytest.importorskip(module, reason="pip install -e '.[celery]'")
    proc = subprocess.run([sys.executable, str(REPO / "tests" / "distributed_check.py"), "--deadline", "3000"],
                          cwd=REPO, capture_output=True, text=True, timeout=3400)
    lines = proc.stdout.strip().splitlines()
    summary = next((line for line in reversed(lines) if line.startswith("distributed-check:")), "")
    if proc.returncode == 77:
        pytest.skip(summary or "Postgres or Redis could not start")
    assert proc.returncode == 0, f"{summary}\n{proc.stderr[-3000:]}"
    assert summary.startswith("distributed-check: OK") and "outputs identical" in summary
    assert "mid-records" in summary and "mid-lance_index" in summary
