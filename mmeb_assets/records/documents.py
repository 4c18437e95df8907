"""Visual documents of the plan: report pages, slides, chart / table images, reused seed figures."""
from __future__ import annotations

from pathlib import Path

from mmeb_assets.records.chart_units import chart_columns, chart_items, unit_suffix
from mmeb_assets.records.content import chart_title, item_cells, items_of, shown_wrong
from mmeb_assets.records.context import Draft, RenderContext
from mmeb_assets.records.headers import scrub_value, source_header
from mmeb_assets.records.images import bar_chart, excerpt_image, save_png, table_image
from mmeb_assets.records.pdf_report import build_pdf, rasterise
from mmeb_assets.records.report_spec import ReportSpec, results_table
from mmeb_assets.records.slide_render import render_deck
from mmeb_assets.records.slides import DeckSpec, build_pptx, read_back
from mmeb_assets.records.visual_text import blocked_values, caption_description, drawn_table, drawn_values
from mmeb_assets.schema.workspace import DocumentPlan


def doc_path(ctx: RenderContext, doc: DocumentPlan, folder: str, suffix: str) -> Path:
    """docs/<name>_v<n>.<ext>: versions never overwrite each other."""
    stem = Path(doc.filename).stem if doc.filename else doc.doc_key or doc.id
    return ctx.project_dir / folder / f"{stem}_v{doc.version}{suffix}"


def doc_access(ctx: RenderContext, doc: DocumentPlan) -> list[str]:
    """Channel members where the document was posted, else everyone who had joined."""
    if doc.where and any(c.id == doc.where for c in ctx.org.channels):
        return ctx.channel_access(doc.where, doc.time)
    for event in ctx.plan.events:
        if event.attachment == doc.id and any(c.id == event.where for c in ctx.org.channels):
            return ctx.channel_access(event.where, doc.time)
    return ctx.everyone(doc.time)


def chart_png(ctx: RenderContext, doc: DocumentPlan, column: str, path: Path) -> tuple[list[str], list[str]]:
    """The column's values as bars, for the items of one unit (chart_units): never two units on one axis.
    Returns the labels and values drawn; callers pick columns with `chart_columns`, so there are some."""
    wrong = shown_wrong(doc, ctx.plan)
    done = [i for i in items_of(ctx.plan, doc.item_ids) if i.id not in doc.pending_item_ids and column in i.values]
    unit, items = chart_items(done, column, ctx.facts)
    values = [dict(item_cells(i, wrong))[column] for i in items]
    title = chart_title(column, items)
    save_png(bar_chart(title + unit_suffix(unit, title), [i.label for i in items], values), path)
    return [i.label for i in items], values


def table_png(ctx: RenderContext, doc: DocumentPlan, path: Path, title: str = "") -> Path:
    header, rows = results_table(ctx, doc)
    return save_png(table_image(title or doc.title, header, rows), path)


def report_assets(ctx: RenderContext, doc: DocumentPlan) -> dict[str, Path]:
    assets: dict[str, Path] = {}
    done = [i for i in doc.item_ids if i not in doc.pending_item_ids]
    for col in chart_columns(ctx.plan, ctx.facts, done)[:2]:
        chart = ctx.project_dir / "assets" / f"{doc.id}_chart_{_slug(col)}.png"
        chart_png(ctx, doc, col, chart)
        assets[f"chart:{col}"] = chart
    assets["table_image:all"] = table_png(ctx, doc, ctx.project_dir / "assets" / f"{doc.id}_table.png", "Results table")
    for fig in ctx.facts.figures:
        path = ctx.project_dir / fig.image_path
        if path.exists():
            assets[f"figure:{fig.id}"] = path
    return assets


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in text.lower()).strip("_")[:30] or "metric"


def report_drafts(ctx: RenderContext, doc: DocumentPlan, spec: ReportSpec, event_ids: list[str],
                  generator: dict) -> list[Draft]:
    pdf = doc_path(ctx, doc, "docs", ".pdf")
    build_pdf(spec, report_assets(ctx, doc), pdf, author=ctx.name(doc.author))
    access = doc_access(ctx, doc)
    out = []
    for n, (png, text, _) in enumerate(rasterise(pdf, ctx.project_dir / "pages", doc.id), start=1):
        title = f"{doc.title} v{doc.version}"
        header = source_header("pdf_page", doc.time, author=ctx.name(doc.author), title=title, page=n)
        out.append(Draft(source="pdf_page", timestamp=doc.time, author=doc.author, title=title,
                         filename=ctx.rel(pdf), page=n, pixel_text=text.strip(), image_path=ctx.rel(png),
                         text=f"{header}\n{caption_description('Report page', n, text, blocked_values(ctx.plan, ctx.org))}",
                         doc_id=doc.id, version=doc.version, event_ids=event_ids, access=access,
                         doc_key=f"{doc.doc_key}:p{n}", supersedes_key=f"{doc.doc_key}:p{n}", **generator))
    return out


