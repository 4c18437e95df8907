"""`mmeb export --format beir`: the BEIR layout that `beir.datasets.data_loader.GenericDataLoader`
and most retrieval toolkits read: corpus.jsonl (`_id`, `title`, `text`), queries.jsonl (`_id`, `text`),
qrels/test.tsv (`query-id corpus-id score`, with its header).

Visual records keep their stored text (what a text retriever indexes) and name their image, copied
to `images/<project>/...` beside the corpus, in `image`; extra keys are ignored by BEIR loaders.
"""
from __future__ import annotations

from pathlib import Path

from mmeb_assets.export.build import BuildHome
from mmeb_assets.export.hf import qrels_rows
from mmeb_assets.schema.qa import TASK_CATEGORY
from mmeb_resources.storage import atomic_write_bytes, atomic_write_jsonl, atomic_write_text


def corpus_rows(home: BuildHome, out: Path) -> list[dict]:
    rows = []
    for record in home.corpus.records:
        row = {"_id": record.id, "title": record.title, "text": record.text,
               "metadata": {"project": record.project, "source": record.source, "modality": record.modality,
                            "timestamp": record.timestamp.isoformat()}}
        image = home.image_file(record)
        if image is not None:
            relative = Path("images") / record.project / record.image_path
            atomic_write_bytes(out / relative, image.read_bytes())
            row["image"] = relative.as_posix()
        rows.append(row)
    return rows


def query_rows(home: BuildHome) -> list[dict]:
    return [{"_id": item.id, "text": item.q,
             "metadata": {"project": item.project, "task": item.task, "category": TASK_CATEGORY[item.task],
                          "answer_status": item.answer_status, "gold_answer": item.gold.answer}}
            for item in home.items]


def qrels_tsv(home: BuildHome) -> str:
    lines = ["query-id\tcorpus-id\tscore"]
    lines += [f"{r['query_id']}\t{r['corpus_id']}\t{r['score']}" for r in qrels_rows(home)]
    return "\n".join(lines) + "\n"


def export_beir(home: BuildHome, out: Path) -> dict[str, int]:
    corpus = corpus_rows(home, out)
    queries = query_rows(home)
    atomic_write_jsonl(out / "corpus.jsonl", corpus)
    atomic_write_jsonl(out / "queries.jsonl", queries)
    qrels = qrels_tsv(home)
    atomic_write_text(out / "qrels" / "test.tsv", qrels)
    return {"corpus": len(corpus), "queries": len(queries), "qrels": qrels.count("\n") - 1,
            "images": sum("image" in r for r in corpus)}
