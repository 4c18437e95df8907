"""What the site shows of one question, as plain JSON: question and gold, gold evidence records as they
are, every model x k answer with its verdict, each retriever's ranking with gold markers and metrics,
the seed page the value came from, and the lineage of the evidence (events -> records -> question)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from mmeb_assets.retrieval.metrics import ndcg_at, reciprocal_rank
from mmeb_assets.retrieval.recall import KS, question_recall
from mmeb_assets.schema.evaluation import Answer, Judgment
from mmeb_assets.schema.qa import QAItem
from mmeb_assets.schema.records import Record
from mmeb_assets.view.load import BuildData
from mmeb_assets.view.page_store import PageStore
from mmeb_assets.view.seedpage import SeedProject, anchor_for, load_seed_project, render_seed_page

TOP_SHOWN = 10  # retrieved records listed per retriever; gold records further down are listed with their rank
SNIPPET = 280


@dataclass
class PayloadContext:
    """Indexes built once per site: answers and judgments by run and question, seeds per project,
    and the media (record images, seed pages) the pages reference."""

    data: BuildData
    media_dir: Path
    answers: dict[str, dict[str, tuple[Answer, Judgment | None]]] = field(default_factory=dict)
    seeds: dict[str, SeedProject] = field(default_factory=dict)
    images: set[tuple[str, str]] = field(default_factory=set)  # (project, image path) to copy
    page_cache: dict = field(default_factory=dict)
    page_store: PageStore | None = None  # seed pages rendered by earlier builds (page_store.py)

    @classmethod
    def build(cls, data: BuildData, media_dir: Path) -> "PayloadContext":
        ctx = cls(data=data, media_dir=media_dir, page_store=PageStore(data.home / "cache" / "seed_pages"))
        for run in data.runs:
            verdicts = {j.question_id: j for j in run.judgments.judgments}
            ctx.answers[data.run_key(run)] = {a.question_id: (a, verdicts.get(a.question_id))
                                              for a in run.answers.answers}
        return ctx

    def seed(self, project: str) -> SeedProject:
        if project not in self.seeds:
            self.seeds[project] = load_seed_project(self.data.home, project)
        return self.seeds[project]


def image_url(record: Record) -> str:
    return f"media/{record.project}/{record.image_path}" if record.image_path else ""


def record_json(record: Record, ctx: PayloadContext, full: bool = True) -> dict:
    """A record as it is: header fields, its stored text, the image it shows (copied into the site)."""
    if record.image_path:
        ctx.images.add((record.project, record.image_path))
    text = record.text if full else record.text[:SNIPPET]
    out = {"id": record.id, "project": record.project, "source": record.source, "modality": record.modality,
           "time": record.timestamp.isoformat(timespec="minutes"), "author": record.author, "channel": record.channel,
           "title": record.title, "filename": record.filename, "page": record.page, "text": text,
           "image": image_url(record), "version": record.version, "supersedes": record.supersedes or ""}
    if full:
        out.update(recipients=record.recipients, pixel_text=record.pixel_text)
    return out


def answers_json(item: QAItem, ctx: PayloadContext) -> list[dict]:
    rows = []
    for run in ctx.data.runs:
        key = ctx.data.run_key(run)
        found = ctx.answers[key].get(item.id)
        if found is None:
            continue
        answer, judgment = found
        rows.append({"run": key, "model": run.answers.model, "k": run.answers.k, "group": run.group,
                     "answer": answer.answer, "error": answer.error, "read": len(answer.record_ids),
                     "correct": judgment.correct if judgment else None,
                     "code": judgment.code if judgment else "", "reason": judgment.reason if judgment else "",
                     "judge": judgment.judge if judgment else ""})
    return rows


def retrieval_json(item: QAItem, ctx: PayloadContext) -> list[dict]:
    gold = set(item.evidence)
    out = []
    for retriever in ctx.data.retrievers:
        ranked = retriever.ranked.get(item.id)
        if ranked is None:
            continue
        ids = ranked.record_ids
        shown = [i for i, rid in enumerate(ids) if i < TOP_SHOWN or rid in gold]
        rows = []
        for i in shown:
            record = ctx.data.records.get(ids[i])
            row = {"rank": i + 1, "id": ids[i], "gold": ids[i] in gold,
                   "score": ranked.scores[i] if i < len(ranked.scores) else None}
            if record is not None:
                row.update(source=record.source, title=record.title or record.channel, text=record.text[:SNIPPET])
            rows.append(row)
        metrics = {}
        if gold and item.answer_status == "answerable":
            metrics = {**{f"recall@{k}": round(question_recall(item.evidence, ids, k), 3) for k in KS},
                       "ndcg@10": round(ndcg_at(item.evidence, ids, 10), 3), "mrr": round(reciprocal_rank(item.evidence, ids), 3)}
        missing = sorted(gold - set(ids))
        out.append({"retriever": retriever.name, "submitted": retriever.submitted, "metrics": metrics,
                    "rows": rows, "gold_not_retrieved": missing})
    return out


def seed_json(item: QAItem, ctx: PayloadContext) -> dict:
    seed = ctx.seed(item.project)
    anchor, why = anchor_for(item, seed)
    if anchor is None:
        return {"why": why}
    if seed.pdf is None:
        return {"why": f"the seed PDF of {item.project} is not on this machine", "what": anchor.what}
    page = render_seed_page(seed.pdf, anchor, ctx.media_dir / "seed", ctx.page_cache, ctx.page_store)
    if page is None:
        return {"why": f"the quoted span was not found in {seed.pdf.name}", "what": anchor.what}
    return {**page, "png": f"media/seed/{page['png']}", "document": seed.title or seed.pdf.name,
            "file": seed.pdf.name, "quote": anchor.quotes[0] if anchor.quotes else ""}


def lineage_json(item: QAItem, ctx: PayloadContext) -> list[dict]:
    """Per gold record: the events it realizes, the source facts behind them, its versions."""
    seed = ctx.seed(item.project)
    out = []
    for rid in item.evidence:
        row = ctx.data.lineage.get(rid, {})
        record = ctx.data.records.get(rid)
        event_ids = row.get("events") or (record.event_ids if record else [])
        out.append({"record": rid, "events": [seed.events.get(e, {"id": e}) for e in event_ids],
                    "source_facts": row.get("source_facts", []), "versions": row.get("versions", [rid]),
                    "cited_by": row.get("cited_by", [])[:20]})
    return out


def question_json(item: QAItem, ctx: PayloadContext) -> dict:
    records = ctx.data.records
    return {
        "id": item.id, "project": item.project, "task": item.task, "q": item.q, "status": item.answer_status,
        "gold": item.gold.model_dump(), "generator": item.generator, "boundary": item.boundary,
        "derivation": item.derivation.kind if item.derivation else "",
        "fact_key": item.derivation.fact_key if item.derivation else "",
        "validation": item.validation.decision if item.validation else "",
        "solution": [{"step": s.step, "records": s.record_ids} for s in item.solution],
        "evidence": [record_json(records[rid], ctx) if rid in records else {"id": rid, "missing": True}
                     for rid in item.evidence],
        "answers": answers_json(item, ctx), "retrieval": retrieval_json(item, ctx),
        "seed": seed_json(item, ctx), "lineage": lineage_json(item, ctx),
    }
