"""TXT / LOG files: run logs written by the training jobs and the project's config file."""
from __future__ import annotations

import random

from mmeb_assets.records.content import items_of
from mmeb_assets.records.context import Draft, RenderContext
from mmeb_assets.records.headers import source_header
from mmeb_assets.schema.workspace import DocumentPlan
from mmeb_resources.storage import atomic_write_text


def run_log_draft(ctx: RenderContext, doc: DocumentPlan, event_ids: list[str]) -> Draft:
    rng = random.Random(f"{ctx.random_seed}:{doc.id}")
    lines = []
    for item in items_of(ctx.plan, doc.item_ids):
        lines.append(f"[{doc.time:%Y-%m-%d %H:%M}] job={item.id} task={item.label} dataset={item.dataset or 'n/a'}")
        loss = 2.0 + rng.random()
        for step in range(0, 5001, 1000):
            loss *= 0.72 + rng.random() * 0.05
            lines.append(f"step={step:>5} loss={loss:.4f} lr={3e-4 * (1 - step / 6000):.2e}")
        for col, val in item.values.items():
            lines.append(f"eval {col}={val}")
        lines.append(f"job={item.id} status=done")
    body = "\n".join(lines) + "\n"
    filename = f"files/{doc.id}.log"
    atomic_write_text(ctx.project_dir / filename, body)
    header = source_header("log", doc.time, author=ctx.name(doc.author), title=doc.title)
    return Draft(source="log", timestamp=doc.time, author=doc.author, title=doc.title, filename=filename,
                 text=f"{header}\n{body}", doc_id=doc.id, version=doc.version, event_ids=event_ids,
                 access=ctx.everyone(doc.time), doc_key=doc.doc_key, supersedes_key=doc.doc_key)


def config_txt_draft(ctx: RenderContext) -> Draft | None:
    facts = ctx.facts.textual.config_facts
    if not facts:
        return None
    when = ctx.org.window_start
    body = f"# {ctx.org.internal_model_name} configuration\n" + "".join(f"{c.name} = {c.value}\n" for c in facts)
    filename = "files/config.txt"
    atomic_write_text(ctx.project_dir / filename, body)
    author = ctx.org.lead_id
    header = source_header("txt", when, author=ctx.name(author), title="config.txt")
    return Draft(source="txt", timestamp=when, author=author, title="config.txt", filename=filename,
                 text=f"{header}\n{body}", access=ctx.everyone(when), doc_key="config")
