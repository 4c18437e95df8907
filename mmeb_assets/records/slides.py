"""Slide decks: a spec (title, bullets, optional table or image) built with python-pptx."""
from __future__ import annotations

import io
import zipfile
from datetime import datetime
from pathlib import Path

from pptx import Presentation
from pptx.util import Emu, Inches, Pt
from pydantic import BaseModel

from mmeb_assets.records.content import doc_decisions, doc_facts, doc_invented, invented_value, items_of, shown_wrong
from mmeb_assets.records.context import RenderContext
from mmeb_assets.records.report_spec import results_table
from mmeb_assets.schema.workspace import DocumentPlan
from mmeb_resources.storage import atomic_write_bytes


ROWS_PER_SLIDE = 8
CELL_CHARS = 44


def _short(text: str, limit: int = CELL_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


class Slide(BaseModel):
    title: str
    bullets: list[str] = []
    header: list[str] = []
    rows: list[list[str]] = []
    image: str = ""  # path relative to the project folder

    def text_lines(self) -> list[str]:
        lines = [self.title, *self.bullets]
        if self.header:
            lines += [" | ".join(self.header)] + [" | ".join(r) for r in self.rows]
        return lines


class DeckSpec(BaseModel):
    title: str
    slides: list[Slide]


def rules_deck_spec(ctx: RenderContext, doc: DocumentPlan, chart_rel: str = "") -> DeckSpec:
    org, plan = ctx.org, ctx.plan
    wrong = shown_wrong(doc, plan)
    header, rows = results_table(ctx, doc)
    pending = items_of(plan, doc.pending_item_ids)
    slides = [
        Slide(title=f"{doc.title} (v{doc.version})",
              bullets=[f"{org.company_name} · {org.product}", f"Prepared by {ctx.name(doc.author)}",
                       f"For: {org.milestone_a.name}"]),
        Slide(title=f"What {org.internal_model_name} does",
              bullets=[_short(b, 100) for b in [ctx.facts.textual.one_sentence, *ctx.facts.textual.components[:4]]]),
    ]
    rows = [[_short(c) for c in row] for row in rows]
    header = [_short(c) for c in header][:6]
    rows = [r[:6] for r in rows]
    for n in range(0, max(len(rows), 1), ROWS_PER_SLIDE):
        part = f" ({n // ROWS_PER_SLIDE + 1})" if len(rows) > ROWS_PER_SLIDE else ""
        slides.append(Slide(title=f"Results so far{part}", header=header, rows=rows[n:n + ROWS_PER_SLIDE]))
    if chart_rel:
        slides.append(Slide(title="Results chart", bullets=["See the chart for the run-by-run comparison."],
                            image=chart_rel))
    ops = [f"{inv.name}: {invented_value(inv, wrong)}" for inv in doc_invented(plan, doc)]
    if ops:
        slides.append(Slide(title="Operations", bullets=[_short(o, 100) for o in ops[:7]]))
    decisions = [f"{d.title}: {d.body}" for d in doc_decisions(plan, doc)]
    slides.append(Slide(title="Decisions", bullets=[_short(d, 100) for d in decisions[:6]]
                        or ["No decisions recorded yet."]))
    state = [f"{s}: {v}" for s, v in doc_facts(plan, doc)]
    nxt = [f"Pending: {i.label}" for i in pending] + state + [f"Next: {org.milestone_b.name}"]
    slides.append(Slide(title="Next steps", bullets=[_short(b, 100) for b in nxt[:8]]))
    return DeckSpec(title=f"{doc.title} v{doc.version}", slides=slides)


def build_pptx(spec: DeckSpec, project_dir: Path, path: Path, when: datetime) -> Path:
    prs = Presentation()
    prs.slide_width, prs.slide_height = Inches(13.333), Inches(7.5)
    blank = prs.slide_layouts[6]
    for slide in spec.slides:
        s = prs.slides.add_slide(blank)
        title = s.shapes.add_textbox(Inches(0.6), Inches(0.4), Inches(12), Inches(1.0)).text_frame
        title.text = slide.title
        title.paragraphs[0].runs[0].font.size = Pt(32)
        top = Inches(1.6)
        if slide.bullets:
            box = s.shapes.add_textbox(Inches(0.8), top, Inches(11.5), Inches(2.2)).text_frame
            box.word_wrap = True
            for n, line in enumerate(slide.bullets):
                para = box.paragraphs[0] if n == 0 else box.add_paragraph()
                para.text = f"• {line}"
                para.runs[0].font.size = Pt(18)
            top = Inches(1.6 + 0.5 * len(slide.bullets) + 0.2)
        if slide.header:
            table = s.shapes.add_table(len(slide.rows) + 1, len(slide.header), Inches(0.8), top,
                                       Inches(11.5), Emu(Inches(0.45) * (len(slide.rows) + 1))).table
            for r, row in enumerate([slide.header] + slide.rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
        if slide.image:
            s.shapes.add_picture(str(project_dir / slide.image), Inches(2.5), top, height=Inches(4.8))
    prs.core_properties.created = when
    prs.core_properties.modified = when
    prs.core_properties.last_modified_by = "mmeb"
    prs.core_properties.revision = 1
    buf = io.BytesIO()
    prs.save(buf)
    return atomic_write_bytes(path, _fixed_zip(buf.getvalue()))


def _fixed_zip(data: bytes) -> bytes:
    """Rewrite the zip with fixed entry times so equal decks give equal bytes."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(2000, 1, 1, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(fixed, src.read(info.filename))
    return out.getvalue()


def read_back(path: Path) -> list[str]:
    """All text of each slide, as python-pptx reads it from the saved file."""
    texts = []
    for slide in Presentation(str(path)).slides:
        parts = []
        for shape in slide.shapes:
            if shape.has_text_frame:
                parts.append(shape.text_frame.text)
            if getattr(shape, "has_table", False) and shape.has_table:
                for row in shape.table.rows:
                    parts.append(" | ".join(cell.text for cell in row.cells))
        texts.append("\n".join(parts))
    return texts
