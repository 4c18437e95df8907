"""The paper's result tables computed from judgments, with 95% intervals (evaluation/intervals.py).

Table 5: accuracy per task (+ overall) per model and k. Table 6: accuracy by gold evidence count
(1 / 2+) and modality (text / visual / text+visual), answerable items only. Table 7: evidence
Recall@k and overall accuracy per retriever and k.
"""
from __future__ import annotations

from dataclasses import dataclass

from mmeb_assets.evaluation.intervals import accuracy_interval, differs, interval_method
from mmeb_assets.schema.evaluation import AnswerSet, JudgmentSet, LeaderboardCell
from mmeb_assets.schema.qa import TASKS, Benchmark, QAItem
from mmeb_assets.schema.records import Corpus

TABLE6_COLUMNS = ("text:1", "text:2+", "visual:1", "visual:2+", "text+visual:2+")


@dataclass(frozen=True)
class Run:
    answers: AnswerSet
    judgments: JudgmentSet
    group: str = ""


Outcomes = dict[tuple[str, str, int, str], dict[str, bool]]  # (table, model, k, column) -> id -> correct


def make_cell(table: str, run: Run, column: str, outcomes: dict[str, bool],
              seen: Outcomes | None = None) -> LeaderboardCell:
    """One cell; its interval depends on the outcomes only (see intervals.py), not on the table.
    `seen` keeps the outcomes for the paired comparisons of `mark_differences`."""
    if seen is not None:
        seen[(table, run.answers.model, run.answers.k, column)] = outcomes
    low, high = accuracy_interval(outcomes)
    n, correct = len(outcomes), sum(outcomes.values())
    return LeaderboardCell(table=table, model=run.answers.model, group=run.group, k=run.answers.k,
                           retriever=run.answers.retriever, column=column, n=n, correct=int(correct),
                           accuracy=round(100 * correct / n, 1) if n else 0.0, ci_low=low, ci_high=high,
                           interval=interval_method(n, int(correct)))


def evidence_class(item: QAItem, modality_of: dict[str, str]) -> str | None:
    """'text:1', 'visual:2+', 'text+visual:2+' ... for answerable items with gold evidence."""
    if item.answer_status != "answerable" or not item.evidence:
        return None
    kinds = {modality_of.get(rid, "text") for rid in item.evidence}
    modality = "text+visual" if len(kinds) > 1 else kinds.pop()
    count = "1" if len(item.evidence) == 1 else "2+"
    return f"{modality}:{count}"


def run_outcomes(run: Run) -> dict[str, bool]:
    return {j.question_id: j.correct for j in run.judgments.judgments}


def table5(run: Run, items: dict[str, QAItem], seen: Outcomes | None = None) -> list[LeaderboardCell]:
    outcomes: dict[str, dict[str, bool]] = {task: {} for task in TASKS}
    for judgment in run.judgments.judgments:
        outcomes[items[judgment.question_id].task][judgment.question_id] = judgment.correct
    cells = [make_cell("table5", run, task, outcomes[task], seen) for task in TASKS]
    cells.append(make_cell("table5", run, "overall", run_outcomes(run), seen))
    return cells


def table6(run: Run, items: dict[str, QAItem], modality_of: dict[str, str],
           seen: Outcomes | None = None) -> list[LeaderboardCell]:
    outcomes: dict[str, dict[str, bool]] = {column: {} for column in TABLE6_COLUMNS}
    for judgment in run.judgments.judgments:
        column = evidence_class(items[judgment.question_id], modality_of)
        if column in outcomes:
            outcomes[column][judgment.question_id] = judgment.correct
    return [make_cell("table6", run, column, outcomes[column], seen) for column in TABLE6_COLUMNS]


def table7(run: Run, seen: Outcomes | None = None) -> list[LeaderboardCell]:
    column = f"{run.answers.retriever}@{run.answers.k}"
    return [make_cell("table7", run, column, run_outcomes(run), seen)]


def mark_differences(cells: list[LeaderboardCell], seen: Outcomes, ceilings: set[str]) -> None:
    """Per table, k and column: the best model is marked 'best'; every other model 'ns' when the
    paired bootstrap finds its difference to the best not significant (95%), else 'significant'.
    Models in `ceilings` (gold evidence; submitted systems, at their own depth) are neither best nor compared."""
    columns: dict[tuple[str, int, str], list[LeaderboardCell]] = {}
    for cell in cells:
        if cell.n and cell.model not in ceilings:
            columns.setdefault((cell.table, cell.k, cell.column), []).append(cell)
    for (table, k, column), group in columns.items():
        if len(group) < 2:
            continue
        best = max(group, key=lambda c: (c.accuracy, c.n, c.model))
        if best.accuracy <= 0:
            continue  # every model scores 0: no best to mark
        best.vs_best = "best"
        for cell in group:
            if cell is not best:
                verdict = differs(seen[(table, best.model, k, column)], seen[(table, cell.model, k, column)])
                cell.vs_best = "" if verdict is None else ("significant" if verdict else "ns")


def compute_cells(runs: list[Run], benchmark: Benchmark, corpus: Corpus | None) -> list[LeaderboardCell]:
    items = {i.id: i for i in benchmark.items}
    modality_of = {r.id: r.modality for r in corpus.records} if corpus else {}
    for item in benchmark.items:  # evidence_stats from the QA stage, when the corpus is not at hand
        if item.evidence_stats and item.evidence_stats.modality in ("text", "visual") and not corpus:
            modality_of.update({rid: item.evidence_stats.modality for rid in item.evidence})
    cells: list[LeaderboardCell] = []
    seen: Outcomes = {}
    for run in runs:
        unknown = [j.question_id for j in run.judgments.judgments if j.question_id not in items]
        if unknown:
            raise KeyError(f"judgments {run.answers.model}@k{run.answers.k}: unknown question ids {unknown[:5]}")
        cells += table5(run, items, seen) + table6(run, items, modality_of, seen)
        # a gold-evidence reader uses no retriever, a submitted system its own at an unknown depth: no
        # Recall@k to set them against
        if run.answers.evidence != "gold" and run.group != "submitted":
            cells += table7(run, seen)
    mark_differences(cells, seen, {r.answers.model for r in runs
                                   if r.answers.evidence == "gold" or r.group == "submitted"})
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
