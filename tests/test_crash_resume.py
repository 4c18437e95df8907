"""Crash and resume: `mmeb build` SIGKILLed at a named point (mmeb_resources/faults.py), then rerun.

After the rerun every artifact opens, the LanceDB table holds each record exactly once, no question
or answer is repeated or missing, and every output file is byte-identical to a build that was never
interrupted (the offline path is deterministic and carries no wall-clock times; the Dagster
instance, the caches and Lance's UUID-named fragments are compared by content or not at all, see
tests/resume_check.py). Finished partitions are not recomputed: `mmeb build` asks
mmeb_assets/operations/resume.py (Dagster's data-version staleness, plus the stored file and the
blocking checks) before each run, and the instance's materialization counts prove what ran.

Default suite: one kill point (records), starting from a copy of the session's demo build. Heavy
(`pytest -m heavy`): the 4-point matrix from fresh data homes, against a reference built the same
way, with the embedded model on a 3-question sample so the matrix fits in about half an hour.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from resume_check import (KILLED, REPO, artifact_problems, crashed_where, duplicate_ids, index_problems, index_rows,
                          materialization_counts, output_digests, run_build, temp_files)

BUILD = ["build", "--manifest", "demo"]
SEED_PHASE = {"seed_document", "source_facts", "organization", "event_plan", "records", "lance_index",
              "qa_items", "workspace_stats", "qa_validated"}


def assert_same_outputs(home: Path, reference: Path) -> None:
    """Byte-identical outputs, the same index rows, nothing duplicated, everything parseable."""
    assert artifact_problems(home) == []
    assert index_problems(home) == []
    assert duplicate_ids(home) == []
    got, want = output_digests(home, reference), output_digests(reference)
    assert sorted(set(want) - set(got)) == [], "outputs missing after the rerun"
    assert sorted(set(got) - set(want)) == [], "outputs the reference does not have"
    assert [name for name in want if got[name] != want[name]] == [], "outputs that differ from the reference"
    assert index_rows(home) == index_rows(reference)


def _kill_then_rerun(home: Path, crash_at: str, **env: str) -> str:
    rc, out = run_build(home, BUILD, "crashed", crash_at=crash_at, **env)
    assert rc == KILLED, f"the build was not killed (rc={rc}):\n{out[-3000:]}"
    point, _, nth = crash_at.partition("@")
    assert crashed_where(home)[:1] == [f"{point}@{nth or 1}"]
    # Between the crash and the rerun, readers (UI, search, annotation) see only whole files.
    assert artifact_problems(home) == []
    rc, out = run_build(home, BUILD, "rerun", **env)
    assert rc == 0, f"the rerun failed (rc={rc}):\n{out[-4000:]}"
    return out


@pytest.mark.slow
def test_killed_in_records_resumes_without_recomputing(demo_home, tmp_path):
    """One seed's records are undone (their stored output removed, as when a build dies before the IO
    manager writes it); the build is killed inside records rendering, then rerun."""
    home = tmp_path / "home"
    shutil.copytree(demo_home, home, ignore=lambda folder, names: [n for n in names if n.endswith(".log")]
                    if Path(folder) == demo_home else [])
    before = materialization_counts(home)
    (home / "projects" / "lumen-vision" / "records.json").unlink()

    _kill_then_rerun(home, "records")

    assert_same_outputs(home, demo_home)
    assert temp_files(home) == []
    after = materialization_counts(home)
    rerun = {key for key, n in after.items() if n != before.get(key, 0)}
    downstream = {"records", "lance_index", "qa_items", "workspace_stats", "qa_validated"}
    # Exactly the undone partition and what depends on it in its run: other seeds, the merged
    # benchmark, the index of other projects, retrieval and every model x k cell were left alone
    # (their inputs' data versions did not change).
    assert rerun == {(asset, "lumen-vision") for asset in downstream}
    assert all(after[key] == before[key] + 1 for key in rerun)


# --- the same crash without atomic writes ---------------------------------------------------

IN_PLACE_WRITER = """
from pathlib import Path
import mmeb_resources.storage as storage
from mmeb_resources.faults import crash_point


