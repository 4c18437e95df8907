"""`mmeb score`: a user's own system judged and placed beside the built-in ones (Tables 5-7).

The answers go through the same judging as the built-in runs (`build_judgments`, rules judge), the
cells through the same `report` functions (so the same intervals), and the retrieved ids through the
same ranking metrics as the `retrievals` asset. A question without an answer is judged wrong.
"""
from __future__ import annotations

from dataclasses import dataclass

from mmeb_assets.evaluation.intervals import paired_difference
from mmeb_assets.evaluation.judging import build_judgments
from mmeb_assets.evaluation.render import RETRIEVAL_METRICS, T6_LABELS, TASK_LABELS, _md_table, fmt, retrieval_md
from mmeb_assets.evaluation.report import TABLE6_COLUMNS, Run, run_outcomes, table5, table6
from mmeb_assets.evaluation.submission import BenchmarkFiles
from mmeb_assets.evaluation.submitted import SUBMITTED_GROUP, SUBMITTED_K, submitted_folder
from mmeb_assets.provenance import make_provenance
from mmeb_assets.retrieval.metrics import ranking_metrics
from mmeb_assets.schema.evaluation import Answer, AnswerSet, LeaderboardCell
from mmeb_assets.schema.qa import TASKS



@dataclass
class Score:
    name: str
    run: Run
    cells: list[LeaderboardCell]
    unanswered: list[str]
    retrieval: dict[str, float] | None

    def as_json(self) -> dict:
        index = {(c.table, c.column): c for c in self.cells}
        overall = index[("table5", "overall")]
        pct = {(t, col): (c.accuracy if c.n else None) for (t, col), c in index.items()}
        return {"name": self.name, "n": overall.n, "answered": overall.n - len(self.unanswered),
                "accuracy": overall.accuracy, "interval": [overall.ci_low, overall.ci_high],
                "judge": self.run.judgments.judge,
                "by_task": {task: pct[("table5", task)] for task in TASKS},
                "by_modality": {column: pct[("table6", column)] for column in TABLE6_COLUMNS},
                "retrieval": self.retrieval, "unanswered": self.unanswered}


def score_system(name: str, files: BenchmarkFiles, answers: dict[str, str],
                 retrieved: dict[str, list[str]] | None = None) -> Score:
    items = files.items
    answer_list = [Answer(question_id=qid, model=name, k=SUBMITTED_K, answer=answers.get(qid, ""), task=item.task,
                          error="" if qid in answers else "no answer submitted")
                   for qid, item in items.items()]
    answer_set = AnswerSet(model=name, k=SUBMITTED_K, retriever=name if retrieved is not None else "", backend="submitted",
                           generator=f"submitted:{name}", n_questions=len(items), answers=answer_list,
                           provenance=make_provenance("benchmark", "evaluation", "submitted", model=name))
    run = Run(answers=answer_set, judgments=build_judgments(answer_set, files.benchmark), group=SUBMITTED_GROUP)
    modality_of = {r.id: r.modality for r in files.corpus.records} if files.corpus else _modality_from_stats(files)
    cells = table5(run, items) + table6(run, items, modality_of)
    metrics = None
    if retrieved is not None:
        raw = ranking_metrics(files.benchmark.items, retrieved)
        metrics = {key: round(100 * raw[key], 1) for key, _ in RETRIEVAL_METRICS}
    unanswered = [qid for qid in items if qid not in answers]
    return Score(name=name, run=run, cells=cells, unanswered=unanswered, retrieval=metrics)


def _modality_from_stats(files: BenchmarkFiles) -> dict[str, str]:
    """Without the corpus: each gold record's modality from the question's evidence statistics."""
    modality_of: dict[str, str] = {}
    for item in files.benchmark.items:
        if item.evidence_stats and item.evidence_stats.modality in ("text", "visual"):
            modality_of.update({rid: item.evidence_stats.modality for rid in item.evidence})
    return modality_of


def _vs(score: Score, run: Run) -> str:
    """The built-in run minus the submitted system, paired over the questions both answered."""
    diff, low, high, n = paired_difference(run_outcomes(run), run_outcomes(score.run))
    if n == 0:
        return "–"
    mark = "≈" if low <= 0 <= high else "*"
    return f"{diff:+.1f} {mark} (n={n})"


@dataclass
class BuiltinRow:
    label: str
    k: int
    cells: dict[tuple[str, str], LeaderboardCell]
    vs: str = "–"


