"""Report PDFs with reportlab from a ReportSpec; each page rasterised with PyMuPDF and read back."""
from __future__ import annotations

import io
from pathlib import Path

import pymupdf
from PIL import Image as PILImage
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import cm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus.doctemplate import LayoutError
from reportlab.platypus import (
    Image as RLImage, ListFlowable, ListItem, PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle,
)
from xml.sax.saxutils import escape

from mmeb_assets.records.images import FONT_CANDIDATES
from mmeb_assets.records.report_spec import Block, ReportSpec
from mmeb_resources.storage import atomic_write_bytes

_FONT = None


def _font() -> tuple[str, str]:
    """DejaVu when present (covers unicode minus, arrows, accents), else Helvetica."""
    global _FONT
    if _FONT is None:
        _FONT = ("Helvetica", "Helvetica-Bold")
        for path in FONT_CANDIDATES:
            bold = path.replace("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
            if Path(path).exists() and Path(bold).exists():
                pdfmetrics.registerFont(TTFont("MMEBSans", path))
                pdfmetrics.registerFont(TTFont("MMEBSans-Bold", bold))
                _FONT = ("MMEBSans", "MMEBSans-Bold")
                break
    return _FONT


def _styles():
    regular, bold = _font()
    base = getSampleStyleSheet()
    body = base["BodyText"].clone("mmeb_body", fontName=regular, fontSize=10.5, leading=14)
    head = base["Heading1"].clone("mmeb_head", fontName=bold, fontSize=17, leading=21)
    cap = base["BodyText"].clone("mmeb_cap", fontName=regular, fontSize=9, leading=12, textColor=colors.grey)
    return body, head, cap, regular, bold


def _image(path: Path, max_w: float = 15 * cm, max_h: float = 10 * cm) -> RLImage:
    with PILImage.open(path) as probe:
        w, h = probe.size
    scale = min(max_w / w, max_h / h)
    return RLImage(str(path), width=w * scale, height=h * scale)


def _flowables(block: Block, assets: dict[str, Path], styles) -> list:
    body, head, cap, regular, bold = styles
    if block.kind == "heading":
        return [Paragraph(escape(block.text), head), Spacer(1, 6)]
    if block.kind == "paragraph":
        return [Paragraph(escape(block.text), body), Spacer(1, 6)]
    if block.kind == "caption":
        return [Paragraph(escape(block.text), cap), Spacer(1, 10)]
    if block.kind == "bullets":
        return [ListFlowable([ListItem(Paragraph(escape(t), body)) for t in block.items], bulletType="bullet"),
                Spacer(1, 6)]
    if block.kind == "table":
        return _table_flowables(block.header, block.rows, body, regular)
    key = f"{block.kind}:{block.ref}"
    if key in assets:
        return [_image(assets[key]), Spacer(1, 4)]
    return [Paragraph(escape(f"[{block.kind} unavailable: {block.ref}]"), cap)]


MAX_COLUMNS_PER_PART = 8  # a wider table is printed in parts, each repeating the row-label column
TEXT_WIDTH = A4[0] - 4 * cm


def column_parts(n_columns: int, per_part: int = MAX_COLUMNS_PER_PART) -> list[list[int]]:
    """Column indexes of each printed part: the first (row-label) column, then up to per_part - 1 others."""
    if n_columns <= per_part:
        return [list(range(n_columns))]
    rest = list(range(1, n_columns))
    step = per_part - 1
    return [[0, *rest[i:i + step]] for i in range(0, len(rest), step)]


def _table_flowables(header: list[str], rows: list[list[str]], body, regular: str) -> list:
    """Any table as reportlab tables that fit the page: ragged rows padded, wide tables split into
    column parts, a smaller font as columns grow; rows split across pages (repeatRows keeps the header)."""
    width = max([len(header), *(len(r) for r in rows)], default=1) or 1
    grid = [list(r) + [""] * (width - len(r)) for r in [header, *rows]]
    parts = column_parts(width)
    narrow = width <= 6
    style = body if narrow else body.clone("mmeb_cell_small", fontName=regular, fontSize=7.5, leading=9.5)
    out: list = []
    for part in parts:
        cols = len(part)
        first = TEXT_WIDTH * (0.34 if cols > 2 else 0.5) if cols > 1 else TEXT_WIDTH
        widths = [first] + [(TEXT_WIDTH - first) / (cols - 1)] * (cols - 1) if cols > 1 else [TEXT_WIDTH]
        data = [[Paragraph(escape(row[j]), style) for j in part] for row in grid]
        table = Table(data, hAlign="LEFT", repeatRows=1, colWidths=widths)
        commands = [("GRID", (0, 0), (-1, -1), 0.5, colors.grey), ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e1e8f4"))]
        if not narrow:
            commands += [("LEFTPADDING", (0, 0), (-1, -1), 2), ("RIGHTPADDING", (0, 0), (-1, -1), 2)]
        table.setStyle(TableStyle(commands))
        out += [table, Spacer(1, 8)]
    return out


def _table_as_lines(header: list[str], rows: list[list[str]], body) -> list:
    """The last resort for a table no grid can hold (a cell taller than a page): one paragraph per row,
    'column: value; ...', which reportlab can break across pages."""
    out = []
    for row in rows:
        pairs = [f"{h}: {c}" if h else c for h, c in zip(header + [""] * len(row), row)]
        out.append(Paragraph(escape("; ".join(pairs)), body))
    return out + [Spacer(1, 8)]


def _story(spec: ReportSpec, assets: dict[str, Path], styles, tables_as_lines: bool) -> list:
    story: list = []
    for n, page in enumerate(spec.pages):
        if n:
            story.append(PageBreak())
        for block in page.blocks:
            if block.kind == "table" and tables_as_lines:
                story.extend(_table_as_lines(block.header, block.rows, styles[0]))
            else:
                story.extend(_flowables(block, assets, styles))
    return story


def build_pdf(spec: ReportSpec, assets: dict[str, Path], path: Path, *, author: str) -> Path:
    """Write the PDF atomically; reportlab's invariant mode keeps the bytes reproducible."""
    styles = _styles()
    try:
        data = _render(spec, author, _story(spec, assets, styles, tables_as_lines=False))
    except LayoutError:
        data = _render(spec, author, _story(spec, assets, styles, tables_as_lines=True))
    return atomic_write_bytes(path, data)


def _render(spec: ReportSpec, author: str, story: list) -> bytes:
    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4, title=spec.title, author=author, invariant=1,
                            leftMargin=2 * cm, rightMargin=2 * cm, topMargin=2 * cm, bottomMargin=2 * cm)
    doc.build(story)
    return buf.getvalue()


def rasterise(pdf_path: Path, out_dir: Path, stem: str, dpi: int = 100) -> list[tuple[Path, str, tuple[int, int]]]:
    """(png path, page text, pixel size) for every page, read back from the written PDF."""
    pages = []
    with pymupdf.open(pdf_path) as doc:
        for n, page in enumerate(doc, start=1):
            pix = page.get_pixmap(dpi=dpi)
            png = out_dir / f"{stem}_p{n:02d}.png"
            atomic_write_bytes(png, pix.tobytes("png"))
            pages.append((png, page.get_text("text"), (pix.width, pix.height)))
    return pages
