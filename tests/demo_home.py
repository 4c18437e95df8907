"""One materialized demo instance per test session, built the way `make demo` builds it
(the session fixture `demo_home` in conftest.py calls `build_demo_home`)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


# The suite's demo build asks SmolLM2 (about 10 s a question on 2 cores) for 3 sampled questions,
# not `make demo`'s 20: the same graph, a shorter suite.
SUITE_SAMPLE_SIZE = "3"


def demo_env(home: Path) -> dict:
    env = dict(os.environ)
    env.update(MMEB_HOME=str(home), DAGSTER_HOME=str(home / "dagster"), MMEB_MANIFEST="demo",
               HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false",
               MMEB_SAMPLE_SIZE=SUITE_SAMPLE_SIZE)
    env.pop("MMEB_LLM_BACKEND", None)
    return env


def build_demo_home(tmp_path_factory) -> Path:
    """Runs `mmeb demo` into a fresh data home; fails loudly with the CLI's own output."""
    home = tmp_path_factory.mktemp("demo") / "home"
    (home / "dagster").mkdir(parents=True)
    proc = subprocess.run([sys.executable, "-m", "mmeb_assets.cli", "demo"], cwd=REPO, env=demo_env(home),
                          capture_output=True, text=True, timeout=1500)
    (home / "demo.log").write_text(proc.stdout + "\n" + proc.stderr)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-60:])
        pytest.fail(f"mmeb demo failed (rc={proc.returncode}); log in {home / 'demo.log'}:\n{tail}")
    return home
