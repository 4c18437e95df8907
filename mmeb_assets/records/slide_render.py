"""Slide images: LibreOffice headless when `soffice` exists, else our pillow renderer of the spec."""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pymupdf
from PIL import Image, ImageDraw

from mmeb_assets.records.images import font, save_png
from mmeb_assets.records.slides import DeckSpec, Slide
from mmeb_resources.storage import atomic_write_bytes

SIZE = (1280, 720)


def _fit(text: str, width: float, size: int, bold: bool = False) -> str:
    """Shorten to the pixel width with an ellipsis (the slide text itself is kept in full)."""
    f = font(size, bold)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def render_slide(slide: Slide, project_dir: Path) -> Image.Image:
    img = Image.new("RGB", SIZE, "white")
    draw = ImageDraw.Draw(img)
    draw.rectangle([0, 0, SIZE[0], 8], fill=(74, 111, 165))
    draw.text((58, 40), slide.title, fill=(20, 20, 20), font=font(40, bold=True))
    y = 150
    for line in slide.bullets:
        draw.text((78, y), _fit(f"• {line}", SIZE[0] - 150, 22), fill=(30, 30, 30), font=font(22))
        y += 46
    if slide.header:
        y += 10
        cols = len(slide.header)
        width = (SIZE[0] - 160) / cols
        for r, row in enumerate([slide.header] + slide.rows):
            fill = (225, 232, 244) if r == 0 else (250, 250, 250)
            draw.rectangle([78, y, SIZE[0] - 78, y + 40], fill=fill, outline=(190, 190, 190))
            for c, cell in enumerate(row):
                draw.text((88 + c * width, y + 9), _fit(cell, width - 16, 18, r == 0), fill=(0, 0, 0),
                          font=font(18, bold=r == 0))
            y += 40
    if slide.image:
        with Image.open(project_dir / slide.image) as pic:
            pic = pic.convert("RGB")
            scale = min(900 / pic.width, (SIZE[1] - y - 20) / pic.height)
            pic = pic.resize((max(1, int(pic.width * scale)), max(1, int(pic.height * scale))))
            img.paste(pic, ((SIZE[0] - pic.width) // 2, y + 10))
    return img


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
