"""Standalone chart and table images drawn with pillow from structured values (deterministic PNG)."""
from __future__ import annotations

import io
import re
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from mmeb_assets.records.text_layout import (CELL_PAD, LINE_GAP, MAX_WORD_WIDTH, Layout, TextBox, block_height,
                                              column_widths, line_height, text_width, wrap)
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


CHART_PLOT_HEIGHT = 330  # pixels of the bars' axis
TITLE_PX, CHART_TITLE_PX = 20, 22


def chart_layout(title: str, labels: list[str], values: list[str], *, min_width: int = 800) -> Layout:
    """Where a bar chart's title, values and item labels go: each bar's slot is as wide as its value and
    its label's longest word need, labels wrap under their bar, and the image grows to hold them."""
    label_font, value_font, title_font = font(LABEL_FONT_PX), font(VALUE_FONT_PX), font(CHART_TITLE_PX, bold=True)
    inner = max([min(max((text_width(w, label_font) for w in str(lab).split()), default=0.0), MAX_WORD_WIDTH)
                 for lab in labels] + [text_width(str(v), value_font) for v in values] +
                [min(max((text_width(str(lab), label_font) for lab in labels), default=0.0), 150.0), 60.0])
    left, right = 70, 30
    width = int(max(min_width, left + max(len(labels), 1) * (inner + 2 * CELL_PAD) + right))
    slot = (width - left - right) / max(len(labels), 1)  # the bars spread over the width
    inner = slot - 2 * CELL_PAD
    layout = Layout(width=width, height=0)
    title_lines = wrap(title, width - 2 * right, title_font)
    layout.boxes.append(TextBox(title, tuple(title_lines), right, 18, width - 2 * right,
                                block_height(title_lines, title_font), True, CHART_TITLE_PX, "title"))
    top = 18 + block_height(title_lines, title_font) + 16 + line_height(value_font) + 8
    base = top + CHART_PLOT_HEIGHT
    nums = [parse_number(v) for v in values]
    peak = max([n for n in nums if n is not None] or [1.0]) or 1.0
    label_bottom = base
    for i, (label, value, num) in enumerate(zip(labels, values, nums)):
        x0 = left + i * slot
        bar = 0 if num is None else max(2, int(CHART_PLOT_HEIGHT * max(num, 0) / peak))
        layout.rules.append((x0 + slot * 0.2, base - bar, x0 + slot * 0.8, base, (74, 111, 165)))
        value_w = text_width(str(value), value_font)
        layout.boxes.append(TextBox(str(value), (str(value),), x0 + (slot - value_w) / 2,
                                    base - bar - 6 - line_height(value_font), value_w, line_height(value_font),
                                    False, VALUE_FONT_PX, "value"))
        lines = wrap(label, inner, label_font)
        layout.boxes.append(TextBox(str(label), tuple(lines), x0 + CELL_PAD, base + 10, inner,
                                    block_height(lines, label_font), False, LABEL_FONT_PX, "label"))
        label_bottom = max(label_bottom, base + 10 + block_height(lines, label_font))
    layout.rules.append((left, base, width - right, base + 2, (90, 90, 90)))
    layout.height = int(label_bottom + 24)
    return layout