def deck_drafts(ctx: RenderContext, doc: DocumentPlan, spec: DeckSpec, event_ids: list[str]) -> list[Draft]:
    pptx = doc_path(ctx, doc, "docs", ".pptx")
    build_pptx(spec, ctx.project_dir, pptx, doc.time)
    pngs, renderer = render_deck(spec, pptx, ctx.project_dir, ctx.project_dir / "slides", doc.id)
    texts = read_back(pptx)
    access = doc_access(ctx, doc)
    out = []
    for n, (png, text) in enumerate(zip(pngs, texts), start=1):
        title = f"{doc.title} v{doc.version}"
        header = source_header("slide", doc.time, author=ctx.name(doc.author), title=title, page=n)
        out.append(Draft(source="slide", timestamp=doc.time, author=doc.author, title=title,
                         filename=ctx.rel(pptx), page=n, pixel_text=text.strip(), image_path=ctx.rel(png),
                         text=f"{header}\n{caption_description('Slide', n, text, blocked_values(ctx.plan, ctx.org))}",
                         doc_id=doc.id, version=doc.version, event_ids=event_ids, access=access,
                         renderer=renderer, doc_key=f"{doc.doc_key}:s{n}", supersedes_key=f"{doc.doc_key}:s{n}"))
    return out


def image_draft(ctx: RenderContext, doc: DocumentPlan, event_ids: list[str]) -> Draft | None:
    """Chart / table image / reused figure; stored text is the caption only (values live in pixels)."""
    path = doc_path(ctx, doc, "images", ".png")
    if doc.kind == "chart_image" and doc.values:
        save_png(bar_chart(doc.title, list(doc.values), list(doc.values.values())), path)
        pixels = drawn_values(list(doc.values), list(doc.values.values()))
        caption = f"Chart: {doc.title}." + (f" {doc.description[0].upper()}{doc.description[1:]}."
                                             if doc.description else "")
    elif doc.kind == "chart_image":
        cols = chart_columns(ctx.plan, ctx.facts, doc.item_ids)
        if not cols:
            return None
        labels, values = chart_png(ctx, doc, cols[0], path)
        pixels = drawn_values(labels, values)
        caption = f"Bar chart: {cols[0]} for " + ", ".join(labels)
    elif doc.kind == "table_image" and doc.values:   # a planning sheet: one row per field it shows
        # the title names the whole subject; the row keeps its head ('survey sample size'), so a long
        # subject never runs into the value column
        rows = [[field.split(" for ")[0].split(" of the ")[0], value] for field, value in doc.values.items()]
        save_png(table_image(doc.title, ["Field", "Value"], rows), path)
        pixels = drawn_table(["Field", "Value"], rows)
        caption = f"Table image: {doc.title}; columns Field, Value"
    elif doc.kind == "excerpt_image":
        item = next((i for i in items_of(ctx.plan, doc.item_ids) if i.sentence), None)
        if item is None:
            return None
        save_png(excerpt_image(doc.title, item.sentence), path)
        pixels = item.sentence
        caption = f"Image: {doc.title}, a passage snipped from the source document"
    elif doc.kind == "table_image":
        table_png(ctx, doc, path)
        pixels = drawn_table(*results_table(ctx, doc))
        caption = f"Table image: {doc.title}; columns " + ", ".join(results_table(ctx, doc)[0])
    else:
        fig = next((f for f in ctx.facts.figures if f.id in doc.figure_ids), None)
        if fig is None or not (ctx.project_dir / fig.image_path).exists():
            return None
        path = ctx.project_dir / fig.image_path
        caption = f"Figure: {fig.caption}" + (f"\n{doc.description}" if doc.description else "")
        pixels = "\n".join(doc.pixel_only_values)
    for value in doc.pixel_only_values:
        caption = scrub_value(caption, value, "(see image)")
    header = source_header("image", doc.time, author=ctx.name(doc.author), title=doc.title)
    return Draft(source="image", timestamp=doc.time, author=doc.author, title=doc.title, filename=ctx.rel(path),
                 text=f"{header}\n{caption}", pixel_text=pixels, image_path=ctx.rel(path), doc_id=doc.id,
                 version=doc.version,
                 event_ids=event_ids, access=doc_access(ctx, doc), doc_key=doc.doc_key,
                 supersedes_key=doc.doc_key)


def source_table_drafts(ctx: RenderContext) -> list[Draft]:
    """The team's benchmark sheet: each source table drawn from its printed cells, once its items are done."""
    out = []
    for table in ctx.facts.tables:
        items = [i for i in ctx.plan.items if i.table_id == table.id]
        if not items or not table.rows:
            continue
        when = max(i.completed_at for i in items)
        path = ctx.project_dir / "images" / f"sheet_{table.id}.png"
        title = f"Benchmark sheet · {table.caption.split(':', 1)[-1].strip()[:60] or table.id}"
        save_png(table_image(title, table.header, table.rows), path)
        header = source_header("image", when, author=ctx.name(items[-1].owner), title=title)
        out.append(Draft(source="image", timestamp=when, author=items[-1].owner, title=title,
                         filename=ctx.rel(path), image_path=ctx.rel(path),
                         text=f"{header}\nTable image with columns: {', '.join(table.header)}",
                         pixel_text=drawn_table(table.header, table.rows),
                         access=ctx.everyone(when), doc_key=f"sheet:{table.id}", optional=3))
    return out
