"""The site's small, always-loaded part (the leaderboard: Tables 5-7 with intervals, the runs, the
question-health lists) and its on-demand indexes (the question list, one verdict string per run,
the paired tests of the compare view)."""
from __future__ import annotations

from mmeb_assets.evaluation.intervals import paired_difference
from mmeb_assets.evaluation.render import RETRIEVAL_METRICS, T6_LABELS, TASK_LABELS
from mmeb_assets.evaluation.report import TABLE6_COLUMNS, Run, evidence_class, question_counts, run_outcomes
from mmeb_assets.judge.rules import judge_rules
from mmeb_assets.schema.qa import TASKS, QAItem
from mmeb_assets.schema.records import Corpus
from mmeb_assets.view.load import BuildData

INDEX_COLUMNS = ("id", "project", "task", "modality", "evidence", "images", "generator", "q", "status", "ev_class")


def is_model(run: Run) -> bool:
    """A model answers; a diagnostic reader (latest / first mention, oracle) is a shortcut probe."""
    return run.answers.backend != "reader"


def run_json(run: Run, data: BuildData, number: int) -> dict:
    a = run.answers
    return {"key": data.run_key(run), "model": a.model, "k": a.k, "group": run.group or "other",
            "retriever": a.retriever, "backend": a.backend, "evidence": a.evidence, "file": f"data/runs/{number}.js",
            "answered": len(a.answers), "sampled": a.sample_size is not None, "diagnostic": not is_model(run),
            "submitted": run.group == "submitted"}


def cells_json(data: BuildData) -> list[dict]:
    cells = list(data.board.cells) + list(data.submitted_cells)
    return [{"t": c.table, "m": c.model, "k": c.k, "c": c.column, "r": c.retriever, "n": c.n, "ok": c.correct,
             "acc": c.accuracy, "lo": c.ci_low, "hi": c.ci_high, "iv": c.interval, "vs": c.vs_best,
             "g": c.group} for c in cells]


def index_rows(data: BuildData) -> list[list]:
    """One row per question (INDEX_COLUMNS): what the slice filters and searches."""
    modality_of = {rid: r.modality for rid, r in data.records.items()}
    rows = []
    for item in data.items:
        kinds = {modality_of.get(rid, "text") for rid in item.evidence}
        modality = "text+visual" if len(kinds) > 1 else (kinds.pop() if kinds else "none")
        images = item.evidence_stats.n_images if item.evidence_stats else \
            sum(1 for rid in item.evidence if modality_of.get(rid) == "visual")
        rows.append([item.id, item.project, item.task, modality, len(item.evidence), images, item.generator,
                     item.q, item.answer_status, evidence_class(item, modality_of) or ""])
    return rows


def verdict_string(run: Run, data: BuildData) -> dict:
    """'1' right, '0' wrong, '.' not answered (a sampled model), in question-index order; reason codes beside."""
    judged = {j.question_id: j for j in run.judgments.judgments}
    marks, codes = [], []
    for item in data.items:
        j = judged.get(item.id)
        marks.append("." if j is None else ("1" if j.correct else "0"))
        codes.append(j.code if j is not None else "")
    return {"v": "".join(marks), "codes": codes}


def health(data: BuildData) -> dict:
    """Questions every model misses, questions a diagnostic reader gets while every model misses, and
    questions whose own gold the rules judge rejects."""
    outcomes = [(run, run_outcomes(run)) for run in data.runs]
    missed, beaten, rejected = [], [], []
    for index, item in enumerate(data.items):
        by_models = [o[item.id] for run, o in outcomes if is_model(run) and item.id in o]
        readers = sorted({data.run_key(run) for run, o in outcomes if not is_model(run) and o.get(item.id)})
        if by_models and not any(by_models):
            missed.append({"i": index, "runs": len(by_models)})
            if readers:
                beaten.append({"i": index, "readers": readers})
        verdict = judge_rules(item, item.gold.answer)
        if not verdict.correct:
            rejected.append({"i": index, "code": verdict.code, "reason": verdict.reason})
    return {"missed": missed, "beaten": beaten, "rejected": rejected}


def pairs(data: BuildData) -> dict[str, list[float]]:
    """'a|b' -> [difference, low, high, n] (points, a minus b) of the report's paired bootstrap, for
    every two runs of one k (two models) or of one model (two k), and a submitted system beside any run."""
    out = {}
    runs = [(data.run_key(r), r, run_outcomes(r)) for r in data.runs]
    for i, (key_a, run_a, a) in enumerate(runs):
        for key_b, run_b, b in runs[i + 1:]:
            same_k, same_model = run_a.answers.k == run_b.answers.k, run_a.answers.model == run_b.answers.model
            if same_k or same_model or "submitted" in (run_a.group, run_b.group):
                diff, low, high, n = paired_difference(a, b)
                out[f"{key_a}|{key_b}"] = [diff, low, high, n]
    return out


def board_json(data: BuildData) -> dict:
    corpus = Corpus(records=list(data.records.values()), projects=[]) if data.records else None
    return {
        "n_questions": len(data.items), "projects": sorted({i.project for i in data.items}),
        "tasks": list(TASKS), "task_labels": TASK_LABELS, "t6_columns": list(TABLE6_COLUMNS), "t6_labels": T6_LABELS,
        "counts": question_counts(_bench(data.items), corpus),
        "runs": [run_json(run, data, n) for n, run in enumerate(data.runs)],
        "cells": cells_json(data), "retrieval": data.board.retrieval, "recall": data.board.recall,
        "metric_labels": dict(RETRIEVAL_METRICS), "notes": data.board.notes, "missing": data.board.missing,
        "retrievers": [r.name for r in data.retrievers], "health": health(data),
        "index_columns": list(INDEX_COLUMNS),
    }


def _bench(items: list[QAItem]):
    from mmeb_assets.schema.qa import Benchmark

    return Benchmark(items=items, projects=sorted({i.project for i in items}))
