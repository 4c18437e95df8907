"""`mmeb export --format ragas`: per answered model and k, the RAG evaluation table RAGAS reads
(`EvaluationDataset.from_list` / `from_hf_dataset`): `user_input` (the question),
`retrieved_contexts` (the stored text of the records the model was given, in prompt order),
`response` (its answer), `reference` (the gold answer), plus `reference_contexts` (the gold
evidence's text) and the benchmark's own verdict, as `<model>/k<k>.parquet`."""
from __future__ import annotations

from pathlib import Path

import datasets

from mmeb_assets.export.build import BuildHome, EvalCell, IncompleteBuild
from mmeb_assets.export.hf import write_parquet_rows

FEATURES = datasets.Features({
    "question_id": datasets.Value("string"), "user_input": datasets.Value("string"),
    "retrieved_contexts": datasets.List(datasets.Value("string")),
    "retrieved_ids": datasets.List(datasets.Value("string")),
    "response": datasets.Value("string"), "reference": datasets.Value("string"),
    "reference_contexts": datasets.List(datasets.Value("string")),
    "task": datasets.Value("string"), "model": datasets.Value("string"), "k": datasets.Value("int32"),
    "retriever": datasets.Value("string"), "correct": datasets.Value("bool"),
})


def cell_rows(home: BuildHome, cell: EvalCell) -> list[dict]:
    items = {item.id: item for item in home.items}
    records = home.records_by_id
    verdicts = {j.question_id: j.correct for j in cell.judgments.judgments} if cell.judgments else {}
    rows = []
    for answer in cell.answers.answers:
        item = items.get(answer.question_id)
        if item is None:
            raise IncompleteBuild(f"answers of {cell.answers.model}@k{cell.answers.k}: question "
                                  f"{answer.question_id!r} is not in the benchmark (stale; rematerialize 'answers')")
        rows.append({
            "question_id": item.id, "user_input": item.q,
            "retrieved_contexts": [records[r].text for r in answer.record_ids if r in records],
            "retrieved_ids": list(answer.record_ids), "response": answer.answer, "reference": item.gold.answer,
            "reference_contexts": [records[r].text for r in item.evidence if r in records],
            "task": item.task, "model": answer.model, "k": answer.k, "retriever": cell.answers.retriever,
            "correct": verdicts.get(item.id),
        })
    return rows


def export_ragas(home: BuildHome, out: Path) -> dict[str, int]:
    counts = {}
    for cell in home.require_cells():
        rows = cell_rows(home, cell)
        name = f"{cell.answers.model}/k{cell.answers.k}"
        write_parquet_rows(out / f"{name}.parquet", rows, FEATURES)
        counts[name] = len(rows)
    return counts
