"""The content specification of a report: pages of blocks, written by rules or by the LLM.

Blocks: heading, paragraph, bullets, table (inline, text layer), table_image, figure, chart, caption.
"""
from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field

from mmeb_assets.records.chart_units import chart_columns, chart_items, unit_suffix
from mmeb_assets.records.content import (
    chart_title, doc_decisions, doc_facts, doc_invented, invented_value, item_cells, items_of, metric_columns,
    shown_wrong,
)
from mmeb_assets.records.context import RenderContext
from mmeb_assets.schema.workspace import DocumentPlan

BlockKind = Literal["heading", "paragraph", "bullets", "table", "table_image", "figure", "chart", "caption"]


class Block(BaseModel):
    kind: BlockKind
    text: str = ""
    items: list[str] = []
    header: list[str] = []
    rows: list[list[str]] = []
    ref: str = Field(default="", description="figure id, or chart/table-image metric column")


class Page(BaseModel):
    blocks: list[Block]


class ReportSpec(BaseModel):
    title: str
    pages: list[Page]


def results_table(ctx: RenderContext, doc: DocumentPlan) -> tuple[list[str], list[list[str]]]:
    wrong = shown_wrong(doc, ctx.plan)
    ids = list(doc.item_ids) + [i for i in doc.pending_item_ids if i not in doc.item_ids]
    cols = metric_columns(ctx.plan, ids)
    rows = []
    for item in items_of(ctx.plan, ids):
        if item.id in doc.pending_item_ids:
            rows.append([item.label] + ["pending"] * len(cols))
        else:
            cells = dict(item_cells(item, wrong))
            rows.append([item.label] + [cells.get(c, "") for c in cols])
    return ["Item"] + cols, rows


def mask_values(text: str, values: list[str]) -> str:
    """A report written before a result exists must not print it, even inside source prose."""
    for value in sorted({v for v in values if v}, key=len, reverse=True):
        text = re.sub(rf"(?<![\d.]){re.escape(value)}(?![\d])", "(pending)", text)
    return text


def rules_report_spec(ctx: RenderContext, doc: DocumentPlan) -> ReportSpec:
    org, tx, plan = ctx.org, ctx.facts.textual, ctx.plan
    wrong = shown_wrong(doc, plan)
    header, rows = results_table(ctx, doc)
    done = [i for i in items_of(plan, doc.item_ids) if i.id not in doc.pending_item_ids]
    pending = items_of(plan, doc.pending_item_ids)
    unseen = [v for item in pending for v in item.values.values()]
    summary = (f"This is version {doc.version} of the {doc.title}, prepared by {ctx.name(doc.author)} for the "
               f"{org.milestone_a.name}. It covers {len(done)} completed runs of {org.internal_model_name}"
               + (f"; {len(pending)} further {'result is' if len(pending) == 1 else 'results are'} pending and will "
                  "be added in the next version."
                  if pending else "; all planned runs are complete."))
    pages = [Page(blocks=[Block(kind="heading", text=f"{doc.title} (v{doc.version})"),
                          Block(kind="paragraph", text=f"{org.company_name} — {org.product}. {org.tagline[:1].upper()}{org.tagline[1:]}."),
                          Block(kind="paragraph", text=summary),
                          Block(kind="paragraph", text=f"{org.internal_model_name}: {mask_values(tx.one_sentence, unseen)}")]),
             Page(blocks=[Block(kind="heading", text="Method"),
                          Block(kind="paragraph", text=mask_values(tx.task_summary, unseen)),
                          Block(kind="bullets", items=[mask_values(t, unseen) for t in tx.pipeline_steps or tx.components]),
                          *([Block(kind="heading", text="Configuration"),  # no empty 'Setting | Value' grid
                             Block(kind="table", header=["Setting", "Value"],
                                   rows=[[c.name, c.value] for c in tx.config_facts])] if tx.config_facts else [])]),
             Page(blocks=[Block(kind="heading", text="Results"),
                          Block(kind="paragraph", text="Measured results of every run available at writing time."),
                          Block(kind="table", header=header, rows=rows),
                          Block(kind="caption", text=f"Table 1. Results of {org.internal_model_name} runs (v{doc.version})."),
                          *([Block(kind="paragraph", text="Pending: " + ", ".join(i.label for i in pending)
                                   + ". These results are not yet available.")] if pending else [])])]
    for item in done:
        cells = ", ".join(f"{c} {v}" for c, v in item_cells(item, wrong))
        pages[-1].blocks.append(Block(kind="paragraph", text=f"{item.label} ({item.kind}, {ctx.name(item.owner)}): {cells}."))
    cols = chart_columns(plan, ctx.facts, [i.id for i in done])
    if done and cols:
        unit, charted = chart_items([i for i in done if cols[0] in i.values], cols[0], ctx.facts)
        title = chart_title(cols[0], charted)
        title += unit_suffix(unit, title)
        pages.append(Page(blocks=[Block(kind="heading", text="Results at a glance"),
                                  Block(kind="chart", ref=cols[0], text=title),
                                  Block(kind="caption", text=f"Figure A. {title}."),
                                  Block(kind="table_image", ref="all", text="Results table"),
                                  Block(kind="caption", text="Table A. The results table as an image.")]))
    for fig in ctx.facts.figures:
        if fig.id in doc.figure_ids:
            pages.append(Page(blocks=[Block(kind="heading", text=f"Analysis: {fig.caption.split(':', 1)[-1].strip()[:80]}"),
                                      Block(kind="figure", ref=fig.id),
                                      Block(kind="caption", text=fig.caption)]))
    ops = [f"{inv.name}: {invented_value(inv, wrong)} ({inv.rationale})" for inv in doc_invented(plan, doc)]
    decisions = [f"{d.title}: {d.body}" for d in doc_decisions(plan, doc)]
    ops_page = [Block(kind="heading", text="Operations and decisions")]
    ops_page.append(Block(kind="bullets", items=ops) if ops else Block(kind="paragraph", text="No operational measurements yet."))
    ops_page.append(Block(kind="bullets", items=decisions) if decisions else Block(kind="paragraph", text="No decisions recorded yet."))
    pages.append(Page(blocks=ops_page))
    state = [f"{s}: {v}" for s, v in doc_facts(plan, doc)]
    nxt = [Block(kind="heading", text="Timeline and next steps"),
           Block(kind="paragraph", text=f"Next milestone: {org.milestone_b.name}, due {org.milestone_b.due:%a %b %d %H:%M}.")]
    if state:
        nxt.append(Block(kind="bullets", items=state))
    pages.append(Page(blocks=nxt))
    return ReportSpec(title=f"{doc.title} v{doc.version}", pages=pages)
