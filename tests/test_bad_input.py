"""Bad input, named: one manifest mixing a good demo seed with every kind of bad entry and bad PDF.

Each bad entry is refused with an error that names the manifest (or the PDF) and the field, and the
good seed still builds. The ingestion assets are materialized per partition through Dagster in a
child process, because the partitions come from the manifest active when the definitions load.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest
from PIL import Image

from mmeb_assets.manifests import ManifestError, load_manifest

REPO = Path(__file__).resolve().parents[1]

ENTRIES = """\
seeds:
  - {id: aurora-retrieval, title: Aurora, path: pdfs/aurora.pdf, domain: IR, license: CC0, generator: demo}
  - {id: twin, title: Twin A, path: pdfs/a.pdf, domain: d, license: l}
  - {id: twin, title: Twin B, path: pdfs/b.pdf, domain: d, license: l}
  - {id: no-title, path: pdfs/x.pdf, domain: d, license: l}
  - {title: No id at all, path: pdfs/y.pdf, domain: d, license: l}
  - {id: passwd, title: Outside, path: ../../etc/passwd, domain: d, license: l}
  - {id: odd-archetype, title: Odd, path: pdfs/odd.pdf, domain: d, license: l, archetype: pirate_ship}
  - {id: fake-pdf, title: Fake, path: pdfs/fake.pdf, domain: d, license: l}
  - {id: long-report, title: Long, path: pdfs/long.pdf, domain: d, license: l}
  - {id: scanned, title: Scanned, path: pdfs/scanned.pdf, domain: d, license: l}
  - {id: linked-out, title: Linked, path: pdfs/linked.pdf, domain: d, license: l}
"""

MATERIALIZE = """
import json, sys
import dagster as dg
from mmeb_assets.facts.assets import source_facts
from mmeb_assets.ingestion.assets import seed_document
from mmeb_assets.manifests import load_manifest
from mmeb_resources.io_manager import PydanticJsonIOManager
from mmeb_resources.llm import LLMResource
from mmeb_resources.storage import StorageResource

manifest = load_manifest()
out = {"partitions": manifest.ids, "problems": manifest.problem_lines(), "results": {}}
for key in manifest.ids:
    result = dg.materialize([seed_document, source_facts], partition_key=key, raise_on_error=False,
                            resources={"storage": StorageResource(), "io_manager": PydanticJsonIOManager(),
                                       "llm": LLMResource()})
    failure = next((e for e in result.all_events if e.is_step_failure), None)
    error = ""
    if failure is not None:
        err = failure.step_failure_data.error
        error = (err.cause or err).message
    out["results"][key] = {"ok": result.success, "error": error}
