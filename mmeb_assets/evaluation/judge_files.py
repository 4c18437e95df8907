"""Judging answers given as files: questions as the benchmark writes them, answers as {"id", "answer"}.

Why strict reading: a user scoring their own system must learn at once which line of which file is
wrong, so every problem is one line naming the file, the line and the field. The answers file is read
by `submission.read_answers`, the same reader `mmeb score` uses.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from mmeb_assets.judge.llm import RULES_JUDGE, Verdict, judge_llm_batch, judge_rules
from mmeb_assets.evaluation.submission import SubmissionError, json_rows
from mmeb_assets.schema.qa import QAItem
from mmeb_resources.llm import LLMResource


class FileProblem(SubmissionError):
    """One line: '<file>:<line>: field '<field>': <what is wrong>'."""

    def __init__(self, path: Path, line: int, field: str, message: str):
        super().__init__(f"{path}:{line}: field '{field}': {message}")


FLAT_ONLY = ("category", "gold_answer", "gold_value", "gold_unit", "validation_decision", "validation_category",
             "validation_rounds", "n_evidence", "source_types", "evidence_modality", "n_images", "evidence_span_hours")


def _from_flat(row: dict) -> dict:
    """A row of the flat layout (the Parquet columns, e.g. read back with `datasets`) as a QAItem row."""
    out = {k: v for k, v in row.items() if k not in FLAT_ONLY}
    out["gold"] = {"answer": row.get("gold_answer"), "value": row.get("gold_value"), "unit": row.get("gold_unit") or ""}
    for key in ("derivation", "validation", "provenance"):
        if isinstance(out.get(key), str):
            out[key] = json.loads(out[key])
    out.setdefault("provenance", {"seed_id": row.get("project") or "", "stage": "qa",
                                  "generator": row.get("generator") or ""})
    return out


def read_questions(path: Path) -> list[QAItem]:
    """Rows as `questions.jsonl` holds them (QAItem fields plus category), or in the flat Parquet layout."""
    items, seen = [], set()
    for n, row in json_rows(path):
        try:
            row = _from_flat(row) if "gold_answer" in row and "gold" not in row else row
        except json.JSONDecodeError as exc:
            raise FileProblem(path, n, "derivation", f"not valid JSON ({exc.msg})") from exc
        row = {k: v for k, v in row.items() if k != "category"}
        try:
            item = QAItem.model_validate(row)
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "-"
            raise FileProblem(path, n, field, first["msg"]) from exc
        if item.id in seen:
            raise FileProblem(path, n, "id", f"duplicate question id {item.id!r}")
        seen.add(item.id)
        items.append(item)
    if not items:
        raise FileProblem(path, 0, "-", "no questions in the file")
    return items


@dataclass(frozen=True)
class FileVerdict:
    id: str
    correct: bool
    reason: str
    code: str
    judge: str

    def row(self) -> dict:
        return {"id": self.id, "correct": self.correct, "reason": self.reason, "code": self.code, "judge": self.judge}


def judge_answers(items: list[QAItem], answers: dict[str, str], llm: LLMResource | None = None) -> list[FileVerdict]:
    """One verdict per question; a question without an answer is wrong (code no_answer). With an LLM judge
    its verdict decides, and the rules verdict stands in where it gave none."""
    rules = {i.id: judge_rules(i, answers[i.id]) for i in items if i.id in answers}
    decided: dict[str, tuple[Verdict, str]] = {qid: (v, RULES_JUDGE) for qid, v in rules.items()}
    if llm is not None:
        asked = [i for i in items if i.id in answers]
        for item, found in zip(asked, judge_llm_batch(llm, asked, [answers[i.id] for i in asked])):
            if found.ok:
                decided[item.id] = (found, f"llm:{llm.model}")
    out = []
    for item in items:
        if item.id not in decided:
            out.append(FileVerdict(item.id, False, "no_answer: no answer was given", "no_answer", RULES_JUDGE))
            continue
        found, judge = decided[item.id]
        out.append(FileVerdict(item.id, found.correct, found.reason, found.code or ("llm" if judge != RULES_JUDGE
                                                                                     else ""), judge))
    return out