def builtin_rows(score: Score, runs: list[Run], files: BenchmarkFiles,
                 board_cells: list[LeaderboardCell] | None = None) -> list[BuiltinRow]:
    """The built-in systems: recomputed from their runs (with the paired comparison), or, for a
    benchmark folder without runs, read from its leaderboard.json cells."""
    items = files.items
    modality_of = {r.id: r.modality for r in files.corpus.records} if files.corpus else _modality_from_stats(files)
    rows = []
    for run in sorted(runs, key=lambda r: (r.answers.k, r.answers.model)):
        cells = {(c.table, c.column): c for c in table5(run, items) + table6(run, items, modality_of)}
        label = run.answers.model + (" †" if run.answers.sample_size is not None else "")
        rows.append(BuiltinRow(label, run.answers.k, cells, _vs(score, run)))
    if not runs and board_cells:
        grouped: dict[tuple[str, int], dict[tuple[str, str], LeaderboardCell]] = {}
        for cell in board_cells:
            if cell.table in ("table5", "table6"):
                grouped.setdefault((cell.model, cell.k), {})[(cell.table, cell.column)] = cell
        rows = [BuiltinRow(model, k, cells) for (model, k), cells in sorted(grouped.items(), key=lambda kv: kv[0][::-1])]
    return rows


def score_markdown(score: Score, rows: list[BuiltinRow], retrievers: dict[str, dict[str, float]],
                   n_questions: int) -> str:
    """Tables 5-7 rows of the submitted system above those of the built-in model x k runs."""
    own = {(c.table, c.column): c for c in score.cells}
    columns5, columns6 = (*TASKS, "overall"), TABLE6_COLUMNS
    everyone = [BuiltinRow(f"**{score.name}** (submitted)", SUBMITTED_K, own, "")] + rows
    rows5 = [[r.label, str(r.k or "–")] + [fmt(r.cells.get(("table5", c))) for c in columns5] + [r.vs]
             for r in everyone]
    rows6 = [[r.label, str(r.k or "–")] + [fmt(r.cells.get(("table6", c))) for c in columns6] for r in everyone]
    head5 = ["System", "k"] + [TASK_LABELS[c] for c in columns5] + [f"vs {score.name}"]
    parts = [f"### Table 5 — accuracy (%) by task: {score.name} beside the built-in systems\n\n"
             + _md_table(head5, rows5) + f"\n\nvs {score.name}: overall accuracy of the row minus {score.name}'s, in "
             "points, over the questions both answered; * significant, ≈ not (paired bootstrap, 95%). "
             "† a sampled model.",
             "### Table 6 — accuracy (%) by gold evidence count and modality\n\n"
             + _md_table(["System", "k"] + [T6_LABELS[c] for c in columns6], rows6)]
    table = dict(retrievers)
    if score.retrieval is not None:
        table = {f"{score.name} (submitted)": score.retrieval, **table}
    if table:
        parts.append("### Table 7a — retrieval: evidence Recall@k, nDCG@10 and MRR (%)\n\n" + retrieval_md(table))
    else:
        parts.append("### Table 7a — retrieval\n\nNo retrieved ids given (--retrieved) and no built-in retriever "
                     "materialized here.")
    missing = score.unanswered
    notes = [f"Judge: {score.run.judgments.judge}. Intervals as in the report (bootstrap of 10,000 resamples "
             "seeded from the question ids; Wilson under 30 questions).",
             f"{n_questions} questions; {n_questions - len(missing)} answered"
             + (f"; {len(missing)} without an answer, judged wrong: " + ", ".join(missing[:10])
                + (" …" if len(missing) > 10 else "") if missing else "") + "."]
    return "\n\n".join(["# " + score.name + " on MMEB", "\n".join(f"- {n}" for n in notes), *parts]) + "\n"


def save_score(score: Score, home, retrieved: dict[str, list[str]] | None = None):
    """Keep a scored system (<home>/submitted/<name>/: answers.json, judgments.json, retrieved.jsonl) where
    the leaderboard and `mmeb view` find it; outside evaluation/, so nothing that globs the built-in
    model x k cells there (export, lineage) mistakes it for one."""
    from mmeb_resources.io_manager import envelope_text
    from mmeb_resources.storage import atomic_write_jsonl, atomic_write_text

    folder = submitted_folder(home, score.name)
    atomic_write_text(folder / "answers.json", envelope_text(score.run.answers))
    atomic_write_text(folder / "judgments.json", envelope_text(score.run.judgments))
    if retrieved is not None:
        atomic_write_jsonl(folder / "retrieved.jsonl", [{"question_id": qid, "record_ids": ids, "scores": []}
                                                        for qid, ids in retrieved.items()])
    else:  # replaced by a scoring without retrievals: the kept ones were another system's
        (folder / "retrieved.jsonl").unlink(missing_ok=True)
    return folder