def in_place(path, data):
    \"\"\"What atomic_write_bytes would be without temp + rename: open the target, write, die midway.\"\"\"
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data[: len(data) // 2])
        handle.flush()
        crash_point(f"write:{path.name}")
        handle.write(data[len(data) // 2:])
    return path


storage.atomic_write_bytes = in_place
"""


def _seed_pdf_crash(tmp_path: Path, atomic: bool) -> tuple[Path, Path, int, str]:
    """Kill `mmeb build` while it writes the first demo seed PDF, then rerun its ingestion.

    Without atomic writes the killed write leaves half a PDF at the final name; the rerun finds the
    file present (demo seeds are generated only when missing) and cannot read it."""
    folder = tmp_path / ("atomic" if atomic else "in_place")
    manifest = folder / "manifest" / "demo.yaml"
    manifest.parent.mkdir(parents=True)
    manifest.write_text((REPO / "manifests" / "demo.yaml").read_text())
    home = folder / "home"
    extra = {}
    if not atomic:  # every process of the build (spawned workers too) gets the in-place writer
        (folder / "site").mkdir()
        (folder / "site" / "sitecustomize.py").write_text(IN_PLACE_WRITER)
        extra["PYTHONPATH"] = str(folder / "site")
    args = ["build", "--manifest", str(manifest), "--partition", "aurora-retrieval", "--select", "seed_document"]
    rc, out = run_build(home, args, "crashed", crash_at="write:aurora-retrieval.pdf", **extra)
    assert rc == KILLED and crashed_where(home) == ["write:aurora-retrieval.pdf@1"], out[-3000:]
    rc, out = run_build(home, args, "rerun", **extra)
    return home, manifest.parent / "demo_pdfs" / "aurora-retrieval.pdf", rc, out


@pytest.mark.slow
def test_a_kill_mid_write_is_harmless_only_because_writes_are_atomic(tmp_path):
    from mmeb_assets.seedgen.demo_seeds import render_demo_seed

    home, pdf, rc, out = _seed_pdf_crash(tmp_path, atomic=True)
    assert rc == 0, out[-3000:]
    assert pdf.read_bytes() == render_demo_seed("aurora-retrieval")
    assert artifact_problems(home, extra=[pdf]) == []
    assert len(list(pdf.parent.glob(".aurora-retrieval.pdf.*.tmp"))) == 1  # the killed write's temp file

    home, pdf, rc, out = _seed_pdf_crash(tmp_path, atomic=False)
    assert rc != 0  # the rerun cannot ingest the torn seed PDF
    assert [p.split(":")[0] for p in artifact_problems(home, extra=[pdf])] == [str(pdf)]
    assert pdf.stat().st_size == len(render_demo_seed("aurora-retrieval")) // 2


# --- the 4-point matrix ----------------------------------------------------------------------

MATRIX_ENV = {"MMEB_SAMPLE_SIZE": "3"}
KILL_POINTS = {
    "ingestion@2": "second seed's ingestion: figures written, source_document.json not yet",
    "records@2": "second seed's records: PDFs, slides and images written, records.jsonl not yet",
    "lance@2": "second project's rows committed to LanceDB, text index and asset not yet",
    "answer@8": "answering: the first model x k cell done, the next one half answered",
}


@pytest.fixture(scope="module")
def matrix_reference(tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("reference") / "home"
    rc, out = run_build(home, BUILD, "reference", **MATRIX_ENV)
    assert rc == 0, out[-4000:]
    return home


@pytest.mark.heavy
@pytest.mark.parametrize("crash_at", sorted(KILL_POINTS))
def test_crash_matrix_resumes_to_identical_outputs(matrix_reference, tmp_path, crash_at):
    home = tmp_path / "home"
    _kill_then_rerun(home, crash_at, **MATRIX_ENV)
    assert_same_outputs(home, matrix_reference)
    counts = materialization_counts(home)
    # Nothing materialized twice: what finished before the kill was not recomputed, and what was
    # killed had not been recorded as materialized.
    assert {key: n for key, n in counts.items() if n != 1} == {}
    assert counts.keys() == materialization_counts(matrix_reference).keys()
