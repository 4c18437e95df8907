"""Figures anchored to their 'Figure N' / 'Fig. N' captions, raster or vector, rendered to PNG.

The figure's region is the nearest group of images and drawing clusters above (else below) its
caption in the caption's column; vector figures are rendered from that bounding box.
"""
from __future__ import annotations

import logging
from pathlib import Path

import pymupdf

from mmeb_assets.ingestion.pdf_text import Caption
from mmeb_assets.schema.source import Figure
from mmeb_resources.storage import atomic_write_bytes

log = logging.getLogger(__name__)
RENDER_DPI = 150
MIN_GRAPHIC_SIDE = 12.0
MAX_CAPTION_GAP = 60.0
JOIN_GAP = 18.0
TEXT_JOIN_GAP = 24.0

Rect = tuple[float, float, float, float]


def _graphics(page: pymupdf.Page) -> list[tuple[Rect, str]]:
    """Image boxes and drawing clusters on a page (tiny marks and full-page backgrounds dropped)."""
    page_area = page.rect.width * page.rect.height
    found: list[tuple[Rect, str]] = []
    for info in page.get_image_info():
        r = pymupdf.Rect(info["bbox"]) & page.rect
        if r.width >= MIN_GRAPHIC_SIDE and r.height >= MIN_GRAPHIC_SIDE and r.width * r.height < 0.9 * page_area:
            found.append((tuple(r), "raster"))
    try:
        clusters = page.cluster_drawings()
    except Exception as exc:  # a malformed drawing list should not lose the raster figures
        log.warning("page %d: cluster_drawings failed: %s", page.number + 1, exc)
        clusters = []
    for r in clusters:
        r = pymupdf.Rect(r) & page.rect
        if r.width >= 3 * MIN_GRAPHIC_SIDE and r.height >= 3 * MIN_GRAPHIC_SIDE and r.width * r.height < 0.9 * page_area:
            found.append((tuple(r), "vector"))
    return found


def _h_overlap(a: Rect, b: Rect) -> float:
    return min(a[2], b[2]) - max(a[0], b[0])


def _union(rects: list[Rect]) -> Rect:
    return (min(r[0] for r in rects), min(r[1] for r in rects), max(r[2] for r in rects), max(r[3] for r in rects))


def _near(a: Rect, b: Rect, gap: float) -> bool:
    return not (a[2] + gap < b[0] or b[2] + gap < a[0] or a[3] + gap < b[1] or b[3] + gap < a[1])


def figure_region(page: pymupdf.Page, caption: Caption, taken: list[Rect]) -> tuple[Rect, str] | None:
    """The bounding box and kind (raster/vector) of the figure a caption belongs to."""
    graphics = [(r, k) for r, k in _graphics(page) if not any(_near(r, t, -2) for t in taken)]
    if not graphics:
        return None
    cap = caption.bbox
    if caption.vertical:  # rotated caption beside a rotated figure: the largest graphic on the page
        seed = max(graphics, key=lambda g: (g[0][2] - g[0][0]) * (g[0][3] - g[0][1]))
    else:
        column = [g for g in graphics if _h_overlap(g[0], cap) > 0]
        above = [g for g in column if g[0][1] < cap[1] and g[0][3] <= cap[3] + 4 and cap[1] - g[0][3] <= MAX_CAPTION_GAP]
        below = [g for g in column if g[0][1] >= cap[1] and g[0][1] - cap[3] <= MAX_CAPTION_GAP]
        if above:
            seed = max(above, key=lambda g: g[0][3])
        elif below:
            seed = min(below, key=lambda g: g[0][1])
        else:
            return None
    side_above = seed[0][1] < cap[1]
    group = [seed]
    changed = True
    while changed:  # grow the group with graphics touching it, on the same side of the caption
        changed = False
        box = _union([g[0] for g in group])
        for g in graphics:
            if g in group or not _near(g[0], box, JOIN_GAP):
                continue
            if not caption.vertical and (g[0][1] >= cap[1] if side_above else g[0][1] < cap[1]):
                continue
            group.append(g)
            changed = True
    box = _union([g[0] for g in group])
    blocks = [b for b in page.get_text("blocks") if b[6] == 0]
    grown = True
    while grown:  # labels and titles drawn as text around the graphic, repeatedly (a title above values)
        grown = False
        for x0, y0, x1, y1, text, _n, _type in blocks:
            rect = (x0, y0, x1, y1)
            lines = [line for line in text.splitlines() if line.strip()]
            short = lines and max(len(line.split()) for line in lines) <= 8 and not text.strip().endswith(".")
            within_column = x0 >= box[0] - TEXT_JOIN_GAP and x1 <= box[2] + TEXT_JOIN_GAP
            same_side = caption.vertical or ((y0 < cap[1]) if side_above else (y0 >= cap[1]))
            if (short and within_column and same_side and not _near(rect, cap, -1) and _near(rect, box, TEXT_JOIN_GAP)
                    and _union([box, rect]) != box):
                box = _union([box, rect])
                grown = True
    raster_area = sum((r[2] - r[0]) * (r[3] - r[1]) for r, k in group if k == "raster")
    kind = "raster" if raster_area >= 0.5 * (box[2] - box[0]) * (box[3] - box[1]) else "vector"
    pad = 2.0
    box = (max(box[0] - pad, 0), max(box[1] - pad, 0), min(box[2] + pad, page.rect.width), min(box[3] + pad, page.rect.height))
    return box, kind


def render_region(page: pymupdf.Page, box: Rect, path: Path, dpi: int = RENDER_DPI) -> Path:
    pixmap = page.get_pixmap(clip=pymupdf.Rect(box), dpi=dpi, alpha=False)
    return atomic_write_bytes(path, pixmap.tobytes("png"))


def extract_figures(doc: pymupdf.Document, captions: list[Caption], out_dir: Path) -> list[Figure]:
    """One Figure per numbered caption (first occurrence with a graphic); PNGs in out_dir/figures/."""
    figures: dict[str, Figure] = {}
    taken: dict[int, list[Rect]] = {}
    for cap in sorted((c for c in captions if c.kind == "figure"), key=lambda c: (c.page, c.bbox[1])):
        key = cap.label or str(cap.number)  # 'Figure 3.68' and 'Figure 3.69' are two figures
        if key in figures:
            continue
        page = doc[cap.page - 1]
        found = figure_region(page, cap, taken.get(cap.page, []))
        if found is None:
            log.warning("figure caption without a graphic on page %d: %r", cap.page, cap.text[:60])
            continue
        box, kind = found
        taken.setdefault(cap.page, []).append(box)
        relative = f"figures/figure_{key}.png"
        render_region(page, box, Path(out_dir) / relative)
        figures[key] = Figure(
            id=f"figure_{key}", number=cap.number, caption=cap.text, page=cap.page,
            image_path=relative, kind=kind, bbox=tuple(round(v, 2) for v in box),
        )
    return sorted(figures.values(), key=lambda f: f.number)  # stable: 3.68 before 3.69
