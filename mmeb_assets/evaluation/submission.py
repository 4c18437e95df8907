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


def json_rows(path: Path):
    """(line number, object) for each non-blank line of a JSONL file; anything else is one
    SubmissionError naming the file and the line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SubmissionError(f"{path}: file not found") from None
    except OSError as exc:
        raise SubmissionError(f"{path}: cannot read the file ({exc.strerror or exc})") from None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SubmissionError(f"{path}:{number}: field '-': not valid JSON, so not a JSON object "
                                  f"({exc.msg})") from None
        if not isinstance(row, dict):
            raise SubmissionError(f"{path}:{number}: field '-': not a JSON object")
        yield number, row


_MISSING = object()


def _rows(path: Path, value_field: str, known) -> Rows:
    """One row per known question id; `known` is anything that answers `id in known`."""
    rows = Rows()
    for number, row in json_rows(path):
        where = f"{path}:{number}"
        qid = row.get("id")
        if not isinstance(qid, str) or not qid:
            raise SubmissionError(f"{where}: field 'id': "
                                  f"{'missing or not a string' if qid is None else 'expected a question id string'}")
        if qid not in known:
            raise SubmissionError(f"{where}: field 'id': unknown question id {qid!r}")
        if qid in rows.lines:
            raise SubmissionError(f"{where}: field 'id': {qid!r} again (first on line {rows.lines[qid]})")
        rows.values[qid], rows.lines[qid] = row.get(value_field, _MISSING), number
    return rows


def read_answers(path: Path, known) -> dict[str, str]:
    """question id -> answer text."""
    rows = _rows(path, "answer", known)
    for qid, value in rows.values.items():
        if not isinstance(value, str):
            why = "missing or not a string" if value is _MISSING else "expected a string"
            raise SubmissionError(f"{path}:{rows.lines[qid]}: field 'answer': {why}")
    return dict(rows.values)  # type: ignore[arg-type]


def read_retrieved(path: Path, known) -> dict[str, list[str]]:
    """question id -> record ids, best first."""
    rows = _rows(path, "retrieved", known)
    for qid, value in rows.values.items():
        if value is _MISSING:
            raise SubmissionError(f"{path}:{rows.lines[qid]}: field 'retrieved': missing")
        if not isinstance(value, list) or not all(isinstance(rid, str) for rid in value):
            raise SubmissionError(f"{path}:{rows.lines[qid]}: field 'retrieved': expected a list of record id strings")
    return dict(rows.values)  # type: ignore[arg-type]
