"""Where every piece of text of a drawn table or chart goes, measured with the font that draws it.

A table screenshot is only evidence if a reader can tell which column a value is in: widths come
from the text that must fit (never a fixed share of the image), text too long for its column wraps
onto more lines (a word longer than a whole column breaks inside it), and the image grows rather
than cut anything. `TextBox`es are what is drawn; the tests check them (no two overlap, each inside
the image, each line fits its box, the lines give back the whole text).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from PIL import ImageFont

CELL_PAD = 8           # between a cell's border and its text
LINE_GAP = 4           # between wrapped lines
MAX_TABLE_WIDTH = 1400  # columns wrap to stay within this; the image is wider only if the shortest words cannot
MAX_WORD_WIDTH = 220   # a word wider than this may break inside (an id, a URL) instead of widening its column


@dataclass(frozen=True)
class TextBox:
    """Lines of one piece of text, drawn from the box's top-left corner, one under another."""

    text: str
    lines: tuple[str, ...]
    x: float
    y: float
    width: float
    height: float
    bold: bool = False
    size: int = 16
    kind: str = "cell"  # 'title' | 'header' | 'label' | 'value' | 'axis'

    @property
    def box(self) -> tuple[float, float, float, float]:
        return self.x, self.y, self.x + self.width, self.y + self.height

    def overlaps(self, other: "TextBox") -> bool:
        a, b = self.box, other.box
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@dataclass
class Layout:
    width: int
    height: int
    boxes: list[TextBox] = field(default_factory=list)
    rules: list[tuple[float, float, float, float, tuple[int, int, int]]] = field(default_factory=list)


def text_width(text: str, font: ImageFont.ImageFont) -> float:
    return font.getlength(text)


def line_height(font: ImageFont.ImageFont) -> int:
    ascent, descent = font.getmetrics()
    return ascent + descent


def _break_word(word: str, width: float, font) -> list[str]:
    """A word wider than the column, in pieces that fit (at least one character each)."""
    pieces, piece = [], ""
    for char in word:
        if piece and text_width(piece + char, font) > width:
            pieces.append(piece)
            piece = ""
        piece += char
    return pieces + ([piece] if piece else [])


def wrap(text: str, width: float, font) -> list[str]:
    """Greedy word wrap to `width` pixels; every character of the text is kept (spaces collapsed)."""
    lines: list[str] = []
    line = ""
    for word in str(text).split():
        candidate = f"{line} {word}" if line else word
        if text_width(candidate, font) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        if text_width(word, font) <= width:
            line = word
        else:
            *whole, line = _break_word(word, width, font)
            lines += whole
    return lines + [line] if line else (lines or [""])


def block_height(lines, font) -> int:
    return len(lines) * line_height(font) + (len(lines) - 1) * LINE_GAP


def _longest_word(text: str, font) -> float:
    return max((text_width(w, font) for w in str(text).split()), default=0.0)


def column_widths(columns: list[list[tuple[str, ImageFont.ImageFont]]], limit: float = MAX_TABLE_WIDTH) -> list[float]:
    """Per column (its cells with the font each is drawn in), an inner width: the whole of the longest
    cell where everything fits in `limit`; else each column keeps at least its longest word (up to
    MAX_WORD_WIDTH) and the room left goes to the columns in proportion to what they lack."""
    natural = [max((text_width(str(t), f) for t, f in col), default=0.0) for col in columns]
    floor = [min(max((_longest_word(t, f) for t, f in col), default=0.0), MAX_WORD_WIDTH) for col in columns]
    floor = [max(f, min(n, 40.0)) for f, n in zip(floor, natural)]
    inner_limit = limit - 2 * CELL_PAD * len(columns)
    if sum(natural) <= inner_limit:
        return [max(n, 1.0) for n in natural]
    room = max(inner_limit - sum(floor), 0.0)
    lack = [n - f for n, f in zip(natural, floor)]
    total = sum(lack) or 1.0
    return [max(f + room * gap / total, 1.0) for f, gap in zip(floor, lack)]
