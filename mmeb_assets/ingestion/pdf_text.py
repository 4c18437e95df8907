"""Opening a PDF safely, page text and blocks, and the 'Table N' / 'Figure N' captions on each page."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from mmeb_assets.ingestion.ligatures import ACTIVE, ligature_repairs
from mmeb_assets.schema.source import PageText, TextBlock

MIN_TEXT_CHARS_PER_DOC = 40
MIN_TEXT_CHARS_PER_PAGE = 8
DEFAULT_MAX_PAGES = 500  # a 200-page report ingests in seconds; beyond this, refuse rather than grind
LIGATURES = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl", "\u00ad": ""}
CAPTION_RE = re.compile(r"^(?P<kind>Table|TABLE|tABLE|Exhibit|EXHIBIT|Figure|FIGURE|fIGURE|Fig\.)(?::(?=\s*\d))?\s*"
                        r"(?P<prefix>[A-Z]{1,3}[-.–]?)?(?P<number>\d{1,3})(?P<letter>[a-z](?![a-z]))?"
                        r"(?:(?P<sub>(?:\.\s?|[-–])\d{1,2}(?!\d))(?:\s*[:.|\-–—]\s*\S|\s+[A-Z0-9“\"(])"
                        r"|\s*(?P<delim>[:.|])(?!\d)\s*\S"
                        r"|\s+[-–—]\s+[A-Z0-9“\"(]"  # 'Table 3 - European ABCP issuance'
                        r"|\s+(?=[A-Z“\"][a-z])(?<=[A-Za-z0-9]\s)(?P<bare>))")  # 'Exhibit 19 Percentage of Schools'
UNNUMBERED_TABLE_RE = re.compile(r"^(?:TABLE|tABLE)\.\s+[A-Z][a-z]")  # 'TABLE. Inequality in income ...' (MMWR)
REPEATED_LEAD = re.compile(r"(?<=\n)\s*(?:Table|tABLE|Exhibit|Figure)\s*\d+(?:[.\-–]\d+)?[.:]?[—–-]?\s*")
NUMBER_CELL = re.compile(r"^[-+−]?\$?\d[\d,]*(?:\.\d+)?\s?%?$")
SECTION_HEADING_RE = re.compile(r"^(\d+(\.\d+)*\.?\s+)?[A-Z][\w\- ,&:/()]{0,70}$")


class IngestionError(ValueError):
    """A seed PDF that cannot be ingested; the message names the file and the reason."""

    def __init__(self, path: Path | str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason


def normalize_text(text: str) -> str:
    """Ligatures to letters, soft hyphens dropped, the open document's misread ligature words written
    right ('Paciic' -> 'Pacific'); everything else exactly as printed."""
    for char, replacement in LIGATURES.items():
        text = text.replace(char, replacement)
    return ACTIVE.apply(text)


def squash(text: str) -> str:
    """Lines joined with single spaces (a caption or a sentence as one string)."""
    return " ".join(normalize_text(text).split())


def max_pages() -> int:
    """Seed page limit: MMEB_MAX_SEED_PAGES, else DEFAULT_MAX_PAGES."""
    value = os.environ.get("MMEB_MAX_SEED_PAGES", "").strip()
    if not value:
        return DEFAULT_MAX_PAGES
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"MMEB_MAX_SEED_PAGES={value!r}: expected a whole number of pages")
    return int(value)


def open_pdf(path: Path) -> pymupdf.Document:
    """Open a seed PDF or raise IngestionError: missing, empty, corrupt, encrypted, or without text."""
    path = Path(path)
    if not path.exists():
        raise IngestionError(path, "file not found (expected the seed PDF at this path)")
    if not path.is_file():
        raise IngestionError(path, "not a regular file")
    if path.stat().st_size == 0:
        raise IngestionError(path, "empty file (0 bytes)")
    with open(path, "rb") as handle:
        head = handle.read(1024)
    if b"%PDF-" not in head:
        raise IngestionError(path, "corrupt PDF: no '%PDF-' header in the first 1024 bytes")
    try:
        doc = pymupdf.open(path, filetype="pdf")
    except Exception as exc:  # pymupdf raises FileDataError/RuntimeError with a MuPDF message
        raise IngestionError(path, f"corrupt PDF: {exc}") from exc
    if doc.needs_pass:
        doc.close()
        raise IngestionError(path, "encrypted PDF: a password is needed to read it")
    if doc.page_count == 0:
        doc.close()
        raise IngestionError(path, "corrupt PDF: no pages could be read")
    limit = max_pages()
    if doc.page_count > limit:
        pages = doc.page_count
        doc.close()
        raise IngestionError(path, f"{pages} pages, more than the limit of {limit} (MMEB_MAX_SEED_PAGES): "
                                   "use a shorter excerpt as the seed, or raise the limit")
    try:
        chars = sum(len(page.get_text().strip()) for page in doc)
    except Exception as exc:
        doc.close()
        raise IngestionError(path, f"corrupt PDF: page content unreadable ({exc})") from exc
    n_pages = doc.page_count
    if chars < max(MIN_TEXT_CHARS_PER_DOC, MIN_TEXT_CHARS_PER_PAGE * n_pages):
        doc.close()
        raise IngestionError(path, f"no text layer ({chars} characters on {n_pages} page(s)): a scanned or "
                                   "image-only PDF; run OCR on it first (e.g. ocrmypdf)")
    ACTIVE.use(ligature_repairs(doc))  # this document's 'fi' glyphs read as a lone 'i' ('Paciic')
    return doc


@dataclass(frozen=True)
class Caption:
    kind: str  # "table" | "figure"
    number: int
    text: str
    page: int  # 1-based
    bbox: tuple[float, float, float, float]
    vertical: bool = False
    label: str = ""  # as numbered: '3', '6_1' (Table 6.1), '2_1' (Table 2-1)

    @property
    def continued(self) -> bool:
        return "(continued)" in self.text.lower()


def _block_kind(text: str, caption: bool) -> str:
    if caption:
        return "caption"
    one_line = " ".join(text.split())
    if "\n" not in text.strip() and len(one_line) < 70 and SECTION_HEADING_RE.match(one_line) and not one_line.endswith("."):
        return "heading"
    return "text"


def _caption_of(text: str) -> tuple[str, int, str] | None:
    """('table'|'figure', number) when a block starts with a caption; list-of-figures entries are not."""
    flat = squash(text)
    match = CAPTION_RE.match(flat)
    if not match:
        return ("table", 0, "") if UNNUMBERED_TABLE_RE.match(flat) else None
    starts = set(re.findall(r"(?:^|\n)\s*(?:Table|tABLE|Exhibit|Figure|fIGURE|Fig\.)\s*(\d+)", text))
    if len(starts) > 1 or re.search(r"(\.\s?){4,}\s*\d+", flat):
        return None  # a list of tables/figures, or a TOC line with dot leaders
    kind = "table" if match.group("kind").lower().startswith(("tab", "exh")) else "figure"  # 'Exhibit 2.2': a report's table
    if match.group("bare") is not None and len(flat.split("\n", 1)[0].split()) > 25:
        return None  # a paragraph that opens with 'Table 2 The ...' reads on; a caption line is short
    sub = re.sub(r"[\s.–-]", "", match.group("sub") or "")
    number = "".join(re.sub(r"[-.–]", "", match.group(g) or "") for g in ("prefix", "number", "letter"))
    return kind, int(match.group("number")), f"{number}_{sub}" if sub else number


def _caption_block(page: pymupdf.Page, text: str, bbox: tuple) -> tuple[str, tuple]:
    """The caption's own lines of a text block that also holds the table's first header row ('Table
    7.5 Comparisons of C5 ...' over 'Our estimates  LDA  PBUK'): a caption line after the first is
    one run of words aligned with it, hanging under it or centred with it."""
    rows: list[list] = []
    for block in page.get_text("dict", clip=pymupdf.Rect(bbox))["blocks"]:
        for line in block.get("lines", []):
            x0, y0, x1, y1 = line["bbox"]
            words = "".join(span["text"] for span in line["spans"]).strip()
            if not words:
                continue
            if rows and abs((y0 + y1) / 2 - rows[-1][0]) < 0.4 * (y1 - y0):
                rows[-1][1].append((x0, y0, x1, y1, words))
            else:
                rows.append([(y0 + y1) / 2, [(x0, y0, x1, y1, words)]])
    if len(rows) < 2 or len(rows[0][1]) != 1:
        return text, bbox
    first = rows[0][1][0]
    kept = [first]
    for _y, pieces in rows[1:]:
        x0, _y0, x1, _y1, _words = pieces[0]
        one_run = len(pieces) == 1
        aligned = x0 >= first[0] - 3 or abs((x0 + x1) / 2 - (first[0] + first[2]) / 2) < 6
        if not (one_run and aligned):
            break
        kept.append(pieces[0])
    if len(kept) == len(rows):
        return text, bbox
    box = (min(k[0] for k in kept), min(k[1] for k in kept), max(k[2] for k in kept), max(k[3] for k in kept))
    return "\n".join(k[4] for k in kept), box


def _trailing_caption(page: pymupdf.Page, text: str, bbox: tuple) -> tuple[tuple, tuple] | None:
    """((table text, box), (caption, box)) for a block whose rows of numbers run on into the caption
    printed under them ('Paper Opens 77 48 ...' then 'Table 2: Usage statistics ...', one block):
    a line that opens with a caption after at least three lines, most of them holding two numbers."""
    lines = text.split("\n")
    at = next((i for i, line in enumerate(lines) if i >= 3 and CAPTION_RE.match(line.strip())), None)
    if at is None or _caption_of("\n".join(lines[at:])) is None:
        return None
    rows = [line.strip() for line in lines[:at] if line.strip()]
    numeric = [line for line in rows if len(re.findall(r"\d+(?:[.,]\d+)?", line)) >= 2 or NUMBER_CELL.match(line)]
    if len(numeric) < 0.4 * len(rows):  # rows of values (or one value per line, cell by cell), not prose
        return None
    caption_y = None
    boxes: list[list[float]] = [[], []]
    for block in page.get_text("dict", clip=pymupdf.Rect(bbox))["blocks"]:
        for line in block.get("lines", []):
            words = "".join(span["text"] for span in line["spans"]).strip()
            if caption_y is None and words and CAPTION_RE.match(words) and words.split()[:2] == lines[at].split()[:2]:
                caption_y = line["bbox"][1]
            boxes[caption_y is not None].append(line["bbox"])
    if caption_y is None or not boxes[0]:
        return None
    box = [tuple(f(b[k] for b in part) for k, f in enumerate((min, min, max, max))) for part in boxes]
    return ("\n".join(lines[:at]), box[0]), ("\n".join(lines[at:]), box[1])


def read_pages(doc: pymupdf.Document) -> tuple[list[PageText], list[Caption]]:
    """Every page's text and blocks (kind: text, heading, caption) and the captions found."""
    pages: list[PageText] = []
    captions: list[Caption] = []
    for page in doc:
        number = page.number + 1
        blocks: list[TextBlock] = []
        for x0, y0, x1, y1, text, _no, block_type in page.get_text("blocks", sort=False):
            if block_type != 0 or not text.strip():
                continue
            found = _caption_of(text)
            if found:
                text, (x0, y0, x1, y1) = _caption_block(page, text, (x0, y0, x1, y1))
            elif split := _trailing_caption(page, text, (x0, y0, x1, y1)):
                (above, above_box), (text, (x0, y0, x1, y1)) = split
                blocks.append(TextBlock(page=number, bbox=tuple(round(v, 2) for v in above_box),
                                        text=normalize_text(above).strip(), kind="text"))
                found = _caption_of(text)
            bbox = (round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2))
            blocks.append(TextBlock(page=number, bbox=bbox, text=normalize_text(text).strip(),
                                    kind=_block_kind(text, found is not None)))
            if found:
                vertical = (x1 - x0) < 0.3 * (y1 - y0) and (y1 - y0) > 60
                text = REPEATED_LEAD.sub(" ", text.strip())  # 'Table 4.—' again on each line of one caption, not the first
                label = found[2] or ("" if found[1] else f"u{number}_{sum(c.page == number for c in captions) + 1}")
                captions.append(Caption(kind=found[0], number=found[1], text=squash(text), page=number,
                                        bbox=bbox, vertical=vertical, label=label))
        pages.append(PageText(page=number, text=normalize_text(page.get_text()), blocks=blocks))
    return pages, captions


def guess_title(doc: pymupdf.Document) -> str:
    """Metadata title when it looks real, else the largest-font line on page 1."""
    meta = (doc.metadata or {}).get("title", "") or ""
    if len(meta.strip()) > 3 and not meta.lower().endswith((".pdf", ".doc", ".docx")) and meta.lower() != "untitled":
        return squash(meta)
    best: tuple[float, str] = (0.0, "")
    for block in doc[0].get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            text = "".join(span["text"] for span in line["spans"]).strip()
            size = max((span["size"] for span in line["spans"]), default=0)
            if len(text) > 3 and size > best[0]:
                best = (size, text)
    return squash(best[1]) or "Untitled document"