print("RESULT " + json.dumps(out))
"""


def _long_pdf(path: Path, pages: int) -> None:
    doc = pymupdf.open()
    for number in range(pages):
        page = doc.new_page()
        page.insert_text((72, 72), f"Section {number + 1}. Results", fontsize=14)
        for line in range(20):
            page.insert_text((72, 100 + 20 * line), f"Run {number}-{line} reached {70 + line % 9}.{number % 10} "
                             "percent accuracy.", fontsize=10)
    doc.save(path)


def _images_only_pdf(path: Path, images: int) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (200, 150), (90, 120, 200)).save(buffer, format="PNG")
    doc = pymupdf.open()
    for _ in range(images):
        page = doc.new_page()
        page.insert_image(pymupdf.Rect(72, 72, 472, 372), stream=buffer.getvalue())
    doc.save(path)


@pytest.fixture()
def bad_manifest(tmp_path, tmp_path_factory) -> Path:
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    (pdfs / "fake.pdf").write_text("this is a text file with a .pdf name\n")
    _long_pdf(pdfs / "long.pdf", 200)
    _images_only_pdf(pdfs / "scanned.pdf", 50)
    outside = tmp_path_factory.mktemp("outside") / "elsewhere.pdf"  # a real PDF outside the manifest's folder
    _long_pdf(outside, 2)
    (pdfs / "linked.pdf").symlink_to(outside)
    path = tmp_path / "mixed.yaml"
    path.write_text(ENTRIES)
    return path


def _materialize(manifest: Path, home: Path, **env: str) -> dict:
    environ = {**os.environ, "MMEB_MANIFEST": str(manifest), "MMEB_HOME": str(home), **env}
    environ.pop("MMEB_LLM_BACKEND", None)
    proc = subprocess.run([sys.executable, "-c", MATERIALIZE], cwd=REPO, env=environ, capture_output=True,
                          text=True, timeout=900)
    line = next((l for l in proc.stdout.splitlines() if l.startswith("RESULT ")), None)
    assert line, f"rc={proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    return json.loads(line[len("RESULT "):])


def test_manifest_refuses_each_bad_entry_by_file_and_field(bad_manifest):
    manifest = load_manifest(bad_manifest)
    assert [s.id for s in manifest.seeds] == ["aurora-retrieval", "fake-pdf", "long-report", "scanned"]
    lines = "\n".join(manifest.problem_lines())
    for expected in (f"{bad_manifest}: seeds[1].id: duplicate seed id 'twin'",
                     f"{bad_manifest}: seeds[2].id: duplicate seed id 'twin'",
                     f"{bad_manifest}: seeds[3].title: Field required",
                     f"{bad_manifest}: seeds[4].id: Field required",
                     f"{bad_manifest}: seeds[5].path: '../../etc/passwd' points outside the manifest's folder",
                     f"{bad_manifest}: seeds[6].archetype: unknown archetype 'pirate_ship'",
                     f"{bad_manifest}: seeds[10].path: 'pdfs/linked.pdf' is a symbolic link"):
        assert expected in lines
    # Entries with a usable id stay partitions (they fail visibly); the one without an id cannot.
    assert manifest.ids == ["aurora-retrieval", "twin", "no-title", "passwd", "odd-archetype", "fake-pdf",
                            "long-report", "scanned", "linked-out"]
    assert [p.index for p in manifest.unusable] == [4]
    with pytest.raises(ManifestError, match=r"seeds\[5\]\.path"):
        manifest.seed("passwd")
    with pytest.raises(ManifestError, match=r"seeds\[1\]"):
        load_manifest(bad_manifest, strict=True)


def test_outside_paths_need_allowed_roots(tmp_path):
    (tmp_path / "m").mkdir()
    (tmp_path / "elsewhere").mkdir()
    entry = "  - {id: s, title: t, path: ../elsewhere/s.pdf, domain: d, license: l}\n"
    refused = tmp_path / "m" / "refused.yaml"
    refused.write_text("seeds:\n" + entry)
    assert "points outside" in load_manifest(refused).problem_lines()[0]
    allowed = tmp_path / "m" / "allowed.yaml"
    allowed.write_text("allowed_roots: [../elsewhere]\nseeds:\n" + entry)
    assert load_manifest(allowed, strict=True).pdf_path("s") == (tmp_path / "elsewhere" / "s.pdf").resolve()
    not_pdf = tmp_path / "m" / "notpdf.yaml"
    not_pdf.write_text("allowed_roots: [../elsewhere]\nseeds:\n" + entry.replace("s.pdf", "s.txt"))
    assert "is not a .pdf file name" in load_manifest(not_pdf).problem_lines()[0]
    assert load_manifest("shared", strict=True).ids  # ../../shared/seeds is declared there


@pytest.mark.slow
def test_bad_seeds_fail_named_and_the_good_one_builds(bad_manifest, tmp_path):
    out = _materialize(bad_manifest, tmp_path / "home")
    results = out["results"]
    assert results["aurora-retrieval"] == {"ok": True, "error": ""}
    assert (tmp_path / "home" / "projects" / "aurora-retrieval" / "source_facts.json").exists()
    # 200 pages are handled: ingested whole, facts extracted.
    assert results["long-report"]["ok"], results["long-report"]
    manifest_file = str(bad_manifest)
    expected = {
        "twin": (manifest_file, "seeds[1].id", "seeds[2].id", "duplicate seed id"),
        "no-title": (manifest_file, "seeds[3].title", "Field required"),
        "passwd": (manifest_file, "seeds[5].path", "outside the manifest's folder"),
        "odd-archetype": (manifest_file, "seeds[6].archetype", "pirate_ship"),
        "fake-pdf": (str(tmp_path / "pdfs" / "fake.pdf"), "no '%PDF-' header", f"{manifest_file}: seeds[7].path"),
        "scanned": (str(tmp_path / "pdfs" / "scanned.pdf"), "no text layer (0 characters on 50 page(s))",
                    f"{manifest_file}: seeds[9].path"),
        "linked-out": (manifest_file, "seeds[10].path", "'pdfs/linked.pdf' is a symbolic link"),
    }
    for key, parts in expected.items():
        assert not results[key]["ok"], key
        for part in parts:
            assert part in results[key]["error"], (key, part, results[key]["error"])
    assert not (tmp_path / "home" / "projects" / "passwd").exists()
    assert not (tmp_path / "home" / "projects" / "linked-out").exists()
    assert "elsewhere.pdf" not in results["linked-out"]["error"]


@pytest.mark.slow
def test_page_limit_refuses_a_long_pdf_by_name(bad_manifest, tmp_path):
    manifest = bad_manifest.parent / "long_only.yaml"
    manifest.write_text("seeds:\n  - {id: long-report, title: Long, path: pdfs/long.pdf, domain: d, license: l}\n")
    out = _materialize(manifest, tmp_path / "home", MMEB_MAX_SEED_PAGES="150")
    error = out["results"]["long-report"]["error"]
    assert str(bad_manifest.parent / "pdfs" / "long.pdf") in error
    assert "200 pages, more than the limit of 150 (MMEB_MAX_SEED_PAGES)" in error and "seeds[0].path" in error
