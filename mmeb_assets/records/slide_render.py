"""Slide images: LibreOffice headless when `soffice` exists, else our pillow renderer of the spec."""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pymupdf
from PIL import Image, ImageDraw

from mmeb_assets.records.images import draw_layout, font, save_png, table_layout
from mmeb_assets.records.text_layout import LINE_GAP, block_height, line_height, wrap
from mmeb_assets.records.slides import DeckSpec, Slide
from mmeb_resources.storage import atomic_write_bytes

SIZE = (1280, 720)


def render_slide(slide: Slide, project_dir: Path) -> Image.Image:
    """The slide at 1280 x 720, taller only when its text needs it: the title and bullets wrap, the
    table is laid out from its text (records/images.table_layout) and scaled down, never cut, when wider
    than the slide."""
    title_font, bullet_font = font(40, bold=True), font(22)
    title_lines = wrap(slide.title, SIZE[0] - 116, title_font)
    bullets = [wrap(f"• {line}", SIZE[0] - 150, bullet_font) for line in slide.bullets]
    table = draw_layout(table_layout("", slide.header, slide.rows, min_width=SIZE[0] - 156)) if slide.header else None
    if table is not None and table.width > SIZE[0] - 140:
        scale = (SIZE[0] - 140) / table.width
        table = table.resize((SIZE[0] - 140, max(1, int(table.height * scale))), Image.LANCZOS)
    y = 40 + block_height(title_lines, title_font) + 40
    top_of_bullets = y
    y += sum(block_height(lines, bullet_font) + 22 for lines in bullets)
    height = max(SIZE[1], y + (table.height + 30 if table is not None else 0) + (120 if slide.image else 0))
    img = Image.new("RGB", (SIZE[0], height), "white")
    draw = ImageDraw.Draw(img)
    draw.rectangle([0, 0, SIZE[0], 8], fill=(74, 111, 165))
    _lines(draw, (58, 40), title_lines, title_font, (20, 20, 20))
    y = top_of_bullets
    for lines in bullets:
        _lines(draw, (78, y), lines, bullet_font, (30, 30, 30))
        y += block_height(lines, bullet_font) + 22
    if table is not None:
        img.paste(table, (62, y + 10))
        y += table.height + 20
    if slide.image and height - y - 20 > 20:
        with Image.open(project_dir / slide.image) as pic:
            pic = pic.convert("RGB")
            scale = min(900 / pic.width, (height - y - 20) / pic.height)
            pic = pic.resize((max(1, int(pic.width * scale)), max(1, int(pic.height * scale))))
            img.paste(pic, ((SIZE[0] - pic.width) // 2, y + 10))
    return img


def _lines(draw: ImageDraw.ImageDraw, at: tuple[float, float], lines: list[str], face, fill) -> None:
    step = line_height(face) + LINE_GAP
    for n, line in enumerate(lines):
        draw.text((at[0], at[1] + n * step), line, fill=fill, font=face)


def render_deck(spec: DeckSpec, pptx_path: Path, project_dir: Path, out_dir: Path, stem: str
                ) -> tuple[list[Path], str]:
    """PNG per slide and the renderer used ('libreoffice' or 'pillow-slide-renderer')."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice:
        paths = _libreoffice(soffice, pptx_path, out_dir, stem, len(spec.slides))
        if paths:
            return paths, "libreoffice"
    paths = []
    for n, slide in enumerate(spec.slides, start=1):
        paths.append(save_png(render_slide(slide, project_dir), out_dir / f"{stem}_s{n:02d}.png"))
    return paths, "pillow-slide-renderer"


def _libreoffice(soffice: str, pptx_path: Path, out_dir: Path, stem: str, n: int) -> list[Path]:
    with tempfile.TemporaryDirectory() as tmp:
        try:
            subprocess.run([soffice, "--headless", "--convert-to", "pdf", "--outdir", tmp, str(pptx_path)],
                           check=True, capture_output=True, timeout=120)
        except (subprocess.SubprocessError, OSError):
            return []
        pdf = Path(tmp) / (pptx_path.stem + ".pdf")
        if not pdf.exists():
            return []
        paths = []
        with pymupdf.open(pdf) as doc:
            if len(doc) != n:
                return []
            for k, page in enumerate(doc, start=1):
                path = out_dir / f"{stem}_s{k:02d}.png"
                atomic_write_bytes(path, page.get_pixmap(dpi=96).tobytes("png"))
                paths.append(path)
        return paths
