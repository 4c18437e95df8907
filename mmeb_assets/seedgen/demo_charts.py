"""Deterministic chart images for the demo seeds: raster PNGs (pillow) and vector drawings (reportlab).

Every chart prints its values on the bars/points, so a reader can learn them only from the image.
No axis ticks are drawn: the printed values are the figure's key numbers.
"""
from __future__ import annotations

import io
import json

from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo
from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors

from mmeb_assets.seedgen.demo_specs import DemoFigure

WIDTH, HEIGHT = 900, 480
PALETTE = [(46, 104, 168), (214, 120, 40), (80, 150, 90), (150, 70, 140)]


def _value(printed: str) -> float:
    return float(printed.replace(",", ""))


def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


def _centered(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int) -> None:
    font = _font(size)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    draw.text((xy[0] - (right - left) / 2, xy[1] - (bottom - top) / 2), text, fill=(20, 20, 20), font=font)


def _plot_area() -> tuple[int, int, int, int]:
    return 70, 80, WIDTH - 40, HEIGHT - 70


def _bar_png(figure: DemoFigure, draw: ImageDraw.ImageDraw) -> None:
    left, top, right, bottom = _plot_area()
    values = [_value(v) for v in next(iter(figure.series.values()))]
    low = min(values) * 0.85
    high = max(values)
    slot = (right - left) / len(values)
    for index, (label, value, printed) in enumerate(zip(figure.x_labels, values, next(iter(figure.series.values())))):
        x0 = left + index * slot + slot * 0.2
        x1 = left + (index + 1) * slot - slot * 0.2
        y0 = bottom - (value - low) / (high - low) * (bottom - top - 40) - 20
        draw.rectangle((x0, y0, x1, bottom), fill=PALETTE[0])
        _centered(draw, ((x0 + x1) / 2, y0 - 18), printed, 22)
        _centered(draw, ((x0 + x1) / 2, bottom + 24), label, 20)
    draw.line((left, bottom, right, bottom), fill=(40, 40, 40), width=2)


def _line_png(figure: DemoFigure, draw: ImageDraw.ImageDraw) -> None:
    left, top, right, bottom = _plot_area()
    all_values = [float(v) for values in figure.series.values() for v in values]
    low, high = min(all_values) * 0.95, max(all_values) * 1.02
    n = len(figure.x_labels)
    step = (right - left - 80) / max(n - 1, 1)
    for index, label in enumerate(figure.x_labels):
        _centered(draw, (left + 40 + index * step, bottom + 24), label, 18)
    for s_index, (name, printed_values) in enumerate(figure.series.items()):
        colour = PALETTE[s_index % len(PALETTE)]
        points = [(left + 40 + i * step, bottom - (_value(v) - low) / (high - low) * (bottom - top))
                  for i, v in enumerate(printed_values)]
        draw.line(points, fill=colour, width=3)
        for (x, y), printed in zip(points, printed_values):
            draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=colour)
            _centered(draw, (x, y - 18 if s_index == 0 else y + 20), printed, 17)
        legend_y = top - 40 + 0
        legend_x = right - 260 + s_index * 130
        draw.rectangle((legend_x, legend_y, legend_x + 18, legend_y + 18), fill=colour)
        draw.text((legend_x + 26, legend_y - 1), name, fill=(20, 20, 20), font=_font(18))
    draw.line((left, bottom, right, bottom), fill=(40, 40, 40), width=2)


def _diagram_png(figure: DemoFigure, draw: ImageDraw.ImageDraw) -> None:
    n = len(figure.boxes)
    slot = (WIDTH - 40) / n
    y0, y1 = HEIGHT / 2 - 45, HEIGHT / 2 + 45
    for index, box in enumerate(figure.boxes):
        x0 = 20 + index * slot + 12
        x1 = 20 + (index + 1) * slot - 12
        draw.rounded_rectangle((x0, y0, x1, y1), radius=12, outline=PALETTE[index % 4], width=4, fill=(245, 245, 250))
        _centered(draw, ((x0 + x1) / 2, (y0 + y1) / 2), box, 17)
        if index < n - 1:
            draw.line((x1, HEIGHT / 2, x1 + 24, HEIGHT / 2), fill=(40, 40, 40), width=3)
            draw.polygon([(x1 + 24, HEIGHT / 2 - 7), (x1 + 24, HEIGHT / 2 + 7), (x1 + 32 - 4, HEIGHT / 2)], fill=(40, 40, 40))


def render_png(figure: DemoFigure) -> bytes:
    """The figure as PNG bytes; printed strings are also stored as PNG text metadata ('mmeb:figure')."""
    image = Image.new("RGB", (WIDTH, HEIGHT), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    _centered(draw, (WIDTH / 2, 30), figure.title, 26)
    {"bar": _bar_png, "line": _line_png, "diagram": _diagram_png}[figure.chart](figure, draw)
    info = PngInfo()
    info.add_text("mmeb:figure", json.dumps({"text_labels": figure.text_labels, "key_numbers": figure.key_numbers}))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", pnginfo=info, optimize=False)
    return buffer.getvalue()


def render_vector(figure: DemoFigure, width: float = 400, height: float = 210) -> Drawing:
    """A bar chart as PDF vector graphics; labels and values are real PDF text."""
    if figure.chart != "bar":
        raise ValueError(f"vector rendering supports bar charts only, not {figure.chart!r}")
    drawing = Drawing(width, height)
    printed = next(iter(figure.series.values()))
    values = [_value(v) for v in printed]
    low, high = min(values) * 0.85, max(values)
    left, right, bottom, top = 20, width - 20, 30, height - 45
    drawing.add(String(width / 2, height - 16, figure.title, fontName="Helvetica-Bold", fontSize=10, textAnchor="middle"))
    slot = (right - left) / len(values)
    for index, (label, value, text) in enumerate(zip(figure.x_labels, values, printed)):
        x0 = left + index * slot + slot * 0.2
        bar_h = (value - low) / (high - low) * (top - bottom - 20) + 10
        drawing.add(Rect(x0, bottom, slot * 0.6, bar_h, fillColor=colors.Color(0.18, 0.41, 0.66), strokeColor=None))
        drawing.add(String(x0 + slot * 0.3, bottom + bar_h + 4, text, fontName="Helvetica", fontSize=9, textAnchor="middle"))
        drawing.add(String(x0 + slot * 0.3, bottom - 14, label, fontName="Helvetica", fontSize=8, textAnchor="middle"))
    drawing.add(Line(left, bottom, right, bottom, strokeColor=colors.black, strokeWidth=1))
    return drawing
