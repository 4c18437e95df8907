"""Dagster's beta, preview, supersession and deprecation warnings are handled where they arise, not
filtered: loading the project's Definitions and building one seed's first stages through them (the
path of `mmeb build` and of `dagster dev`, which prints them) raises none.

The build runs in a fresh interpreter (tests/warnings_probe.py): decorators warn once, when their
module is imported, and in this process other tests have imported the stage modules already.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
DAGSTER_CATEGORIES = {"BetaWarning", "PreviewWarning", "SupersessionWarning"}


def ours_or_dagsters(warning: dict) -> bool:
    """A Dagster warning class, or a DeprecationWarning raised in Dagster or in this project (Dagster
    raises some of them inside itself on behalf of a decorator of ours: 'OpDefinition.version')."""
    if warning["category"] in DAGSTER_CATEGORIES:
        return True
    path = warning["filename"]
    return "Deprecat" in warning["category"] and (f"{os.sep}dagster" in path or path.startswith(str(REPO)))


def test_loading_and_building_a_seed_raises_no_dagster_warning(mmeb_home):
    env = {**os.environ, "MMEB_HOME": str(mmeb_home), "DAGSTER_HOME": str(mmeb_home / "dagster"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    (mmeb_home / "dagster").mkdir()
    proc = subprocess.run([sys.executable, str(TESTS / "warnings_probe.py"), "harbor-emissions"], cwd=TESTS,
                          env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    probe = json.loads(proc.stdout.strip().splitlines()[-1])
    assert probe["ok"], proc.stderr[-3000:]
    found = [f"{w['category']} at {w['filename']}:{w['lineno']}: {w['message'][:200]}"
             for w in probe["warnings"] if ours_or_dagsters(w)]
    assert found == []
    assert (mmeb_home / "projects" / "harbor-emissions" / "records.jsonl").exists()


def test_the_filter_keeps_what_the_old_graph_raised():
    """The warnings the graph raised before (observable_source_asset, partitioned checks, the
    deprecation Dagster raised for it, Output's data_version) all count; a library's own do not."""
    site = f"{os.sep}site-packages{os.sep}dagster{os.sep}_core{os.sep}"
    raised = [{"category": "BetaWarning", "filename": f"{site}decorator_utils.py"},
              {"category": "PreviewWarning", "filename": f"{site}definitions/decorators/asset_check_decorator.py"},
              {"category": "DeprecationWarning", "filename": f"{site}definitions/external_asset.py"},
              {"category": "BetaWarning", "filename": str(REPO / "mmeb_assets" / "versioning.py")}]
    assert all(ours_or_dagsters(w) for w in raised)
    assert not ours_or_dagsters({"category": "DeprecationWarning", "filename": "/x/site-packages/pydantic/main.py"})
