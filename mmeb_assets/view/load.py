"""Read a finished build's home into one `BuildData`: the files the stages wrote, nothing recomputed
except what the tables already define (cells of submitted systems go through the report's functions)."""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

from mmeb_assets.evaluation.leaderboard import load_runs
from mmeb_assets.evaluation.report import Run, table5, table6, table7
from mmeb_assets.evaluation.submission import BenchmarkFiles, locate_benchmark
from mmeb_assets.schema.evaluation import Leaderboard, LeaderboardCell, Retrieval
from mmeb_assets.schema.qa import QAItem
from mmeb_assets.schema.records import Record
from mmeb_resources.io_manager import _load as load_envelope

from mmeb_assets.evaluation.submitted import SUBMITTED_GROUP, submitted_folder, submitted_runs

log = logging.getLogger(__name__)


class IncompleteBuild(RuntimeError):
    """The home lacks what the view needs (no questions or no leaderboard yet): one line saying which."""


@dataclass
class RetrieverRun:
    """One retriever's ranked lists: question id -> (record ids, scores), best first."""

    name: str
    ranked: dict[str, Retrieval]
    submitted: bool = False


@dataclass
class BuildData:
    home: Path
    items: list[QAItem]
    records: dict[str, Record]
    board: Leaderboard
    runs: list[Run]
    retrievers: list[RetrieverRun]
    submitted_cells: list[LeaderboardCell] = field(default_factory=list)
    lineage: dict[str, dict] = field(default_factory=dict)  # record id -> row of record_lineage.jsonl

    @property
    def item_by_id(self) -> dict[str, QAItem]:
        return {item.id: item for item in self.items}

    def run_key(self, run: Run) -> str:
        return f"{run.answers.model}@{run.answers.k}"


def _registry_runs(home: Path) -> list[Run]:
    """Every model x k cell stored under evaluation/, registered or not (a model removed from the
    registry after its run still has answers worth reading)."""
    from mmeb_resources.model_registry import load_registry

    try:
        registry = load_registry()
    except Exception as exc:  # the view never fails on a registry it does not need
        log.warning("model registry unreadable (%s); groups left blank", exc)
        registry = None
    keys = sorted({(folder.parent.name, int(folder.name[1:]))
                   for folder in (home / "evaluation").glob("*/k*")
                   if folder.name[1:].isdigit() and (folder / "judgments.json").exists()})
    runs, _ = load_runs(home, keys, registry)
    return runs


def _submitted(home: Path, items: dict[str, QAItem], modality_of: dict[str, str]
               ) -> tuple[list[Run], list[LeaderboardCell], list[RetrieverRun]]:
    """Systems scored with `mmeb score` (saved under <home>/submitted/<name>/), as runs and cells."""
    runs, cells, retrievers = submitted_runs(home, set(items)), [], []
    for run in runs:
        cells += table5(run, items) + table6(run, items, modality_of)
        ranked_path = submitted_folder(home, run.answers.model) / "retrieved.jsonl"
        if ranked_path.exists():
            ranked = _read_retrievals(ranked_path)
            retrievers.append(RetrieverRun(name=f"{run.answers.model} (submitted)", ranked=ranked, submitted=True))
            cells += table7(run)
    return runs, cells, retrievers


def _read_retrievals(path: Path) -> dict[str, Retrieval]:
    ranked = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = Retrieval.model_validate_json(line)
            ranked[row.question_id] = row
    return ranked


def _retrievers(home: Path) -> list[RetrieverRun]:
    found = []
    for path in sorted((home / "evaluation" / "retrieval").glob("*/retrievals.jsonl")):
        found.append(RetrieverRun(name=path.parent.name, ranked=_read_retrievals(path)))
    return found


def _records(home: Path, files: BenchmarkFiles) -> dict[str, Record]:
    if files.corpus is not None:
        return {r.id: r for r in files.corpus.records}
    records: dict[str, Record] = {}
    for path in sorted((home / "projects").glob("*/records.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = Record.model_validate_json(line)
                records[record.id] = record
    return records


def _lineage(home: Path) -> dict[str, dict]:
    path = home / "benchmark" / "record_lineage.jsonl"
    if not path.exists():
        return {}
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    return {row["record_id"]: row for row in rows}


def load_build(home: Path) -> BuildData:
    """Everything the site shows; an IncompleteBuild names the first missing piece."""
    home = home.resolve()
    try:
        files = locate_benchmark(home)
    except ValueError as exc:
        raise IncompleteBuild(str(exc)) from None
    board_path = home / "benchmark" / "leaderboard.json"
    if not board_path.exists():
        raise IncompleteBuild(f"{board_path}: no leaderboard yet (build the evaluation stage first: mmeb demo, "
                              "or mmeb build --select leaderboard)")
    board = load_envelope(board_path)
    # the kept systems are read afresh below; rows `mmeb score` already wrote into the leaderboard are not doubled
    board = board.model_copy(update={"cells": [c for c in board.cells if c.group != SUBMITTED_GROUP]})
    records = _records(home, files)
    items = files.items
    modality_of = {rid: r.modality for rid, r in records.items()}
    submitted_runs, submitted_cells, submitted_retrievers = _submitted(home, items, modality_of)
    return BuildData(home=home, items=list(files.benchmark.items), records=records, board=board,
                     runs=_registry_runs(home) + submitted_runs, retrievers=_retrievers(home) + submitted_retrievers,
                     submitted_cells=submitted_cells, lineage=_lineage(home))
