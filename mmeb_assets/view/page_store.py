"""Rendered seed pages kept between builds, so a rebuild of the results browser renders only pages it
has not drawn before.

The browser is written afresh each time (a temporary folder swapped in), and every boxed seed page
was drawn and PNG-encoded again: 528 pages, most of `results_view`'s time (py-spy on the 30-project
QA-only rebuild: 68 of its 84 sampled CPU seconds in `render_seed_page`, half of it PNG encoding),
although neither the seed PDFs nor the boxed spans had changed. A rendered page is a function of the
PDF's bytes, the anchor (page, quoted strings, row label, clip), the zoom and the drawing code, so
those are the key (`RENDER` names the drawing code's version); the PNG and its facts are written
atomically under `<home>/cache/seed_pages/`, the facts last, so a half-written entry is a miss.
"""
from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from mmeb_resources.storage import atomic_write_bytes, atomic_write_text

RENDER = "boxed-page-v1"  # bump when the page drawing (box colour, width, zoom handling) changes
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
    """(PDF bytes, anchor, zoom, drawing code) -> the page PNG and its facts (page, boxed, size)."""

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
        atomic_write_text(self.folder / f"{key}.json", json.dumps(facts))
