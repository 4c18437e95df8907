"""Ingestion on real files: the demo seeds round-trip, SPECTER and NIST AI 100-1, the `mmeb ingest` command."""
from __future__ import annotations

import json
import time

import pytest
from PIL import Image

from mmeb_assets.cli import main
from mmeb_assets.seedgen.demo_seeds import demo_seed_spec, write_demo_seed
from mmeb_assets.ingestion.document import ingest_pdf, load_source_document
from mmeb_assets.ingestion.numbers import parse_number

DEMO_IDS = ["aurora-retrieval", "harbor-emissions", "lumen-vision"]


@pytest.mark.parametrize("seed_id", DEMO_IDS)
def test_demo_seed_round_trip(seed_id, tmp_path):
    spec = demo_seed_spec(seed_id)
    pdf = write_demo_seed(seed_id, tmp_path / f"{seed_id}.pdf")
    started = time.perf_counter()
    doc = ingest_pdf(pdf, tmp_path / "out", seed_id)
    print(f"{seed_id}: ingested in {time.perf_counter() - started:.2f} s")
    assert doc.title == spec.title and doc.n_pages == len(doc.pages) >= 2
    assert [t.caption for t in doc.tables] == [t.caption for t in spec.tables]
    for got, want in zip(doc.tables, spec.tables):
        assert got.number == want.number
        assert got.header == want.header
        assert got.rows == want.rows
        assert got.numbers == [[parse_number(c) for c in row] for row in want.rows]
    assert [f.caption for f in doc.figures] == [f.caption for f in spec.figures]
    for got, want in zip(doc.figures, spec.figures):
        assert got.kind == want.kind
        with Image.open(tmp_path / "out" / got.image_path) as image:
            assert image.format == "PNG" and image.width > 200 and image.height > 100
    prose = " ".join(p for s in spec.sections for p in s.body if not p.startswith("[["))
    values = {c.value for c in doc.numeric_claims}
    assert values and all(v in prose for v in values)
    assert load_source_document(tmp_path / "out") == doc


def test_vector_figure_keeps_its_printed_values(tmp_path):
    pdf = write_demo_seed("lumen-vision", tmp_path / "lumen.pdf")
    doc = ingest_pdf(pdf, tmp_path / "out", "lumen-vision")
    figure = doc.figures[0]
    assert figure.kind == "vector"
    page = doc.pages[figure.page - 1]
    x0, y0, x1, y1 = figure.bbox
    inside = " ".join(b.text for b in page.blocks if x0 <= b.bbox[0] and b.bbox[2] <= x1 and y0 <= b.bbox[1] and b.bbox[3] <= y1)
    for value in demo_seed_spec("lumen-vision").figures[0].key_numbers:
        assert value in inside
    # figure values are not taken as prose claims
    assert "61.7" not in {c.value for c in doc.numeric_claims}


def test_ingestion_is_deterministic(tmp_path):
    pdf = write_demo_seed("harbor-emissions", tmp_path / "harbor.pdf")
    ingest_pdf(pdf, tmp_path / "a", "harbor-emissions", display_path="demo_pdfs/harbor-emissions.pdf")
    ingest_pdf(pdf, tmp_path / "b", "harbor-emissions", display_path="demo_pdfs/harbor-emissions.pdf")
    assert (tmp_path / "a/source_document.json").read_bytes() == (tmp_path / "b/source_document.json").read_bytes()
    assert (tmp_path / "a/figures/figure_1.png").read_bytes() == (tmp_path / "b/figures/figure_1.png").read_bytes()


def test_specter_tables_and_figures(specter_pdf, tmp_path):
    doc = ingest_pdf(specter_pdf, tmp_path, "specter")
    assert doc.n_pages == 13
    tables = {t.number: t for t in doc.tables}
    assert sorted(tables) == [1, 2, 3]
    assert tables[1].caption.startswith("Table 1: Results on the SCIDOCS evaluation suite")
    assert tables[2].caption.startswith("Table 2: Ablations")
    assert tables[3].caption == "Table 3: Comparison with task-specific fine-tuning."
    rows = {row[0]: row for row in tables[1].rows}
    assert rows["Random"][1:4] == ["4.8", "9.4", "25.2"]
    assert rows["SPECTER (Ours)"][1] == "82.0" and rows["SPECTER (Ours)"][-1] == "80.0"
    assert rows["SciBERT (2019)"][-1] == "59.6"
    assert rows["Citeomatic (2018)"][8] == "94.1"
    assert tables[1].numbers[0][1] == 4.8
    assert len({len(r) for r in tables[1].rows} | {len(tables[1].header)}) == 1
    assert tables[2].rows[0] == ["SPECTER", "84.2", "88.4", "91.5", "36.9", "80.0"]
    assert tables[3].header[0] == "Training signal" and tables[3].rows[0][0] == "SPECTER"
    figures = {f.number: f for f in doc.figures}
    assert sorted(figures) == [1, 2]
    assert figures[1].caption == "Figure 1: Overview of SPECTER." and figures[1].page == 2
    assert figures[2].caption.startswith("Figure 2: t-SNE visualization") and figures[2].page == 8
    assert figures[2].kind == "raster"
    for figure in figures.values():
        with Image.open(tmp_path / figure.image_path) as image:
            assert image.format == "PNG"


def test_nist_figures_and_tables(nist_pdf, tmp_path):
    doc = ingest_pdf(nist_pdf, tmp_path, "nist-ai-rmf")
    figures = {f.number: f for f in doc.figures}
    assert sorted(figures) == [1, 2, 3, 4, 5]
    assert figures[1].caption.startswith("Fig. 1. Examples of potential harms related to AI systems")
    assert figures[4].caption.startswith("Fig. 4. Characteristics of trustworthy AI systems")
    for figure in figures.values():
        with Image.open(tmp_path / figure.image_path) as image:
            assert image.width > 100 and image.height > 100
    tables = {t.number: t for t in doc.tables}
    assert sorted(tables) == [1, 2, 3, 4]
    assert tables[1].caption == "Table 1: Categories and subcategories for the GOVERN function."
    for table in tables.values():
        assert table.header == ["Categories", "Subcategories"]
        assert len(table.rows) >= 3
    first_cells = " ".join(r[1] for r in tables[2].rows)
    assert "MAP 1.1:" in first_cells and "MAP 2.1:" in first_cells
    assert all(f.page != t.page for f in figures.values() for t in tables.values())


def test_cli_ingest_writes_source_document(tmp_path, capsys):
    pdf = write_demo_seed("aurora-retrieval", tmp_path / "aurora.pdf")
    out = tmp_path / "out"
    assert main(["ingest", str(pdf), "--out", str(out)]) == 0
    data = json.loads((out / "source_document.json").read_text())
    assert data["title"] == demo_seed_spec("aurora-retrieval").title
    assert data["pages"] and data["tables"][0]["caption"].startswith("Table 1:")
    assert data["tables"][0]["header"] == ["Run", "System", "Recall@10", "MRR", "Latency (ms)"]
    assert data["tables"][0]["rows"][4] == ["R5", "Aurora + pruning + rerank", "0.842", "0.611", "47"]
    assert (out / data["figures"][0]["image_path"]).exists()
    assert "2 tables, 2 figures" in capsys.readouterr().out
