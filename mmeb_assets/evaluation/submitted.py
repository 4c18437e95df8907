"""Systems kept by `mmeb score` (<home>/submitted/<name>/): where they live, how they are read back, and
how the report takes them in.

One place builds the folder of a name (`submitted_folder`), so the command's check for a name kept
before and the save that keeps it can never disagree. The leaderboard asset and `mmeb score` both
read the kept systems through `submitted_runs`, so a rebuilt report keeps the rows a user added.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from mmeb_assets.evaluation.report import Run
from mmeb_assets.schema.evaluation import AnswerSet, JudgmentSet
from mmeb_assets.schema.qa import Benchmark
from mmeb_resources.io_manager import _load as load_envelope

SUBMITTED_DIR = "submitted"  # <home>/submitted/<name>/: the scored systems the report and the results browser show
SUBMITTED_GROUP = "submitted"  # their group in the leaderboard cells (and the results browser)
SUBMITTED_K = 0  # the system's own retrieval depth, unknown to us


def submitted_folder(home: Path, name: str) -> Path:
    """<home>/submitted/<name, with anything but letters, digits, '.', '_' and '-' as '_'>."""
    return Path(home) / SUBMITTED_DIR / re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._")


def submitted_runs(home: Path, question_ids: set[str] | None = None) -> list[Run]:
    """Every kept system as a run of group 'submitted'; judgments of questions the benchmark no longer
    holds are left out (a rebuilt benchmark may have dropped some)."""
    runs = []
    for folder in sorted((Path(home) / SUBMITTED_DIR).glob("*")):
        if not (folder / "judgments.json").exists() or not (folder / "answers.json").exists():
            continue
        answers, judgments = load_envelope(folder / "answers.json"), load_envelope(folder / "judgments.json")
        if not isinstance(answers, AnswerSet) or not isinstance(judgments, JudgmentSet):
            continue
        if question_ids is not None:
            known = [j for j in judgments.judgments if j.question_id in question_ids]
            judgments = judgments.model_copy(update={"judgments": known})
        runs.append(Run(answers=answers, judgments=judgments, group=SUBMITTED_GROUP))
    return runs


def read_kept_retrieved(folder: Path) -> dict[str, list[str]] | None:
    """question id -> record ids, best first, as `save_score` kept them; None when none were given."""
    path = folder / "retrieved.jsonl"
    if not path.exists():
        return None
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    return {row["question_id"]: row["record_ids"] for row in rows}


def submitted_retrieval(home: Path, benchmark: Benchmark) -> dict[str, dict[str, float]]:
    """'<name> (submitted)' -> Recall@10/50/100, nDCG@10 and MRR (%) of each kept system that gave its
    retrieved ids, by the same ranking metrics as the built-in retrievers."""
    from mmeb_assets.evaluation.render import RETRIEVAL_METRICS
    from mmeb_assets.retrieval.metrics import ranking_metrics

    table = {}
    for run in submitted_runs(home):
        retrieved = read_kept_retrieved(submitted_folder(home, run.answers.model))
        if retrieved is not None:
            raw = ranking_metrics(benchmark.items, retrieved)
            table[f"{run.answers.model} (submitted)"] = {key: round(100 * raw[key], 1) for key, _ in RETRIEVAL_METRICS}
    return table
