"""Ligature glyphs a CID font's text layer reads as a lone 'i' ('Paciic Islander'): found by their
width and written right wherever ingestion reads the document's text."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from mmeb_assets.ingestion.ligatures import Repairs

CORPUS = Path(os.environ.get("MMEB_TABLE_CORPUS") or Path(__file__).resolve().parents[2] / "corpus")
ICDAR_US = Path(__file__).resolve().parents[2] / "shared" / "icdar2013" / "competition-dataset-us"
# CDC MMWR, set in AGaramond as an Identity-H font (camelot's ICDAR files): the corpus's copy, else ICDAR's
CDC_REPORT = next((d / "us-025.pdf" for d in (CORPUS, ICDAR_US) if (d / "us-025.pdf").is_file()), CORPUS / "us-025.pdf")


def test_repairs_touch_whole_words_only():
    repairs = Repairs()
    repairs.use({"Paciic": "Pacific", "ive": "five"})
    assert repairs.apply("Asian/Paciic Islander, ive states") == "Asian/Pacific Islander, five states"
    assert repairs.apply("a positive, inclusive drive") == "a positive, inclusive drive"
    repairs.use({})
    assert repairs.apply("Paciic") == "Paciic"


@pytest.mark.skipif(not CDC_REPORT.is_file(), reason=f"needs the robustness corpus PDF {CDC_REPORT}")
def test_a_cdc_report_reads_with_its_ligatures(tmp_path):
    from mmeb_assets.ingestion.document import ingest_pdf

    document = ingest_pdf(CDC_REPORT, tmp_path, "cdc")
    text = " ".join(p.text for p in document.pages) + " ".join(t.caption for t in document.tables)
    headers = " ".join(" ".join(p) for t in document.tables for p in t.column_paths)
    assert "Paciic" not in text and "speciic" not in text and "conidence" not in text
    assert "Asian/Pacific Islander" in headers and "age-specific death rates" in text


@pytest.mark.skipif(not (Path(__file__).resolve().parents[2] / "shared" / "seeds").is_dir(), reason="needs ../shared/seeds")
def test_a_document_without_cid_fonts_is_left_alone():
    import pymupdf

    from mmeb_assets.ingestion.ligatures import ligature_repairs

    seed = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "specter-acl2020.pdf"
    assert ligature_repairs(pymupdf.open(seed)) == {}
