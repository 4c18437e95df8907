"""Whole-file checks of written PDFs, PNGs and PPTX decks from their size and a few bytes at each end.

A file cut short (a killed write, a full disk, a copy that stopped) loses its end: a PDF its `%%EOF`
trailer, a PNG its IEND chunk, a PPTX (a zip) its central directory. Reading the first and last
bytes catches that without decoding pixels or parsing pages, so `records_files` no longer opens every
image of a project twice (verify, then reopen for its size): a PNG's size is in its IHDR header.
"""
from __future__ import annotations

import struct
import zipfile
from pathlib import Path

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_IEND = b"\x00\x00\x00\x00IEND\xaeB`\x82"  # an empty IEND chunk with its CRC: the last 12 bytes
PDF_TAIL_BYTES = 1024  # the PDF spec asks readers to look for %%EOF within the last 1,024 bytes
ZIP_EOCD = b"PK\x05\x06"
ZIP_TAIL_BYTES = 22 + 65535  # end-of-central-directory record plus the longest zip comment


class FileProblem(ValueError):
    """A written file that is missing, empty, cut short or not of its kind (message names why)."""


def _ends(path: Path, head: int, tail: int) -> tuple[bytes, bytes, int]:
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise FileProblem("missing") from None
    if size == 0:
        raise FileProblem("empty (0 bytes)")
    with open(path, "rb") as handle:
        first = handle.read(head)
        handle.seek(max(0, size - tail))
        last = handle.read(tail)
    return first, last, size


def png_size(path: Path) -> tuple[int, int]:
    """(width, height) from the IHDR header, after checking the signature and the closing IEND chunk."""
    first, last, size = _ends(path, 24, len(PNG_IEND))
    if not first.startswith(PNG_SIGNATURE) or first[12:16] != b"IHDR":
        raise FileProblem("not a PNG (no PNG signature and IHDR header)")
    if last != PNG_IEND:
        raise FileProblem(f"truncated PNG ({size} bytes, no IEND chunk at the end)")
    return struct.unpack(">II", first[16:24])


def check_pdf(path: Path) -> None:
    """`%PDF-` at the start and `%%EOF` within the last 1,024 bytes."""
    first, last, size = _ends(path, 5, PDF_TAIL_BYTES)
    if first != b"%PDF-":
        raise FileProblem("not a PDF (no %PDF- header)")
    if b"%%EOF" not in last:
        raise FileProblem(f"truncated PDF ({size} bytes, no %%EOF near the end)")


def pptx_slide_count(path: Path) -> int:
    """Slides listed in the zip's central directory (read from the end of the file; no XML parsed)."""
    _first, last, size = _ends(path, 4, ZIP_TAIL_BYTES)
    if ZIP_EOCD not in last:
        raise FileProblem(f"truncated PPTX ({size} bytes, no zip central directory at the end)")
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
    except zipfile.BadZipFile as exc:
        raise FileProblem(f"broken PPTX zip ({exc})") from None
    if "ppt/presentation.xml" not in names:
        raise FileProblem("not a PPTX (no ppt/presentation.xml)")
    return sum(1 for n in names if n.startswith("ppt/slides/slide") and n.endswith(".xml"))
