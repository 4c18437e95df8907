"""`mmeb export --format trec`: one run file per retriever partition the build holds
(`qid Q0 docid rank score tag`, its stored top-100 per question) and the qrels (`qid 0 docid 1`),
for `trec_eval`, `pytrec_eval` and `ranx`.

Scores are stored at 6 decimals, so neighbours can tie; `trec_eval` and `ranx` order by score and
break ties their own way, which could move a record across a cutoff. Each written score is
therefore lowered by 1e-4 steps (TIE_STEP) where needed to keep it strictly below the previous one: every tool
then ranks exactly as the benchmark did, and Recall@k from these files equals the report's.
"""
from __future__ import annotations

from pathlib import Path

from mmeb_assets.export.build import BuildHome
from mmeb_assets.export.hf import qrels_rows
from mmeb_assets.schema.evaluation import RetrievalSet
from mmeb_resources.storage import atomic_write_text

NANO = 10 ** 9


# 1e-4: a tie broken by less is lost where a tool reads scores in single precision (pytrec_eval),
# whose float32 spacing is ~4e-6 at a BM25 score of 30; the written order is the benchmark's either way
TIE_STEP = 100_000


def strictly_decreasing(scores: list[float], n: int) -> list[int]:
    """Scores in units of 1e-9, each strictly below the one before; rank-based where scores are missing."""
    if len(scores) != n:
        return [(n - rank) * NANO for rank in range(n)]
    out: list[int] = []
    for score in scores:
        value = round(score * NANO)
        out.append(min(value, out[-1] - TIE_STEP) if out else value)
    return out


def format_score(nano: int) -> str:
    sign = "-" if nano < 0 else ""
    whole, frac = divmod(abs(nano), NANO)
    return f"{sign}{whole}.{frac:09d}"


def run_lines(retrievals: RetrievalSet, tag: str) -> list[str]:
    lines = []
    for retrieval in retrievals.retrievals:
        scores = strictly_decreasing(retrieval.scores, len(retrieval.record_ids))
        lines += [f"{retrieval.question_id} Q0 {doc} {rank} {format_score(score)} {tag}"
                  for rank, (doc, score) in enumerate(zip(retrieval.record_ids, scores), start=1)]
    return lines


def qrels_lines(home: BuildHome) -> list[str]:
    return [f"{r['query_id']} 0 {r['corpus_id']} {r['score']}" for r in qrels_rows(home)]


def export_trec(home: BuildHome, out: Path) -> dict[str, int]:
    counts = {}
    qrels = qrels_lines(home)
    atomic_write_text(out / "qrels.txt", "\n".join(qrels) + "\n")
    counts["qrels"] = len(qrels)
    for retriever, retrievals in home.require_retrievals().items():
        lines = run_lines(retrievals, f"mmeb-{retriever}")
        atomic_write_text(out / "runs" / f"{retriever}.run", "\n".join(lines) + "\n")
        counts[f"run:{retriever}"] = len(lines)
    return counts
