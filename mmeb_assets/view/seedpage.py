"""The seed document's page a question's value came from, rendered to PNG, and the quoted span's boxes.

A question names the plan fact it asks about (`derivation.fact_key`: 'run_03:MRR', 'run_12|run_06:F1',
'err_01:flag-fix', 'table_1:...'); a plan item built from a seed table row knows the table (so the page
and the table's box) and the printed cell; a stated figure knows its sentence. World-only facts
(evolving facts, invented values, events) have no seed page, and the view says so instead of guessing.
"""
from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import dataclass
from pathlib import Path

from mmeb_assets.schema.qa import QAItem
from mmeb_resources.storage import atomic_write_bytes

log = logging.getLogger(__name__)
ZOOM = 1.4  # ~100 dpi: legible, a few hundred KB per page


@dataclass(frozen=True)
class Anchor:
    """Where on the seed document a value is printed: a page (None: search every page), the strings
    to box, and a region the box must fall in (the table's bounding box)."""

    page: int | None
    quotes: tuple[str, ...]
    near: str = ""  # a row label on the same line as the quote (tables repeat values)
    clip: tuple[float, float, float, float] | None = None
    what: str = ""


@dataclass
class SeedProject:
    """One project's plan items, scripted errors and seed tables, plus the seed PDF when found."""

    pdf: Path | None
    title: str
    items: dict[str, dict]
    errors: dict[str, dict]
    tables: dict[str, dict]
    events: dict[str, dict]


def _envelope(path: Path) -> dict:
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return data.get("data", data)


def find_seed_pdf(home: Path, project: str, written: str) -> Path | None:
    """The seed PDF: through the active manifest, else the shipped manifests' folder, else a copy
    under the home. None when it is nowhere (an exported benchmark without its seeds)."""
    candidates = []
    try:
        from mmeb_assets.manifests import load_manifest

        candidates.append(load_manifest().pdf_path(project))
    except Exception:  # not in the active manifest, or no manifest: try the other places
        pass
    repo = Path(__file__).resolve().parents[2]
    candidates += [repo / "manifests" / written, home / written, home / "projects" / project / Path(written).name]
    return next((path for path in candidates if path and path.is_file()), None)


def load_seed_project(home: Path, project: str) -> SeedProject:
    folder = home / "projects" / project
    plan = _envelope(folder / "event_plan.json")
    document = _envelope(folder / "seed_document.json") or _envelope(folder / "source_document.json")
    pdf = find_seed_pdf(home, project, document["path"]) if document.get("path") else None
    return SeedProject(pdf=pdf, title=document.get("title", ""),
                       items={i["id"]: i for i in plan.get("items", [])},
                       errors={e["id"]: e for e in plan.get("errors", [])},
                       tables={t["id"]: t for t in document.get("tables", [])},
                       events={e["id"]: {key: e.get(key, "") for key in ("id", "kind", "actor", "time", "where", "summary")}
                               for e in plan.get("events", [])})


def _table_anchor(table: dict, item: dict | None, column: str | None, fallback: str) -> Anchor:
    label = ""
    value = fallback
    if item is not None:
        values = item.get("values", {})
        value = values.get(column or "", "") or fallback or next(iter(values.values()), "")
        rows = table.get("rows", [])
        index = item.get("row_index")
        if index is not None and 0 <= index < len(rows) and rows[index]:
            label = rows[index][0]
    what = f"{table['id']} (page {table['page']})" + (f", row '{label}'" if label else "") + \
        (f", column '{column}'" if column else "")
    return Anchor(page=table["page"], quotes=(value,) if value else (), near=label,
                  clip=tuple(table["bbox"]) if table.get("bbox") else None, what=what)


def anchor_for(item: QAItem, seed: SeedProject) -> tuple[Anchor | None, str]:
    """(anchor, '') or (None, why there is no seed page)."""
    key = item.derivation.fact_key if item.derivation else ""
    tokens = [t for t in re.split(r"[:|]", key) if t]
    for token in list(tokens):
        if token in seed.errors:  # a slipped value: its target is '<item id>:<column>'
            tokens += seed.errors[token].get("target", "").split(":")
    operands = item.derivation.operands if item.derivation else []
    fallback = operands[0] if operands and "=" not in operands[0] else (item.gold.value or "")
    for token in tokens:
        plan_item = seed.items.get(token)
        if plan_item is None:
            continue
        column = next((t for t in tokens if t in plan_item.get("values", {})), None)
        table = seed.tables.get(plan_item.get("table_id", ""))
        if table is not None:
            return _table_anchor(table, plan_item, column, fallback), ""
        if plan_item.get("sentence"):
            return Anchor(page=None, quotes=(plan_item["sentence"],), what="the sentence the records quote"), ""
    for token in tokens:
        table_id = re.sub(r"^chart_|_v\d+$", "", token)
        if table_id in seed.tables:
            return _table_anchor(seed.tables[table_id], None, None, ""), ""
    if not key:
        return None, "no plan fact named (free-form question)"
    return None, f"'{key}' is a world-only fact (evolving, invented or an event): the simulation made it, " \
                 "so no seed page holds it"


