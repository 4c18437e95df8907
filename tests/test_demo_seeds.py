"""The demo seed generator: deterministic PDFs whose text carries every caption and cell of the spec."""
from __future__ import annotations

import hashlib
import subprocess
import sys

import pymupdf
import pytest

from mmeb_assets.seedgen.demo_seeds import (
    UnknownDemoSeed, demo_seed_ids, demo_seed_spec, ensure_seed_pdf, render_demo_seed, write_demo_seed,
)
from mmeb_assets.manifests import load_manifest

DEMO_IDS = ["aurora-retrieval", "harbor-emissions", "lumen-vision"]


def test_demo_manifest_ids_match_generator():
    assert sorted(load_manifest("demo").ids) == sorted(demo_seed_ids()) == sorted(DEMO_IDS)


@pytest.mark.parametrize("seed_id", DEMO_IDS)
def test_pdf_is_byte_identical_across_processes(seed_id, tmp_path):
    path = write_demo_seed(seed_id, tmp_path / f"{seed_id}.pdf")
    code = (f"import hashlib,sys; from mmeb_assets.seedgen.demo_seeds import render_demo_seed; "
            f"sys.stdout.write(hashlib.sha256(render_demo_seed({seed_id!r})).hexdigest())")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert hashlib.sha256(path.read_bytes()).hexdigest() == other
    assert render_demo_seed(seed_id) == path.read_bytes()


@pytest.mark.parametrize("seed_id", DEMO_IDS)
def test_pdf_text_holds_spec(seed_id, tmp_path):
    spec = demo_seed_spec(seed_id)
    doc = pymupdf.open(write_demo_seed(seed_id, tmp_path / "seed.pdf"))
    text = " ".join(" ".join(page.get_text().split()) for page in doc)
    assert spec.title in text
    for table in spec.tables:
        assert table.caption in text
        for cell in [*table.header, *(c for row in table.rows for c in row)]:
            assert cell in text, cell
    for figure in spec.figures:
        assert figure.caption in text
    raster = [f for f in spec.figures if f.kind == "raster"]
    assert sum(len(page.get_images()) for page in doc) == len(raster)
    # research-style seeds: a progression of runs, an ablation and a chart
    assert len(spec.tables) >= 2 and spec.figures


def test_ensure_writes_only_missing_demo_pdfs(tmp_path):
    manifest = load_manifest("demo")
    entry = manifest.seed("harbor-emissions")
    target = tmp_path / "demo_pdfs" / "harbor-emissions.pdf"
    assert ensure_seed_pdf(entry, target) == target and target.read_bytes()[:5] == b"%PDF-"
    target.write_bytes(b"%PDF-1.4 user copy")
    ensure_seed_pdf(entry, target)
    assert target.read_bytes() == b"%PDF-1.4 user copy"
    real = load_manifest("paper").seeds[0]
    missing = tmp_path / "paper.pdf"
    ensure_seed_pdf(real, missing)
    assert not missing.exists()


def test_unknown_seed_named():
    with pytest.raises(UnknownDemoSeed, match="no-such-seed"):
        demo_seed_spec("no-such-seed")


def test_spec_is_a_copy():
    spec = demo_seed_spec("aurora-retrieval")
    spec.tables[0].rows[0][0] = "changed"
    assert demo_seed_spec("aurora-retrieval").tables[0].rows[0][0] == "R1"
