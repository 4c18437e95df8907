"""The closing lines of a build name only what exists: a report this build did not write is not named."""
from __future__ import annotations

import os
import time

from mmeb_assets.build.outcome import BuildReport
from mmeb_assets.build.summary import closing_lines


def _report_line(home) -> str:
    return next(line for line in closing_lines(BuildReport(seconds=30.0), home) if line.startswith("  report:"))


def test_a_report_the_build_did_not_write_is_not_named_as_written(tmp_path):
    assert "not written" in _report_line(tmp_path)
    leaderboard = tmp_path / "evaluation" / "reports" / "leaderboard.md"
    leaderboard.parent.mkdir(parents=True)
    leaderboard.write_text("# MMEB leaderboard\n")
    old = time.time() - 3600
    os.utime(leaderboard, (old, old))
    assert "from an earlier build" in _report_line(tmp_path)
    os.utime(leaderboard, None)
    assert _report_line(tmp_path).endswith("(`mmeb report` prints it; plots beside it)")