def _boxes(page, anchor: Anchor) -> list:
    """Rectangles of the first quote found; for a table value, the hit closest to the row's label."""
    import pymupdf as fitz

    clip = fitz.Rect(anchor.clip) if anchor.clip else None
    for quote in anchor.quotes:
        probe = quote if len(quote) <= 80 else quote[:80]
        hits = page.search_for(probe, clip=clip) if clip else page.search_for(probe)
        if not hits:
            continue
        if anchor.near and len(hits) > 1:
            rows = page.search_for(anchor.near[:60], clip=clip) if clip else []
            if rows:
                y = (rows[0].y0 + rows[0].y1) / 2
                hits = [min(hits, key=lambda r: abs((r.y0 + r.y1) / 2 - y))]
        return hits if len(probe) > 20 else hits[:1]
    return [fitz.Rect(anchor.clip)] if anchor.clip else []


def _find_page(doc, anchor: Anchor) -> int | None:
    if anchor.page is not None:
        return anchor.page if 1 <= anchor.page <= doc.page_count else None
    for quote in anchor.quotes:
        for number in range(1, doc.page_count + 1):
            if doc[number - 1].search_for(quote[:60]):
                return number
    return None


def render_seed_page(pdf: Path, anchor: Anchor, out_dir: Path, cache: dict, store=None) -> dict | None:
    """{'png', 'page', 'boxed', 'boxes', 'what', 'width', 'height'}, or None when the page cannot be found.

    A page is drawn once, unboxed, and shared by every question on it (the 30 scale projects box 528
    spans on 48 pages); `boxes` are the quoted span's rectangles as fractions of the page's width and
    height, which the browser draws over the image. `store` (a `page_store.PageStore`) keeps located
    spans and drawn pages between builds: a rebuild opens no PDF it has seen."""
    fields = [anchor.page, list(anchor.quotes), anchor.near, list(anchor.clip) if anchor.clip else None]
    memo = json.dumps([str(pdf), fields])
    if memo in cache:
        return cache[memo]
    located = _stored_or(store, ("span", fields), pdf, lambda: _locate(pdf, anchor))
    page = None
    if located is not None:
        page = _page_image(pdf, located["page"], out_dir, cache, store)
    cache[memo] = None if page is None else {**page, "page": located["page"], "boxed": bool(located["boxes"]),
                                             "boxes": located["boxes"], "what": anchor.what}
    return cache[memo]


def _stored_or(store, fields, pdf: Path, compute):
    """Facts kept in the store under (pdf, fields), else computed and kept (None is not kept)."""
    if store is None:
        return compute()
    key = store.key(pdf, list(fields), ZOOM)
    facts = store.facts(key)
    if facts is None:
        facts = compute()
        if facts is not None:
            store.put_facts(key, facts)
    return facts


def _page_image(pdf: Path, number: int, out_dir: Path, cache: dict, store=None) -> dict | None:
    """{'png', 'width', 'height'} of the page drawn at ZOOM, once per (pdf, page) and build."""
    memo = json.dumps([str(pdf), number])
    if memo not in cache:
        name = hashlib.sha1(memo.encode()).hexdigest()[:16] + ".png"
        key = store.key(pdf, ["page", number], ZOOM) if store is not None else ""
        size = store.get(key, out_dir / name) if store is not None else None
        if size is None:
            size = _render(pdf, number, out_dir / name)
            if size is not None and store is not None:
                store.put(key, (out_dir / name).read_bytes(), size)
        cache[memo] = None if size is None else {"png": name, **size}
    return cache[memo]


def _locate(pdf: Path, anchor: Anchor) -> dict | None:
    """{'page', 'boxes'}: the anchor's page and its spans as fractions of the drawn page, or None."""
    import pymupdf as fitz

    try:
        with fitz.open(pdf) as doc:
            number = _find_page(doc, anchor)
            if number is None:
                return None
            page = doc[number - 1]
            width, height = page.rect.width, page.rect.height
            boxes = [r * page.rotation_matrix for r in _boxes(page, anchor)]  # hits are unrotated
            return {"page": number, "boxes": [[round(v, 4) for v in (r.x0 / width, r.y0 / height, r.x1 / width,
                                                                     r.y1 / height)] for r in boxes]}
    except Exception as exc:  # a damaged seed PDF loses its page image, not the site
        log.warning("seed page of %s not located: %s", pdf, exc)
        return None


def _render(pdf: Path, number: int, target: Path) -> dict | None:
    """Draw page `number` into `target`; its pixel size, or None when the PDF cannot be drawn."""
    import pymupdf as fitz

    try:
        with fitz.open(pdf) as doc:
            pix = doc[number - 1].get_pixmap(matrix=fitz.Matrix(ZOOM, ZOOM))
            atomic_write_bytes(target, pix.tobytes("png"))
            return {"width": pix.width, "height": pix.height}
    except Exception as exc:  # a damaged seed PDF loses its page image, not the site
        log.warning("seed page %d of %s not rendered: %s", number, pdf, exc)
        return None
