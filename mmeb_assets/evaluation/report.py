"""The paper's result tables computed from judgments, with bootstrap 95% intervals.

Table 5: accuracy per task (+ overall) per model and k. Table 6: accuracy by gold evidence count
(1 / 2+) and modality (text / visual / text+visual), answerable items only. Table 7: evidence
Recall@k and overall accuracy per retriever and k.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from mmeb_assets.schema.evaluation import AnswerSet, JudgmentSet, LeaderboardCell
from mmeb_assets.schema.qa import TASKS, Benchmark, QAItem
from mmeb_assets.schema.records import Corpus

BOOTSTRAP_SAMPLES = 1000
TABLE6_COLUMNS = ("text:1", "text:2+", "visual:1", "visual:2+", "text+visual:2+")


@dataclass(frozen=True)
class Run:
    answers: AnswerSet
    judgments: JudgmentSet
    group: str = ""


def bootstrap_ci(outcomes: list[bool], label: str, samples: int = BOOTSTRAP_SAMPLES) -> tuple[float, float]:
    """Percentile interval (2.5, 97.5) of the mean, in %, seeded from the label (deterministic)."""
    if not outcomes:
        return 0.0, 0.0
    seed = int(hashlib.sha256(label.encode()).hexdigest()[:8], 16)
    values = np.asarray(outcomes, dtype=float)
    draws = np.random.default_rng(seed).integers(0, len(values), size=(samples, len(values)))
    means = values[draws].mean(axis=1) * 100
    return round(float(np.percentile(means, 2.5)), 1), round(float(np.percentile(means, 97.5)), 1)


def make_cell(table: str, run: Run, column: str, outcomes: list[bool]) -> LeaderboardCell:
    low, high = bootstrap_ci(outcomes, f"{table}|{run.answers.model}|{run.answers.k}|{column}")
    n = len(outcomes)
    return LeaderboardCell(table=table, model=run.answers.model, group=run.group, k=run.answers.k,
                           retriever=run.answers.retriever, column=column, n=n, correct=int(sum(outcomes)),
                           accuracy=round(100 * sum(outcomes) / n, 1) if n else 0.0, ci_low=low, ci_high=high)


def evidence_class(item: QAItem, modality_of: dict[str, str]) -> str | None:
    """'text:1', 'visual:2+', 'text+visual:2+' ... for answerable items with gold evidence."""
    if item.answer_status != "answerable" or not item.evidence:
        return None
    kinds = {modality_of.get(rid, "text") for rid in item.evidence}
    modality = "text+visual" if len(kinds) > 1 else kinds.pop()
    count = "1" if len(item.evidence) == 1 else "2+"
    return f"{modality}:{count}"


def table5(run: Run, items: dict[str, QAItem]) -> list[LeaderboardCell]:
    outcomes: dict[str, list[bool]] = {task: [] for task in TASKS}
    for judgment in run.judgments.judgments:
        outcomes[items[judgment.question_id].task].append(judgment.correct)
    cells = [make_cell("table5", run, task, outcomes[task]) for task in TASKS]
    cells.append(make_cell("table5", run, "overall", [j.correct for j in run.judgments.judgments]))
    return cells


def table6(run: Run, items: dict[str, QAItem], modality_of: dict[str, str]) -> list[LeaderboardCell]:
    outcomes: dict[str, list[bool]] = {column: [] for column in TABLE6_COLUMNS}
    for judgment in run.judgments.judgments:
        column = evidence_class(items[judgment.question_id], modality_of)
        if column in outcomes:
            outcomes[column].append(judgment.correct)
    return [make_cell("table6", run, column, outcomes[column]) for column in TABLE6_COLUMNS]


def table7(run: Run) -> list[LeaderboardCell]:
    column = f"{run.answers.retriever}@{run.answers.k}"
    return [make_cell("table7", run, column, [j.correct for j in run.judgments.judgments])]


def compute_cells(runs: list[Run], benchmark: Benchmark, corpus: Corpus | None) -> list[LeaderboardCell]:
    items = {i.id: i for i in benchmark.items}
    modality_of = {r.id: r.modality for r in corpus.records} if corpus else {}
    for item in benchmark.items:  # evidence_stats from the QA stage, when the corpus is not at hand
        if item.evidence_stats and item.evidence_stats.modality in ("text", "visual") and not corpus:
            modality_of.update({rid: item.evidence_stats.modality for rid in item.evidence})
    cells: list[LeaderboardCell] = []
    for run in runs:
        unknown = [j.question_id for j in run.judgments.judgments if j.question_id not in items]
        if unknown:
            raise KeyError(f"judgments {run.answers.model}@k{run.answers.k}: unknown question ids {unknown[:5]}")
        cells += table5(run, items) + table6(run, items, modality_of) + table7(run)
    return cells


def question_counts(benchmark: Benchmark, corpus: Corpus | None) -> dict[str, int]:
    """Column sizes of the whole benchmark (the '# questions' rows)."""
    modality_of = {r.id: r.modality for r in corpus.records} if corpus else {}
    counts = {task: 0 for task in TASKS}
    counts.update({column: 0 for column in TABLE6_COLUMNS})
    for item in benchmark.items:
        counts[item.task] = counts.get(item.task, 0) + 1
        column = evidence_class(item, modality_of)
        if column in counts:
            counts[column] += 1
    counts["overall"] = len(benchmark.items)
    return counts


def recall_table(runs: list[Run]) -> dict[str, dict[str, float]]:
    """retriever -> k -> Recall@k in % (from the answer sets, which copy it from the retrievals)."""
    table: dict[str, dict[str, float]] = {}
    for run in runs:
        if run.answers.recall_at_k is not None and run.answers.evidence == "retrieved":
            table.setdefault(run.answers.retriever, {})[str(run.answers.k)] = round(100 * run.answers.recall_at_k, 1)
    return {r: dict(sorted(v.items(), key=lambda kv: int(kv[0]))) for r, v in sorted(table.items())}
