"""A table's printed lines as geometry: words grouped into lines, lines into phrases, and the value
columns anchored on the lines that hold numbers.

Why geometry rather than an extractor's grid: a spanning header is one phrase printed over several
columns, a row group is a label-only line, a wrapped stub label is a second line without numbers.
Extractor grids (camelot, PyMuPDF `find_tables`) put such text into one cell of their own choosing;
the page's word positions say which columns a phrase stands over.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import pymupdf

from mmeb_assets.ingestion.numbers import parse_number
from mmeb_assets.ingestion.pdf_text import normalize_text

TRAILING_MARKS = re.compile(r"[*†‡§¶]+$|^[↑↓*†‡]+")
NEGATIVE_IN_PARENS = re.compile(r"^\((?!(?:19|20)\d\d\))(?:[1-9]\d{0,2}(?:,\d{3})+|[1-9]\d*|0)(?:\.\d+)?\)$")  # '(78)', not '(2017)'

LEADER_WORD = re.compile(r"^(?:\.\s?)+$|^…+$")
SPREAD = re.compile(r"^\(?[±+\-−˙]?\d+(?:\.\d+)?%?\)?$")


@dataclass
class Phrase:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    words: list[tuple[float, float, str]] = field(default_factory=list)

    @property
    def centre(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def numeric(self) -> bool:
        return is_value(self.text)


@dataclass
class Line:
    y0: float
    y1: float
    phrases: list[Phrase] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join(p.text for p in self.phrases)

    @property
    def x0(self) -> float:
        return min(p.x0 for p in self.phrases)

    @property
    def height(self) -> float:
        return self.y1 - self.y0


BOUND_SIGN = re.compile(r"^(?:<<?|>>?|≤|≥|≪|≫|≈|~)")  # '<< 0.001', '≤ 5': a bound is a value
MAGNITUDE = r"(?:\d+(?:\.\d+)?|\.\d+)[kKMBG]"
MAGNITUDES = re.compile(rf"{MAGNITUDE}(?:/{MAGNITUDE})?")


def is_value(text: str) -> bool:
    """A printed value cell: a number, with an optional marker, spread '(0.3)' or '± 1.2' after it;
    '15 455' (space-grouped thousands), '3.85(28)' and '12 / 44' too."""
    core = BOUND_SIGN.sub("", TRAILING_MARKS.sub("", text.strip()), count=1).strip()
    if re.fullmatch(r"-?\d{1,3}(?: \d{3})+(?:[.,]\d+)?", core) or NEGATIVE_IN_PARENS.match(core):
        return True
    if re.fullmatch(r"\d[\d,.]* / \d[\d,]*", core):  # '12 / 44': a count out of a total
        return True
    if MAGNITUDES.fullmatch(core):  # '110M', '1.5B', '7.1M/344k' (words / sentences)
        return True
    core = re.sub(r"(?<=\d)\(", " (", core)
    parts = core.split()
    if not parts:
        return False
    if parse_number(parts[0]) is None and not MAGNITUDES.fullmatch(parts[0]):  # '28.9M (35.6%)'
        return False
    return all(SPREAD.match(p) or p in {"±", "%", "˙"} or TRAILING_MARKS.sub("", p) == "" for p in parts[1:])


def page_lines(page: pymupdf.Page, area: tuple) -> list[Line]:
    """Lines of words inside `area`, top to bottom; each line split into phrases at wide gaps."""
    words = [w for w in page.get_text("words", clip=pymupdf.Rect(area))
             if area[0] - 1 <= (w[0] + w[2]) / 2 <= area[2] + 1 and area[1] - 1 <= (w[1] + w[3]) / 2 <= area[3] + 1]
    if not words:
        return []
    heights = sorted(w[3] - w[1] for w in words)
    median_h = heights[len(heights) // 2]
    rows: list[list] = []
    for w in sorted(words, key=lambda w: ((w[1] + w[3]) / 2, w[0])):
        centre = (w[1] + w[3]) / 2
        if rows and abs(centre - rows[-1][0]) < 0.45 * median_h:
            rows[-1][1].append(w)
        else:
            rows.append([centre, [w]])
    return [Line(min(w[1] for w in ws), max(w[3] for w in ws), _phrases(ws, median_h)) for _c, ws in rows]


def _phrases(words: list, median_h: float) -> list[Phrase]:
    """Words joined while the gap is a word space; a number starts its own phrase unless it is the
    spread of the value before it ('81.2 (0.4)', '3.1 ± 0.2') or its total ('12 / 44')."""
    gap = max(3.2, 0.42 * median_h)
    out: list[Phrase] = []
    leader_end = None
    for w in sorted(words, key=lambda w: w[0]):
        text = normalize_text(w[4])
        if out and LEADER_WORD.match(text) and not out[-1].numeric and w[0] - (leader_end or out[-1].x1) < gap:
            if leader_end is None and out[-1].text.endswith(".") and not re.search(r"\b\w\.$", out[-1].text):
                out[-1].text = out[-1].text[:-1]  # 'older.' before its leaders: the first leader dot
            leader_end = w[2]  # dot leaders run a label out to its values: no part of the label
            continue
        leader_end = None
        if out:
            last = out[-1]
            close = w[0] - last.x1 < gap
            if text == "˙" and last.numeric:
                text = "±"  # a font whose '±' the text layer reads as a dot accent ('21.88 ˙ 0.31')
            spread = last.numeric and (SPREAD.match(text) and text.startswith("(") or last.text.endswith("±")
                                       or text in {"±", "%"} or text.startswith("±"))
            spread = spread or _out_of(last.text, text) or BOUND_SIGN.fullmatch(last.text) and is_value(text)
            starts_value = is_value(text) and not last.text.endswith(("-", "±")) and not spread
            ends_value = last.numeric and not spread
            grouped = ends_value and re.fullmatch(r"\d{3}(?:[.,]\d+)?%?", text) and re.fullmatch(r"-?\d{1,3}(?: \d{3})*", last.text)
            numbered = starts_value and not last.numeric and re.fullmatch(r"\d{1,2}", text) and w[0] - last.x1 < 0.6 * gap
            if close and (spread or grouped or numbered or not (starts_value or ends_value)):
                last.x1, last.y0, last.y1 = max(last.x1, w[2]), min(last.y0, w[1]), max(last.y1, w[3])
                last.text = f"{last.text} {text}"
                last.words.append((w[0], w[2], text))
                continue
        out.append(Phrase(w[0], w[1], w[2], w[3], text, [(w[0], w[2], text)]))
    return out


def _out_of(before: str, text: str) -> bool:
    """'12 / 44' (12 papers out of 44) is one value: the slash and the total stay with the count."""
    return bool(re.fullmatch(r"\d[\d,.]*", before) and re.fullmatch(r"/(?:\s?\d[\d,]*)?", text)
                or re.fullmatch(r"\d[\d,.]* /", before) and re.fullmatch(r"\d[\d,]*", text))


def value_lines(lines: list[Line]) -> list[int]:
    """Indices of lines that hold a value after their first phrase (body rows of a results table)."""
    return [i for i, line in enumerate(lines) if any(p.numeric for p in line.phrases[1:])
            or (len(line.phrases) == 1 and line.phrases[0].numeric and line.phrases[0].x0 > lines[i].x0 + 1)]


def column_anchors(lines: list[Line], body: list[int]) -> list[tuple[float, float]]:
    """Column extents from the body lines: the most common phrase count fixes the columns; every
    phrase of those lines widens its column."""
    counts: dict[int, int] = {}
    for i in body:
        n = len(lines[i].phrases)
        counts[n] = counts.get(n, 0) + 1
    if not counts:
        return []
    n = max(counts, key=lambda k: (counts[k], k))
    model = [lines[i] for i in body if len(lines[i].phrases) == n]
    anchors = [[min(l.phrases[j].x0 for l in model), max(l.phrases[j].x1 for l in model)] for j in range(n)]
    for i in body:  # a column of few values, right of every column the model lines fill ('1981')
        for p in lines[i].phrases:
            if p.numeric and p.x0 > anchors[-1][1] + 4:
                anchors.append([p.x0, p.x1])
                n += 1
    for i in body:  # rows with fewer cells (empty cells) still widen the columns they fall in
        for p in lines[i].phrases:
            j = nearest_anchor(anchors, p)
            if j > 0 and anchors[j - 1][1] < p.x0 and (j + 1 >= n or p.x1 < anchors[j + 1][0]):
                anchors[j] = [min(anchors[j][0], p.x0), max(anchors[j][1], p.x1)]
    left = [p for i in range(body[0], body[-1] + 1) for p in lines[i].phrases
            if p.x1 < anchors[0][0] - 2 and not p.numeric]
    if left:  # a stub cell printed once for a block of rows (a multirow 'Fluency', 'DP' on a line of
        # its own between its rows), left of the row labels
        anchors.insert(0, [min(p.x0 for p in left), max(p.x1 for p in left)])
    return [(a, b) for a, b in anchors]


def ruled_anchors(vertical: list[tuple], lines: list[Line], body: list[int]) -> list[tuple[float, float]]:
    """Column extents of a ruled grid: the spaces between vertical rules that cross most value rows
    and hold some of their words. Why: a sparse grid (most cells blank) has no line that shows every
    column, so columns taken from the words alone merge the sparse ones. [] when the body is not ruled."""
    rows = [lines[i] for i in body]
    joined: list[list[float]] = []  # a grid draws its vertical rules cell by cell
    for y0, x, y1 in sorted(vertical, key=lambda v: (round(v[1]), v[0])):
        if joined and abs(joined[-1][1] - x) < 1 and y0 <= joined[-1][2] + 3.0:  # cells drawn as boxes with a gap
            joined[-1][2] = max(joined[-1][2], y1)
        else:
            joined.append([y0, x, y1])
    crossing = [x for y0, x, y1 in joined if sum(y0 - 1 <= (l.y0 + l.y1) / 2 <= y1 + 1 for l in rows) >= 0.6 * len(rows)]
    xs: list[float] = []
    for x in sorted(crossing):
        if not xs or x - xs[-1] > 1.5:
            xs.append(x)
    if len(xs) < 3:
        return []
    anchors = []
    xs = [-1e9, *xs, 1e9]  # a grid without outer borders: the stub left of the first rule, a column right of the last
    for left, right in zip(xs, xs[1:]):
        inside = [p for l in rows for p in l.phrases if left < p.centre < right]
        if any(sum(left < p.centre < right for p in l.phrases) > 1 for l in rows):
            return []  # two cells of one row between two rules: the rules do not part the columns
        if inside:
            anchors.append((min(p.x0 for p in inside), max(p.x1 for p in inside)))
    return anchors if len(anchors) >= 3 else []


def nearest_anchor(anchors, phrase: Phrase) -> int:
    """The column a phrase falls in: the one its centre lies in, else the nearest by edge distance."""
    mid = phrase.centre

    def distance(j: int) -> float:
        a, b = anchors[j]
        return 0.0 if a - 1 <= mid <= b + 1 else min(abs(mid - a), abs(mid - b))
    return min(range(len(anchors)), key=distance)


DOT_LEADER = re.compile(r"(?:\s*\.){3,}\s*$|\s*…+\s*$")


def line_cells(line: Line, anchors) -> list[str]:
    """One line's phrases put into the columns (two phrases in one column are joined; dot leaders
    that run a label out to its values are no part of it)."""
    cells: list[list[str]] = [[] for _ in anchors]
    for p in line.phrases:
        cells[nearest_anchor(anchors, p)].append(p.text)
    return [DOT_LEADER.sub("", " ".join(c)) for c in cells]


def line_segments(page: pymupdf.Page, min_horizontal: float, min_vertical: float,
                  box_edges_horizontal: bool, image_rules: bool = False) -> tuple[list[tuple], list[tuple]]:
    """(horizontal, vertical) ruled segments of the page, unjoined: (x0, y, x1) and (y0, x, y1).
    Lines, thin filled rectangles and the sides of stroked boxes at least the given lengths; the
    top and bottom of a box count as horizontal rules only when asked."""
    horizontal, vertical = [], []
    for drawing in page.get_drawings():
        for item in drawing["items"]:
            if item[0] == "l":
                a, b = item[1], item[2]
                if abs(a.y - b.y) < 1 and abs(a.x - b.x) > min_horizontal:
                    horizontal.append((min(a.x, b.x), a.y, max(a.x, b.x)))
                elif abs(a.x - b.x) < 1 and abs(a.y - b.y) > min_vertical:
                    vertical.append((min(a.y, b.y), a.x, max(a.y, b.y)))
            elif item[0] == "re":
                r = item[1]
                if r.height < 2 and r.width > min_horizontal:
                    horizontal.append((r.x0, (r.y0 + r.y1) / 2, r.x1))
                elif r.width < 2 and r.height > min_vertical:
                    vertical.append((r.y0, (r.x0 + r.x1) / 2, r.y1))
                elif drawing.get("color") is not None and r.width > min_horizontal and r.height > min_vertical:
                    vertical.extend([(r.y0, r.x0, r.y1), (r.y0, r.x1, r.y1)])
                    if box_edges_horizontal:
                        horizontal.extend([(r.x0, r.y0, r.x1), (r.x0, r.y1, r.x1)])
    if image_rules:
        _image_rules(page, min_horizontal, min_vertical, horizontal, vertical)
    return horizontal, vertical


def _image_rules(page: pymupdf.Page, min_horizontal: float, min_vertical: float,
                 horizontal: list, vertical: list) -> None:
    """Rules painted as stretched one-pixel images: PDFs that went through PostScript draw every
    table rule as an inline image mask, and no line or rectangle is left to find."""
    for info in page.get_image_info():
        x0, y0, x1, y1 = info["bbox"]
        if y1 - y0 < 2 and x1 - x0 > min_horizontal:
            horizontal.append((x0, (y0 + y1) / 2, x1))
        elif x1 - x0 < 2 and y1 - y0 > min_vertical:
            vertical.append((y0, (x0 + x1) / 2, y1))


def rules_near(page: pymupdf.Page, area: tuple) -> tuple[list[tuple], list[tuple]]:
    """(horizontal, vertical) segments inside `area`, short ones and box edges included."""
    horizontal, vertical = line_segments(page, 5, 4, box_edges_horizontal=True, image_rules=True)
    x0, y0, x1, y1 = area
    inside = [h for h in horizontal if y0 - 4 <= h[1] <= y1 + 4 and h[2] > x0 and h[0] < x1]
    joined = _joined(inside)
    horizontal = joined + [h for h in inside if h not in joined]  # the pieces too: two group rules that touch
    vertical = [v for v in vertical if x0 - 4 <= v[1] <= x1 + 4 and v[2] > y0 and v[0] < y1]
    return horizontal, vertical


def _joined(segments: list[tuple]) -> list[tuple]:
    """Collinear segments that touch joined into one rule: a grid draws the rule under a spanning
    header cell by cell, and the header spans the whole run."""
    out: list[list[float]] = []
    for x0, y, x1 in sorted(segments, key=lambda r: (round(r[1], 1), r[0])):
        if out and abs(out[-1][1] - y) < 0.8 and x0 <= out[-1][2] + 1.5:
            out[-1][2] = max(out[-1][2], x1)
        else:
            out.append([x0, y, x1])
    return [(a, b, c) for a, b, c in out]
