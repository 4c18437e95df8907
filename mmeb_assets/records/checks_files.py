"""The `records_files` check: every written PNG, PDF and PPTX is whole, and the report PDFs print the
values they must and none of a pending result.

Each file is read once. PNGs and decks only by their ends (file_check.py): a page image's size is in
its header, a deck's slides are listed in its zip directory. A PDF is opened once for its page sizes
and text; its ruled tables (found from the ruling alone: PyMuPDF's layout model cost about 1 s a page,
90% of this check, and found fewer of these reportlab tables) are read only on pages whose text holds a value the pending rows must not print: on any other
page no cell can equal one, so the finding cannot occur there.
"""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pymupdf

from mmeb_assets.records.content import expected_doc_values, is_number_like, items_of, pending_only_values
from mmeb_assets.records.file_check import FileProblem, check_pdf, png_size, pptx_slide_count
from mmeb_assets.records.headers import contains_value
from mmeb_assets.schema.records import Record, RecordSet
from mmeb_assets.schema.source import SourceFacts
from mmeb_assets.schema.workspace import EventPlan

SIZE_TOLERANCE = 2
MIN_IMAGE_SIDE = 50


def check_files(rs: RecordSet, plan: EventPlan, project_dir: Path, facts: SourceFacts | None = None) -> list[str]:
    """Every image whole and large enough, then the PDFs and decks (see the module docstring); `facts`
    gives the captions of the seed's figures, which a report quotes on its figure pages."""
    out: list[str] = []
    sizes: dict[str, tuple[int, int]] = {}
    for r in rs.records:
        if r.image_path:
            try:
                sizes[r.id] = png_size(project_dir / r.image_path)
            except FileProblem as exc:
                out.append(f"{r.id}: image {r.image_path} does not open ({exc})")
                continue
            if min(sizes[r.id]) < MIN_IMAGE_SIDE:
                out.append(f"{r.id}: image {r.image_path} is only {sizes[r.id]}")
    out += _check_pdfs(rs, plan, project_dir, sizes, facts)
    out += _check_decks(rs, project_dir)
    return out


def _by_file(rs: RecordSet, source: str) -> dict[str, list[Record]]:
    files: dict[str, list[Record]] = defaultdict(list)
    for r in rs.records:
        if r.source == source:
            files[r.filename].append(r)
    return files


def _check_pdfs(rs: RecordSet, plan: EventPlan, project_dir: Path, sizes: dict[str, tuple[int, int]],
                facts: SourceFacts | None = None) -> list[str]:
    out = []
    for filename, recs in _by_file(rs, "pdf_page").items():
        path = project_dir / filename
        try:
            check_pdf(path)
            doc = pymupdf.open(path)
        except (FileProblem, Exception) as exc:  # noqa: BLE001 - pymupdf raises its own types
            out.append(f"{filename}: PDF does not open ({exc})")
            continue
        plan_doc = next((d for d in plan.documents if d.id == recs[0].doc_id), None)
        with doc:
            out += _page_findings(doc, recs, sizes, filename)
            if plan_doc is not None:
                pages = [page.get_text("text") for page in doc]
                quoted = [f.caption for f in (facts.figures if facts else []) if f.id in plan_doc.figure_ids]
                out += _value_findings(_squash("\n".join(pages)), plan, plan_doc, filename, quoted)
                out += _pending_rows(doc, pages, plan, plan_doc, filename)
    return out


def _page_findings(doc, recs: list[Record], sizes: dict[str, tuple[int, int]], filename: str) -> list[str]:
    """As many pages as page records; each page image the page's size at 100 dpi."""
    out = []
    if len(doc) != len(recs):
        out.append(f"{filename}: {len(doc)} pages but {len(recs)} page records")
    for r in recs:
        if not r.page or r.page > len(doc) or r.id not in sizes:
            continue
        rect = doc[r.page - 1].rect
        want, have = (rect.width * 100 / 72, rect.height * 100 / 72), sizes[r.id]
        if abs(have[0] - want[0]) > SIZE_TOLERANCE or abs(have[1] - want[1]) > SIZE_TOLERANCE:
            out.append(f"{r.id}: page image {have} does not match the PDF page at 100 dpi")
    return out


