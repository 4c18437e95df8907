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

# `make test` runs two pytest-xdist workers. Each gets a data home and Dagster instance of its own, so
# tests that use the default home never share a SQLite instance or a LanceDB table across processes.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if _WORKER:
    _home = Path(os.environ.get("MMEB_HOME", REPO_ROOT / "data")) / f"pytest-{_WORKER}"
    (_home / "dagster").mkdir(parents=True, exist_ok=True)
    os.environ["MMEB_HOME"], os.environ["DAGSTER_HOME"] = str(_home), str(_home / "dagster")


def pytest_itemcollected(item):
    """Under xdist (`--dist loadgroup`): every test that reads the session's demo build runs on one
    worker, so the demo is built once; the others go file by file, so module fixtures are built once.
    (Marked as each item is collected: xdist reads the groups in its own collection_modifyitems.)"""
    uses_demo = "demo_home" in getattr(item, "fixturenames", ()) or item.get_closest_marker("demo_build")
    item.add_marker(pytest.mark.xdist_group("demo_home" if uses_demo else item.nodeid.split("::")[0]))


_CLI_ENV = ("MMEB_MANIFEST", "MMEB_HOME", "MMEB_EXECUTOR", "DAGSTER_HOME")


@pytest.fixture(autouse=True)
def _restore_cli_env():
    """`mmeb ...` run in-process sets these for the Definitions it loads (cli._choose_manifest_and_home);
    put them back after each test, so a manifest chosen by one test never leaks into the next."""
    before = {name: os.environ.get(name) for name in _CLI_ENV}
    yield
    for name, value in before.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


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


@pytest.fixture(scope="session")
def view_site(tmp_path_factory) -> Path:
    """The results browser of a small hand-written build (tests/view_fixture.py), with a system scored by
    `mmeb score`; its home is the site's sibling folder `home`."""
    from view_fixture import build_view_site

    return build_view_site(tmp_path_factory.mktemp("view"))
