"""Question files: per project `questions.jsonl`, merged `benchmark/questions.jsonl` and `.parquet`.

The row layout is documented in docs/benchmark_schema.md; Parquet uses a fixed Arrow schema so that
`datasets.load_dataset("parquet", data_files=...)` reads every project the same way.
"""
from __future__ import annotations

import io
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from mmeb_resources.storage import atomic_write_bytes, atomic_write_jsonl
from mmeb_assets.schema import TASK_CATEGORY, QAItem

STEP = pa.struct([("step", pa.string()), ("record_ids", pa.list_(pa.string()))])
ARROW_SCHEMA = pa.schema([
    ("id", pa.string()), ("project", pa.string()), ("task", pa.string()), ("category", pa.string()),
    ("q", pa.string()), ("answer_status", pa.string()), ("gold_answer", pa.string()),
    ("gold_value", pa.string()), ("gold_unit", pa.string()), ("evidence", pa.list_(pa.string())),
    ("evidence_paths", pa.list_(pa.list_(pa.string()))), ("solution", pa.list_(STEP)),
    ("boundary", pa.string()), ("generator", pa.string()), ("validation_decision", pa.string()),
    ("validation_category", pa.string()), ("validation_rounds", pa.int32()),
    ("n_evidence", pa.int32()), ("source_types", pa.list_(pa.string())), ("evidence_modality", pa.string()),
    ("n_images", pa.int32()), ("evidence_span_hours", pa.float64()), ("perturbed_from", pa.string()),
    ("validation", pa.string()), ("derivation", pa.string()), ("provenance", pa.string()),
])


def question_row(item: QAItem) -> dict:
    """One JSONL line: the QAItem's fields plus its category."""
    row = item.model_dump(mode="json")
    row["category"] = TASK_CATEGORY[item.task]
    return row


def flat_row(item: QAItem) -> dict:
    """One Parquet row: nested objects whose shape varies (validation, derivation, provenance) as JSON text,
    so the Arrow schema is the same for every project and provenance survives the flattening."""
    stats = item.evidence_stats
    validation = item.validation
    return {
        "id": item.id, "project": item.project, "task": item.task, "category": TASK_CATEGORY[item.task],
        "q": item.q, "answer_status": item.answer_status, "gold_answer": item.gold.answer,
        "gold_value": item.gold.value, "gold_unit": item.gold.unit, "evidence": list(item.evidence),
        "evidence_paths": [list(p) for p in item.evidence_paths],
        "solution": [{"step": s.step, "record_ids": list(s.record_ids)} for s in item.solution],
        "boundary": item.boundary, "generator": item.generator,
        "validation_decision": validation.decision if validation else None,
        "validation_category": validation.category if validation else None,
        "validation_rounds": validation.rounds if validation else None,
        "n_evidence": len(item.evidence), "source_types": stats.source_types if stats else [],
        "evidence_modality": stats.modality if stats else "none", "n_images": stats.n_images if stats else 0,
        "evidence_span_hours": stats.span_hours if stats else 0.0, "perturbed_from": item.perturbed_from,
        "validation": validation.model_dump_json() if validation else None,
        "derivation": item.derivation.model_dump_json() if item.derivation else None,
        "provenance": item.provenance.model_dump_json() if item.provenance else None,
    }


def write_questions_jsonl(path: Path, items: list[QAItem]) -> Path:
    return atomic_write_jsonl(path, [question_row(i) for i in items])


def to_table(items: list[QAItem]) -> pa.Table:
    return pa.Table.from_pylist([flat_row(i) for i in items], schema=ARROW_SCHEMA)


def write_parquet(path: Path, items: list[QAItem]) -> Path:
    buffer = io.BytesIO()
    pq.write_table(to_table(items), buffer, compression="zstd")
    return atomic_write_bytes(path, buffer.getvalue())


def read_questions_jsonl(path: Path) -> list[QAItem]:
    items = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            row = json.loads(line)
            row.pop("category", None)
            try:
                items.append(QAItem.model_validate(row))
            except ValueError as exc:
                raise ValueError(f"{path}:{n}: not a valid question row: {exc}") from exc
    return items
