"""Ranking metrics of a retriever beside Evidence Recall@k: nDCG@10 and MRR.

Relevance is binary: a record is relevant to a question when it is one of its gold evidence records
(`QAItem.evidence`). Over the answerable questions with gold evidence, as Recall@k:
- nDCG@10 = DCG@10 / IDCG@10, DCG@10 = sum over ranks r <= 10 of rel_r / log2(r + 1), IDCG@10 the DCG
  of min(|gold|, 10) relevant records at the top;
- MRR = mean of 1 / (rank of the first gold record) over the whole retrieved list (0 when none).
These are the definitions of trec_eval and ranx (`ndcg@10`, `mrr`); tests/test_retrieval_metrics.py
recomputes them with ranx on a built benchmark.
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Mapping, Sequence

from mmeb_assets.retrieval.recall import KS, question_recall
from mmeb_assets.schema.qa import QAItem

METRICS_FILE = "metrics.json"


def ndcg_at(evidence: Sequence[str], retrieved: Sequence[str], k: int = 10) -> float:
    gold = set(evidence)
    seen: set[str] = set()
    dcg = 0.0
    for rank, rid in enumerate(retrieved[:k], start=1):
        if rid in gold and rid not in seen:
            dcg += 1.0 / math.log2(rank + 1)
        seen.add(rid)
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(len(gold), k) + 1))
    return dcg / ideal if ideal else 0.0


def reciprocal_rank(evidence: Sequence[str], retrieved: Sequence[str]) -> float:
    gold = set(evidence)
    for rank, rid in enumerate(retrieved, start=1):
        if rid in gold:
            return 1.0 / rank
    return 0.0


def ranking_metrics(items: Sequence[QAItem], retrieved: Mapping[str, Sequence[str]]) -> dict[str, float]:
    """{'recall@10', 'recall@50', 'recall@100', 'ndcg@10', 'mrr'} as fractions, and 'n' (questions scored);
    a question missing from `retrieved` retrieved nothing."""
    scored = [item for item in items if item.answer_status == "answerable" and item.evidence]
    sums = {f"recall@{k}": 0.0 for k in KS} | {"ndcg@10": 0.0, "mrr": 0.0}
    for item in scored:
        ranked = list(retrieved.get(item.id, []))
        for k in KS:
            sums[f"recall@{k}"] += question_recall(item.evidence, ranked, k)
        sums["ndcg@10"] += ndcg_at(item.evidence, ranked, 10)
        sums["mrr"] += reciprocal_rank(item.evidence, ranked)
    n = len(scored)
    return {key: round(value / n, 6) if n else 0.0 for key, value in sums.items()} | {"n": n}


def write_metrics(folder: Path, retriever: str, metrics: Mapping[str, float]) -> Path:
    from mmeb_resources.storage import atomic_write_text

    path = folder / METRICS_FILE
    atomic_write_text(path, json.dumps({"retriever": retriever, **metrics}, indent=1, sort_keys=True) + "\n")
    return path


def read_all_metrics(retrieval_dir: Path, names: Sequence[str]) -> dict[str, dict[str, float]]:
    """retriever -> metric -> value in % (rounded to 0.1), for the retrievers with a metrics file."""
    table: dict[str, dict[str, float]] = {}
    for name in names:
        path = retrieval_dir / name / METRICS_FILE
        if path.exists():
            raw = json.loads(path.read_text(encoding="utf-8"))
            table[name] = {key: round(100 * float(value), 1) for key, value in raw.items()
                           if key not in ("retriever", "n")}
    return table
