"""Shared fixtures: a temporary data home for every test, and the real seed PDFs when present."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# CI (and `HYPOTHESIS_PROFILE=ci`) runs every property test on a fixed sequence of examples, so a
# green run is repeatable; locally the examples are random and failures are remembered.
settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_SEEDS = REPO_ROOT.parent / "shared" / "seeds"


@pytest.fixture()
def mmeb_home(tmp_path, monkeypatch) -> Path:
    """A fresh data home; MMEB_HOME points at it for the test's duration."""
    home = tmp_path / "mmeb_home"
    home.mkdir()
    monkeypatch.setenv("MMEB_HOME", str(home))
    return home


def shared_seed(name: str) -> Path:
    path = SHARED_SEEDS / name
    if not path.exists():
        pytest.skip(f"real seed PDF not available: {path} (../shared/seeds is absent)")
    return path


@pytest.fixture()
def specter_pdf() -> Path:
    return shared_seed("specter-acl2020.pdf")


@pytest.fixture()
def nist_pdf() -> Path:
    return shared_seed("nist-ai-100-1.pdf")


@pytest.fixture(scope="session")
def demo_home(tmp_path_factory) -> Path:
    """The demo graph materialized once per session (`mmeb demo` in a subprocess, fresh data home)."""
    from demo_home import build_demo_home

    return build_demo_home(tmp_path_factory)
