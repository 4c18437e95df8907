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
        data = [[Paragraph(escape(c), body) for c in row] for row in [block.header] + block.rows]
        cols = max(len(block.header), 1)
        width = A4[0] - 4 * cm
        first = width * (0.34 if cols > 2 else 0.5)
        widths = [first] + [(width - first) / max(cols - 1, 1)] * (cols - 1) if cols > 1 else [width]
        table = Table(data, hAlign="LEFT", repeatRows=1, colWidths=widths)
        table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
                                   ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e1e8f4"))]))
        return [table, Spacer(1, 8)]
    key = f"{block.kind}:{block.ref}"
    if key in assets:
        return [_image(assets[key]), Spacer(1, 4)]
    return [Paragraph(escape(f"[{block.kind} unavailable: {block.ref}]"), cap)]


def build_pdf(spec: ReportSpec, assets: dict[str, Path], path: Path, *, author: str) -> Path:
    """Write the PDF atomically; reportlab's invariant mode keeps the bytes reproducible."""
    styles = _styles()
    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4, title=spec.title, author=author, invariant=1,
                            leftMargin=2 * cm, rightMargin=2 * cm, topMargin=2 * cm, bottomMargin=2 * cm)
    story: list = []
    for n, page in enumerate(spec.pages):
        if n:
            story.append(PageBreak())
        for block in page.blocks:
            story.extend(_flowables(block, assets, styles))
    doc.build(story)
    return atomic_write_bytes(path, buf.getvalue())


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
