"""Bad input: each kind of unusable PDF raises IngestionError naming the file and the reason."""
from __future__ import annotations

import io

import pymupdf
import pytest
from PIL import Image

from mmeb_assets.cli import main
from mmeb_assets.seedgen.demo_seeds import render_demo_seed
from mmeb_assets.ingestion.document import IngestionError, ingest_pdf


def _expect(path, tmp_path, reason):
    with pytest.raises(IngestionError) as info:
        ingest_pdf(path, tmp_path / "out", "bad-seed")
    assert str(path) in str(info.value)
    assert reason in info.value.reason
    assert not (tmp_path / "out" / "source_document.json").exists()
    return info.value


def test_missing_file_names_expected_path(tmp_path):
    error = _expect(tmp_path / "nowhere" / "seed.pdf", tmp_path, "file not found")
    assert "expected" in str(error)


def test_empty_file(tmp_path):
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    _expect(path, tmp_path, "empty file (0 bytes)")


def test_corrupt_file_without_header(tmp_path):
    path = tmp_path / "corrupt.pdf"
    path.write_bytes(b"this is not a PDF at all\n" * 40)
    _expect(path, tmp_path, "corrupt PDF")


def test_corrupt_file_with_header_but_garbage(tmp_path):
    path = tmp_path / "garbage.pdf"
    path.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 8)
    _expect(path, tmp_path, "corrupt PDF")


def test_encrypted_file(tmp_path):
    doc = pymupdf.open(stream=render_demo_seed("lumen-vision"), filetype="pdf")
    path = tmp_path / "encrypted.pdf"
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner")
    _expect(path, tmp_path, "encrypted PDF")


def test_scanned_image_only_file(tmp_path):
    """A page that is one picture of text (as a scanner makes) has no text layer."""
    source = pymupdf.open(stream=render_demo_seed("harbor-emissions"), filetype="pdf")
    scan = pymupdf.open()
    for page in source:
        pixmap = page.get_pixmap(dpi=72)
        png = io.BytesIO(pixmap.tobytes("png"))
        assert Image.open(png).size[0] > 500
        new = scan.new_page(width=page.rect.width, height=page.rect.height)
        new.insert_image(new.rect, stream=png.getvalue())
    path = tmp_path / "scanned.pdf"
    scan.save(path)
    _expect(path, tmp_path, "no text layer")


def test_cli_reports_bad_input(tmp_path, capsys):
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    assert main(["ingest", str(path), "--out", str(tmp_path / "out")]) == 2
    assert f"{path}: empty file" in capsys.readouterr().err
