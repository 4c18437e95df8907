"""A user's own system as files: its answers (`{"id", "answer"}` per line) and, optionally, its
ranked retrievals (`{"id", "retrieved": [record ids, best first]}` per line), checked against the
benchmark's questions. A bad row stops the command with one line naming the file, the line and the
field."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from mmeb_assets.schema.qa import Benchmark, QAItem
from mmeb_assets.schema.records import Corpus


class SubmissionError(ValueError):
    """One line: `FILE:LINE: field 'NAME': what is wrong`."""


@dataclass
class BenchmarkFiles:
    """The questions (and the corpus, when stored beside them) of a build's home or of a benchmark folder."""

    folder: Path
    benchmark: Benchmark
    corpus: Corpus | None
    home: Path | None = None

    @property
    def items(self) -> dict[str, QAItem]:
        return {item.id: item for item in self.benchmark.items}


def locate_benchmark(path: Path) -> BenchmarkFiles:
    """`path` is a build's home (holding benchmark/questions.jsonl) or a folder holding questions.jsonl
    (a build's benchmark/ folder, or an export of it)."""
    from mmeb_assets.qa.export import read_questions_jsonl

    if (path / "questions.jsonl").exists():
        folder = path
    elif (path / "benchmark" / "questions.jsonl").exists():
        folder = path / "benchmark"
    else:
        raise SubmissionError(f"{path}: no questions.jsonl here nor in {path / 'benchmark'} (build the benchmark "
                              "first, or pass the folder of an exported benchmark)")
    items = read_questions_jsonl(folder / "questions.jsonl")
    home = folder.parent if (folder.name == "benchmark" and (folder.parent / "evaluation").is_dir()) else None
    benchmark = Benchmark(items=items, projects=sorted({item.project for item in items}))
    return BenchmarkFiles(folder=folder, benchmark=benchmark, corpus=_corpus(folder), home=home)


def _corpus(folder: Path) -> Corpus | None:
    path = folder / "corpus.json"
    if not path.exists():
        return None
    from mmeb_resources.io_manager import _load as load_envelope

    corpus = load_envelope(path)
    return corpus if isinstance(corpus, Corpus) else None


@dataclass
class Rows:
    values: dict[str, object] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)


def _rows(path: Path, value_field: str, known: dict[str, QAItem]) -> Rows:
    if not path.exists():
        raise SubmissionError(f"{path}: file not found")
    rows = Rows()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SubmissionError(f"{where}: not a JSON object ({exc.msg})") from None
        if not isinstance(row, dict):
            raise SubmissionError(f"{where}: not a JSON object")
        qid = row.get("id")
        if not isinstance(qid, str) or not qid:
            raise SubmissionError(f"{where}: field 'id': {'missing' if qid is None else 'expected a question id string'}")
        if qid not in known:
            raise SubmissionError(f"{where}: field 'id': unknown question id {qid!r}")
        if qid in rows.lines:
            raise SubmissionError(f"{where}: field 'id': {qid!r} again (first on line {rows.lines[qid]})")
        if value_field not in row:
            raise SubmissionError(f"{where}: field '{value_field}': missing")
        rows.values[qid], rows.lines[qid] = row[value_field], number
    return rows


def read_answers(path: Path, known: dict[str, QAItem]) -> dict[str, str]:
    """question id -> answer text."""
    rows = _rows(path, "answer", known)
    for qid, value in rows.values.items():
        if not isinstance(value, str):
            raise SubmissionError(f"{path}:{rows.lines[qid]}: field 'answer': expected a string")
    return dict(rows.values)  # type: ignore[arg-type]


def read_retrieved(path: Path, known: dict[str, QAItem]) -> dict[str, list[str]]:
    """question id -> record ids, best first."""
    rows = _rows(path, "retrieved", known)
    for qid, value in rows.values.items():
        if not isinstance(value, list) or not all(isinstance(rid, str) for rid in value):
            raise SubmissionError(f"{path}:{rows.lines[qid]}: field 'retrieved': expected a list of record id strings")
    return dict(rows.values)  # type: ignore[arg-type]
