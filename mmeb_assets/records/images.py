"""Standalone chart and table images drawn with pillow from structured values (deterministic PNG)."""
from __future__ import annotations

import textwrap

import io
import re
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from mmeb_resources.storage import atomic_write_bytes

VALUE_FONT_PX = 16   # values are drawn at least this tall (em size in pixels): legible to OCR and to a VLM
LABEL_FONT_PX = 14
FONT_CANDIDATES = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                   "/usr/share/fonts/dejavu/DejaVuSans.ttf"]


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> ImageFont.ImageFont:
    for path in FONT_CANDIDATES:
        candidate = path.replace("DejaVuSans.ttf", "DejaVuSans-Bold.ttf") if bold else path
        if Path(candidate).exists():
            return ImageFont.truetype(candidate, size)
    return ImageFont.load_default(size=size)


def png_bytes(img: Image.Image) -> bytes:
    """PNG with no text chunks or timestamps, so equal pixels give equal bytes."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False, compress_level=6)
    return buf.getvalue()


def save_png(img: Image.Image, path: Path) -> Path:
    return atomic_write_bytes(path, png_bytes(img))


def parse_number(value: str) -> float | None:
    match = re.search(r"[-−]?\d[\d,]*\.?\d*", value)
    if not match:
        return None
    try:
        return float(match.group(0).replace(",", "").replace("−", "-"))
    except ValueError:
        return None


def bar_chart(title: str, labels: list[str], values: list[str], *, size=(800, 500)) -> Image.Image:
    """Bars with the printed value above each; a value that is not a number is drawn as text."""
    img = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(img)
    w, h = size
    draw.text((30, 18), title, fill=(20, 20, 20), font=font(22, bold=True))
    nums = [parse_number(v) for v in values]
    top = max([n for n in nums if n is not None] or [1.0]) or 1.0
    left, right, base, height = 70, w - 30, h - 90, h - 170
    draw.line([(left, base), (right, base)], fill=(90, 90, 90), width=2)
    n = max(len(labels), 1)
    slot = (right - left) / n
    for i, (label, value, num) in enumerate(zip(labels, values, nums)):
        x0 = left + i * slot + slot * 0.2
        x1 = left + (i + 1) * slot - slot * 0.2
        bar = 0 if num is None else max(2, int(height * max(num, 0) / top))
        draw.rectangle([x0, base - bar, x1, base], fill=(74, 111, 165))
        draw.text(((x0 + x1) / 2, base - bar - 8), value, fill=(0, 0, 0), font=font(VALUE_FONT_PX), anchor="ms")
        draw.text(((x0 + x1) / 2, base + 10), _fit(label, slot), fill=(40, 40, 40), font=font(LABEL_FONT_PX), anchor="ma")
    return img


def _fit(text: str, width: float, px: float = 7.5) -> str:
    limit = max(4, int(width / px))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def table_image(title: str, header: list[str], rows: list[list[str]], *, width=900) -> Image.Image:
    row_h, pad = 34, 16
    height = 70 + row_h * (len(rows) + 1) + pad
    img = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(img)
    draw.text((pad, 16), title, fill=(20, 20, 20), font=font(20, bold=True))
    cols = max(len(header), 1)
    first = int((width - 2 * pad) * (0.4 if cols > 1 else 1.0))
    other = ((width - 2 * pad) - first) / max(cols - 1, 1)
    xs = [pad] + [pad + first + k * other for k in range(cols - 1)]
    y = 60
    for r, row in enumerate([header] + rows):
        fill = (225, 232, 244) if r == 0 else ((247, 247, 247) if r % 2 else (255, 255, 255))
        draw.rectangle([pad, y, width - pad, y + row_h], fill=fill, outline=(200, 200, 200))
        for c, cell in enumerate(row[:cols]):
            span = first if c == 0 else other
            draw.text((xs[c] + 8, y + 8), _fit(str(cell), span), fill=(0, 0, 0), font=font(VALUE_FONT_PX, bold=r == 0))
        y += row_h
    return img


def excerpt_image(title: str, text: str, *, width=900) -> Image.Image:
    """A passage of the source document as a team member snips it: a title line, then the sentence
    wrapped to the width (every word drawn whole, so the figure in it can be read back)."""
    pad, line_h, px = 16, 26, 9.0
    per_line = max(20, int((width - 2 * pad) / px))
    lines = textwrap.wrap(" ".join(text.split()), per_line) or [""]
    img = Image.new("RGB", (width, 70 + line_h * len(lines) + pad), (252, 252, 248))
    draw = ImageDraw.Draw(img)
    draw.text((pad, 16), _fit(title, width - 2 * pad, 10.5), fill=(20, 20, 20), font=font(18, bold=True))
    draw.line([pad, 50, width - pad, 50], fill=(200, 200, 200))
    for n, line in enumerate(lines):
        draw.text((pad, 60 + n * line_h), line, fill=(0, 0, 0), font=font(VALUE_FONT_PX))
    return img