def table_layout(title: str, header: list[str], rows: list[list[str]], *, min_width: int = 900) -> Layout:
    """Where a table's title and cells go: column widths from the text (column_widths), every cell
    wrapped to its column, each row as tall as its tallest cell. A row longer than the header gets
    blank header cells rather than losing its last cells."""
    pad = 16
    head_font, body_font, title_font = font(VALUE_FONT_PX, bold=True), font(VALUE_FONT_PX), font(TITLE_PX, bold=True)
    cols = max([len(header)] + [len(r) for r in rows] + [1])
    grid = [[str(c) for c in row] + [""] * (cols - len(row)) for row in [list(header)] + [list(r) for r in rows]]
    widths = column_widths([[(row[c], head_font if r == 0 else body_font) for r, row in enumerate(grid)]
                            for c in range(cols)])
    width = int(max(min_width, sum(w + 2 * CELL_PAD for w in widths) + 2 * pad + 1))
    layout = Layout(width=width, height=0)
    y = pad
    if title.strip():  # a slide's table has its title on the slide
        title_lines = wrap(title, width - 2 * pad, title_font)
        layout.boxes.append(TextBox(title, tuple(title_lines), pad, 16, width - 2 * pad,
                                    block_height(title_lines, title_font), True, TITLE_PX, "title"))
        y = 16 + block_height(title_lines, title_font) + 14
    for r, row in enumerate(grid):
        cell_font = head_font if r == 0 else body_font
        lines = [wrap(cell, widths[c], cell_font) for c, cell in enumerate(row)]
        row_h = max(block_height(cell, cell_font) for cell in lines) + 2 * CELL_PAD
        fill = (225, 232, 244) if r == 0 else ((247, 247, 247) if r % 2 else (255, 255, 255))
        layout.rules.append((pad, y, pad + sum(w + 2 * CELL_PAD for w in widths), y + row_h, fill))
        x = pad
        for c, cell in enumerate(row):
            kind = "header" if r == 0 else ("label" if c == 0 else "value")
            layout.boxes.append(TextBox(cell, tuple(lines[c]), x + CELL_PAD, y + CELL_PAD, widths[c],
                                        block_height(lines[c], cell_font), r == 0, VALUE_FONT_PX, kind))
            x += widths[c] + 2 * CELL_PAD
        y += row_h
    right, top = pad + sum(w + 2 * CELL_PAD for w in widths), layout.rules[0][1]
    grey = (200, 200, 200)
    layout.rules += [(pad, r[1], right, r[1], grey) for r in layout.rules[:len(grid)]] + [(pad, y, right, y, grey)]
    x = pad
    for w in [0.0] + widths:
        x += w + (2 * CELL_PAD if w else 0)
        layout.rules.append((x, top, x, y, grey))
    layout.height = int(y + pad)
    return layout


def draw_layout(layout: Layout, background=(255, 255, 255)) -> Image.Image:
    """The image of a layout: its filled rectangles (rows, grid lines, bars, axis) in order, then every
    text box line by line."""
    img = Image.new("RGB", (layout.width, layout.height), background)
    draw = ImageDraw.Draw(img)
    for x0, y0, x1, y1, fill in layout.rules:
        draw.rectangle([x0, y0, x1, y1], fill=fill)
    for box in layout.boxes:
        face = font(box.size, bold=box.bold)
        step = line_height(face) + LINE_GAP
        for n, line in enumerate(box.lines):
            draw.text((box.x, box.y + n * step), line, fill=(20, 20, 20) if box.kind == "title" else (0, 0, 0),
                      font=face)
    return img


def bar_chart(title: str, labels: list[str], values: list[str], *, size=(800, 500)) -> Image.Image:
    """Bars with the printed value above each (a value that is not a number is drawn as text) and
    each item's whole label under its bar."""
    return draw_layout(chart_layout(title, labels, values, min_width=size[0]))


def table_image(title: str, header: list[str], rows: list[list[str]], *, width=900) -> Image.Image:
    return draw_layout(table_layout(title, header, rows, min_width=width))


def excerpt_image(title: str, text: str, *, width=900) -> Image.Image:
    """A passage of the source document as a team member snips it: the title, a rule, then the sentence
    wrapped to the width (every word drawn whole, so the figure in it can be read back)."""
    pad = 16
    title_font, body_font = font(18, bold=True), font(VALUE_FONT_PX)
    title_lines = wrap(title, width - 2 * pad, title_font)
    layout = Layout(width=width, height=0)
    layout.boxes.append(TextBox(title, tuple(title_lines), pad, 16, width - 2 * pad,
                                block_height(title_lines, title_font), True, 18, "title"))
    rule = 16 + block_height(title_lines, title_font) + 10
    layout.rules.append((pad, rule, width - pad, rule, (200, 200, 200)))
    lines = wrap(" ".join(text.split()), width - 2 * pad, body_font)
    layout.boxes.append(TextBox(text, tuple(lines), pad, rule + 10, width - 2 * pad, block_height(lines, body_font),
                                False, VALUE_FONT_PX, "value"))
    layout.height = int(rule + 10 + block_height(lines, body_font) + pad)
    return draw_layout(layout, background=(252, 252, 248))
