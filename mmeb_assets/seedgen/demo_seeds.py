"""The demo seed PDFs: written deterministically (byte-identical across runs) from `demo_specs`.

`write_demo_seed(seed_id, path)` renders one; `ensure_seed_pdf(entry, path)` writes a manifest
entry's PDF when it has `generator: demo` and the file is missing; `demo_seed_spec(seed_id)` is the
ground truth the generator used (tables, figures, captions, text).
"""
from __future__ import annotations

import io
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.lib.utils import ImageReader
from reportlab.platypus import Image, KeepTogether, Paragraph, SimpleDocTemplate, Spacer
from reportlab.platypus import Table as RLTable
from reportlab.platypus import TableStyle

from mmeb_assets.seedgen.demo_charts import render_png, render_vector
from mmeb_assets.seedgen.demo_specs import DEMO_SPECS, DemoFigure, DemoSeedSpec, DemoTable
from mmeb_assets.manifests import SeedEntry
from mmeb_resources.storage import atomic_write_bytes

DEMO_GENERATOR = "demo"
SCALE_GENERATOR = "scale"  # mmeb_assets/seedgen/scale_seeds.py
FIGURE_WIDTH = 5.6 * inch


class UnknownDemoSeed(KeyError):
    pass


def demo_seed_ids() -> list[str]:
    return list(DEMO_SPECS)


def demo_seed_spec(seed_id: str) -> DemoSeedSpec:
    """The ground truth of a demo seed (a copy: callers may not change the shipped spec)."""
    try:
        return DEMO_SPECS[seed_id].model_copy(deep=True)
    except KeyError:
        raise UnknownDemoSeed(f"no demo seed {seed_id!r}; known: {sorted(DEMO_SPECS)}") from None


def _styles() -> dict[str, ParagraphStyle]:
    base = getSampleStyleSheet()
    body = ParagraphStyle("MmebBody", parent=base["BodyText"], fontName="Helvetica", fontSize=10, leading=13.5)
    return {
        "title": ParagraphStyle("MmebTitle", parent=base["Title"], fontName="Helvetica-Bold", fontSize=17, leading=21),
        "authors": ParagraphStyle("MmebAuthors", parent=body, alignment=1, spaceAfter=10),
        "heading": ParagraphStyle("MmebHeading", parent=base["Heading2"], fontName="Helvetica-Bold", fontSize=12),
        "body": body,
        "caption": ParagraphStyle("MmebCaption", parent=body, fontSize=9, leading=12, spaceBefore=4, spaceAfter=8),
        "cell": ParagraphStyle("MmebCell", parent=body, fontSize=9, leading=11),
    }


def _table_flowables(table: DemoTable, styles: dict) -> list:
    data = [table.header, *table.rows]
    grid = RLTable(data, hAlign="CENTER", repeatRows=1)
    grid.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 9),
        ("FONT", (0, 1), (-1, -1), "Helvetica", 9),
        ("GRID", (0, 0), (-1, -1), 0.6, colors.black),
        ("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.9, 0.92, 0.96)),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), 6),
        ("RIGHTPADDING", (0, 0), (-1, -1), 6),
    ]))
    return [KeepTogether([Paragraph(escape(table.caption), styles["caption"]), grid, Spacer(1, 10)])]


def _figure_flowables(figure: DemoFigure, styles: dict) -> list:
    if figure.kind == "vector":
        art = render_vector(figure)
        art.hAlign = "CENTER"
    else:
        png = render_png(figure)
        reader = ImageReader(io.BytesIO(png))
        width, height = reader.getSize()
        art = Image(io.BytesIO(png), width=FIGURE_WIDTH, height=FIGURE_WIDTH * height / width)
    return [KeepTogether([Spacer(1, 4), art, Paragraph(escape(figure.caption), styles["caption"])])]