def _value_findings(text: str, plan: EventPlan, plan_doc, filename: str, quoted: list[str] = ()) -> list[str]:
    """Available values printed; pending ones not, outside the seed captions the report quotes (a
    figure caption's 'sensitivity of 80%' is the seed's sentence, not a pending result's cell)."""
    out = []
    for v in expected_doc_values(plan, plan_doc):
        if not contains_value(text, _squash(v)):
            out.append(f"{filename}: value {v!r} of an available result is missing from the PDF text")
    own = text
    for caption in quoted:
        own = own.replace(_squash(caption), " ")
    for v in pending_only_values(plan, plan_doc):
        if contains_value(own, v):
            out.append(f"{filename}: value {v!r} of a pending result is printed")
    return out


def _key(text: str | None) -> str:
    return "".join((text or "").split()).lower()


def _squash(text: str) -> str:
    """Whitespace-insensitive form: a wrapped table cell reads back with line breaks."""
    return " ".join(text.split())


def pending_rows_printed(pdf_path: Path, plan: EventPlan, plan_doc, filename: str) -> list[str]:
    """By identity: the table row of each pending item, read back from the PDF's ruled tables, shows
    none of that item's values (an equal number in another row or paragraph is not this item's cell)."""
    with pymupdf.open(pdf_path) as doc:
        return _pending_rows(doc, [page.get_text("text") for page in doc], plan, plan_doc, filename)


def _pending_rows(doc, page_texts: list[str], plan: EventPlan, plan_doc, filename: str) -> list[str]:
    items = items_of(plan, plan_doc.pending_item_ids)
    pending = {_key(i.label): i for i in items}
    values = {label: {_key(v) for v in item.values.values() if v and is_number_like(v)}
              for label, item in pending.items()}
    out = []
    for page, text in zip(doc, page_texts):
        if not any(_may_print(_key(text), item) for item in items):
            continue  # no pending label beside one of its values on this page: no row of it prints one
        words = page.get_text("words")  # one word extraction per page, not one text box per cell
        for table in page.find_tables(use_layout=False).tables:  # the ruling; the layout model was 90%
            for cells in (row.cells for row in table.rows):
                first = _cell_text(words, cells[0]) if cells and cells[0] else ""
                item = pending.get(_key(first))
                if item is None:
                    continue
                row = [_cell_text(words, c) if c else "" for c in cells[1:]]
                printed = [c for c in row if _key(c) in values[_key(first)]]
                if printed:
                    out.append(f"{filename}: the row of pending {item.id} ({item.label!r}) prints {printed[0]!r}")
    return out


def _cell_text(words: list[tuple], cell: tuple[float, float, float, float]) -> str:
    """The words whose centre lies in the cell, in reading order (a wrapped cell keeps its lines)."""
    x0, y0, x1, y1 = cell
    return " ".join(w[4] for w in words if x0 <= (w[0] + w[2]) / 2 <= x1 and y0 <= (w[1] + w[3]) / 2 <= y1)


def _may_print(page_key: str, item) -> bool:
    """Whether a page's whitespace-free text holds every word of the item's label and of one of its
    values. Words, not whole strings: a wrapped cell's lines may read back between other cells' lines."""
    words = [_key(w) for w in (item.label or "").split()]
    values = [[_key(w) for w in v.split()] for v in item.values.values() if v and is_number_like(v)]
    return bool(words) and all(w in page_key for w in words) and \
        any(all(w in page_key for w in value) for value in values)


def _check_decks(rs: RecordSet, project_dir: Path) -> list[str]:
    """Each deck whole, with as many slides (counted in its zip directory) as slide records."""
    out = []
    for filename, recs in _by_file(rs, "slide").items():
        try:
            slides = pptx_slide_count(project_dir / filename)
        except FileProblem as exc:
            out.append(f"{filename}: PPTX does not open ({exc})")
            continue
        if slides != len(recs):
            out.append(f"{filename}: {slides} slides but {len(recs)} slide records")
    return out
