"""Seed pages and located spans kept between builds, so a rebuild of the results browser draws only
pages it has not drawn before and opens no PDF whose spans it has located.

The browser is written afresh each time (a temporary folder swapped in). It used to draw and
PNG-encode every boxed span again (528 pages on the 30 scale projects, 68 of 84 sampled CPU seconds of
a QA-only rebuild), although neither the seed PDFs nor the spans had changed. Now a page is drawn once,
unboxed (48 pages there), and the browser draws the boxes over it. A drawn page is a function of the
PDF's bytes, the page number, the zoom and the drawing code; a located span of the PDF's bytes and the
anchor (page, quoted strings, row label, clip). Those are the keys (`RENDER` names the code's version);
the PNG and its facts are written atomically under `<home>/cache/seed_pages/`, the facts last, so a
half-written entry is a miss.
"""
from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from mmeb_resources.storage import atomic_write_bytes, atomic_write_text

RENDER = "page-v2"  # bump when the page drawing or the span location changes
_DIGESTS: dict[tuple, str] = {}


def pdf_digest(pdf: Path) -> str:
    """sha256 of the PDF's bytes, remembered per (path, size, mtime) in this process."""
    stat = pdf.stat()
    memo = (str(pdf), stat.st_size, stat.st_mtime_ns)
    if memo not in _DIGESTS:
        digest = hashlib.sha256()
        with open(pdf, "rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
        _DIGESTS[memo] = digest.hexdigest()
    return _DIGESTS[memo]


class PageStore:
    """(PDF bytes, page or anchor, zoom, drawing code) -> a page's PNG and size, or a span's page and boxes."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def key(self, pdf: Path, anchor_fields: list, zoom: float) -> str:
        import pymupdf

        payload = [RENDER, pymupdf.VersionBind, pdf_digest(pdf), anchor_fields, zoom]
        return hashlib.sha256(json.dumps(payload).encode("utf-8")).hexdigest()

    def get(self, key: str, target: Path) -> dict | None:
        """The stored facts, with the PNG copied to `target`; None when not stored (or half stored)."""
        facts, png = self.folder / f"{key}.json", self.folder / f"{key}.png"
        if not facts.exists() or not png.exists():
            return None
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(png, target)
        return json.loads(facts.read_text(encoding="utf-8"))

    def put(self, key: str, png: bytes, facts: dict) -> None:
        atomic_write_bytes(self.folder / f"{key}.png", png)
        self.put_facts(key, facts)

    def facts(self, key: str) -> dict | None:
        """Facts stored without a PNG (a located span), or None."""
        path = self.folder / f"{key}.json"
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None

    def put_facts(self, key: str, facts: dict) -> None:
        atomic_write_text(self.folder / f"{key}.json", json.dumps(facts))
