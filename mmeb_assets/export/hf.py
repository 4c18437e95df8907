"""`mmeb export --format hf`: a folder that `datasets.load_dataset(DIR, CONFIG)` loads.

Each config is one Parquet file `data/<config>/test.parquet` (split `test`: the benchmark is a test
set), written through `datasets` with the fixed `Features` of `features.py`, which also go into the
card's `dataset_info` so the Hub's viewer and `load_dataset` agree on the schema. Visual records
carry their image bytes as an `Image` feature, so the folder is self-contained.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import datasets

from mmeb_assets.export.build import BuildHome, EvalCell
from mmeb_assets.export.card import write_card
from mmeb_assets.export.features import CONFIG_FEATURES
from mmeb_assets.qa.export import flat_row, write_questions_jsonl
from mmeb_assets.schema.records import Record
from mmeb_resources.storage import atomic_write_bytes

SPLIT = "test"


def data_file(config: str) -> str:
    return f"data/{config}/{SPLIT}.parquet"


def corpus_row(home: BuildHome, record: Record) -> dict:
    image = home.image_file(record)
    return {
        "id": record.id, "project": record.project, "source": record.source, "modality": record.modality,
        "timestamp": record.timestamp.isoformat(), "order": record.order, "author": record.author,
        "channel": record.channel, "recipients": list(record.recipients), "title": record.title,
        "filename": record.filename, "page": record.page, "text": record.text,
        "image": {"bytes": image.read_bytes(), "path": image.name} if image else None,
        "image_path": record.image_path, "doc_id": record.doc_id, "version": record.version,
        "supersedes": record.supersedes, "event_ids": list(record.event_ids), "access": list(record.access),
        "doc_key": record.doc_key, "reply_to": record.reply_to, "provenance": record.provenance.model_dump_json(),
    }


def qrels_rows(home: BuildHome) -> list[dict]:
    """Binary relevance: each answerable question's gold evidence records (unanswerable ones have none)."""
    return [{"query_id": item.id, "corpus_id": record_id, "score": 1}
            for item in home.items if item.answer_status == "answerable"
            for record_id in dict.fromkeys(item.evidence)]


def judgment_rows(cell: EvalCell) -> list[dict]:
    answers = {a.question_id: a for a in cell.answers.answers}
    meta = cell.answers
    rows = []
    for judgment in cell.judgments.judgments if cell.judgments else []:
        answer = answers.get(judgment.question_id)
        rows.append({
            "model": meta.model, "k": meta.k, "retriever": meta.retriever, "evidence": meta.evidence,
            "question_id": judgment.question_id, "answer": answer.answer if answer else "",
            "record_ids": list(answer.record_ids) if answer else [], "correct": judgment.correct,
            "judge": judgment.judge, "reason": judgment.reason, "rules_correct": judgment.rules_correct,
            "llm_correct": judgment.llm_correct, "llm_reason": judgment.llm_reason,
            "sampled": meta.sample_size is not None,
            "provenance": cell.judgments.provenance.model_dump_json(),
        })
    return rows


def config_rows(home: BuildHome) -> dict[str, list[dict]]:
    """{config: rows}; `judgments` and `leaderboard` only where the build has them."""
    configs = {
        "questions": [flat_row(item) for item in home.items],
        "corpus": [corpus_row(home, record) for record in home.corpus.records],
        "qrels": qrels_rows(home),
    }
    judged = [row for cell in home.cells for row in judgment_rows(cell)]
    if judged:
        configs["judgments"] = judged
    if home.leaderboard is not None and home.leaderboard.cells:
        configs["leaderboard"] = [cell.model_dump() for cell in home.leaderboard.cells]
    return configs


def write_parquet_rows(target: Path, rows: list[dict], features: datasets.Features) -> Path:
    """Rows as Parquet under fixed `features` (kept in the file's metadata), written whole then moved into place."""
    datasets.disable_progress_bars()
    table = datasets.Dataset.from_list(rows, features=features)
    with tempfile.TemporaryDirectory() as scratch:
        staged = Path(scratch) / "part.parquet"
        table.to_parquet(str(staged))
        return atomic_write_bytes(target, staged.read_bytes())


def export_hf(home: BuildHome, out: Path) -> dict[str, int]:
    """Writes `out/` (data/<config>/test.parquet and README.md); returns {config: rows}."""
    home.statistics  # the card needs them: fail before writing anything
    sources = home.seed_sources()
    configs = config_rows(home)
    for config, rows in configs.items():
        write_parquet_rows(out / data_file(config), rows, CONFIG_FEATURES[config])
    counts = {config: len(rows) for config, rows in configs.items()}
    write_questions_jsonl(out / "questions.jsonl", home.items)  # rows as the build writes them: `mmeb score --home`/`mmeb judge` read them
    write_card(out, home, counts, sources)
    return counts