def _story(spec: DemoSeedSpec) -> list:
    styles = _styles()
    tables = {t.number: t for t in spec.tables}
    figures = {f.number: f for f in spec.figures}
    story: list = [Paragraph(escape(spec.title), styles["title"]), Paragraph(escape(spec.authors), styles["authors"])]
    for section in spec.sections:
        story.append(Paragraph(escape(section.heading), styles["heading"]))
        for item in section.body:
            if item.startswith("[[table:"):
                story.extend(_table_flowables(tables[int(item[8:-2])], styles))
            elif item.startswith("[[figure:"):
                story.extend(_figure_flowables(figures[int(item[9:-2])], styles))
            else:
                story.append(Paragraph(escape(item), styles["body"]))
    return story


def _page_footer(canvas, doc) -> None:
    canvas.saveState()
    canvas.setFont("Helvetica", 8)
    canvas.drawCentredString(letter[0] / 2, 0.5 * inch, str(doc.page))
    canvas.restoreState()


def render_demo_seed(seed_id: str) -> bytes:
    """The PDF bytes of a demo seed; the same bytes on every run (reportlab invariant mode)."""
    return render_spec(demo_seed_spec(seed_id))


def render_spec(spec: DemoSeedSpec, generator: str = DEMO_GENERATOR) -> bytes:
    """The PDF bytes of any seed spec (demo or scale); deterministic."""
    seed_id = spec.seed_id
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer, pagesize=letter, invariant=1, title=spec.title, author=spec.authors,
        creator=f"MMEB {generator} seed generator", subject=f"MMEB {generator} seed {seed_id}",
        leftMargin=inch, rightMargin=inch, topMargin=0.9 * inch, bottomMargin=0.9 * inch,
    )
    doc.build(_story(spec), onFirstPage=_page_footer, onLaterPages=_page_footer)
    return buffer.getvalue()


def write_demo_seed(seed_id: str, path: Path) -> Path:
    """Write the demo seed's PDF to `path` atomically and return the path."""
    return atomic_write_bytes(Path(path), render_demo_seed(seed_id))


def generated_spec(entry: SeedEntry) -> DemoSeedSpec | None:
    """The spec a generated entry (`generator: demo` or `generator: scale`) is written from; None otherwise."""
    if entry.generator == DEMO_GENERATOR:
        return demo_seed_spec(entry.id)
    if entry.generator == SCALE_GENERATOR:
        from mmeb_assets.seedgen.scale_seeds import scale_seed_spec

        return scale_seed_spec(entry.id)
    return None


def ensure_seed_pdf(entry: SeedEntry, path: Path) -> Path:
    """Before ingestion: write a missing generated (demo or scale) PDF; other entries are left as they are."""
    path = Path(path)
    if not path.exists() and (spec := generated_spec(entry)) is not None:
        atomic_write_bytes(path, render_spec(spec, entry.generator))
    return path


def generated_figure_hints(entry: SeedEntry) -> dict | None:
    """Figure hints of a generated entry (demo or scale), None for a real PDF."""
    spec = generated_spec(entry)
    return None if spec is None else spec_figure_hints(spec)


def demo_figure_hints(seed_id: str) -> dict:
    """What the generator drew inside each demo figure (raster figures have no text layer to read)."""
    return spec_figure_hints(demo_seed_spec(seed_id))


def spec_figure_hints(spec: DemoSeedSpec) -> dict:
    from mmeb_assets.facts.source_facts import FigureHint

    hints = {}
    for figure in spec.figures:
        pairs = [(f"{name} at {label}" if len(figure.series) > 1 else label, value)
                 for name, values in figure.series.items() for label, value in zip(figure.x_labels, values)]
        pairs += [(f"label of box {'ABCDEFGHIJ'[i]} (left to right) in the {figure.title} diagram", box)
                  for i, box in enumerate(figure.boxes)]
        hints[f"figure_{figure.number}"] = FigureHint(text_labels=figure.text_labels,
                                                      key_numbers=figure.key_numbers, pairs=pairs)
    return hints
