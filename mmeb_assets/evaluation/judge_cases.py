"""The hand-labelled judge set (tests/data/judge_cases.yaml) and agreement figures over it.

Each case is one candidate answer to one question with the human verdict and its near-miss kind; the
question becomes a QAItem so that any judge sees exactly what it sees in a benchmark run.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import yaml

from mmeb_assets.schema.common import Provenance
from mmeb_assets.schema.qa import Derivation, Gold, QAItem

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "tests" / "data" / "judge_cases.yaml"
PROVENANCE = Provenance(seed_id="judge-set", stage="evaluation", generator="human")


@dataclass(frozen=True)
class JudgeCase:
    id: str
    item: QAItem
    candidate: str
    human: bool
    kind: str  # 'paraphrase' for a correct answer, else the near miss (hedge, superseded, unit, ...)


def load_cases(path: Path = DEFAULT_PATH) -> list[JudgeCase]:
    groups = yaml.safe_load(path.read_text(encoding="utf-8"))
    cases = []
    for g_index, group in enumerate(groups, start=1):
        item = QAItem(
            id=f"judge-q{g_index:03d}", project="judge-set", task=group["task"], q=group["q"],
            answer_status=group.get("status", "answerable"),
            gold=Gold(answer=str(group["answer"]), value=_text(group.get("value")), unit=str(group.get("unit", ""))),
            generator="human", provenance=PROVENANCE,
            derivation=Derivation(**group["derivation"]) if group.get("derivation") else None)
        for c_index, (candidate, human, kind) in enumerate(group["cases"], start=1):
            cases.append(JudgeCase(f"{item.id}-{c_index}", item, str(candidate), bool(human), str(kind)))
    return cases


def _text(value) -> str | None:
    return None if value is None else str(value)


@dataclass
class Tally:
    n: int = 0
    agree: int = 0
    false_accepts: int = 0   # judged correct, human says wrong
    false_rejects: int = 0   # judged wrong, human says correct

    def add(self, human: bool, judged: bool) -> None:
        self.n += 1
        self.agree += human == judged
        self.false_accepts += judged and not human
        self.false_rejects += human and not judged

    def row(self) -> str:
        pct = lambda k: 100.0 * k / self.n if self.n else 0.0  # noqa: E731
        return (f"{self.n:4d} {pct(self.agree):6.1f}% {self.false_accepts:4d} ({pct(self.false_accepts):4.1f}%) "
                f"{self.false_rejects:4d} ({pct(self.false_rejects):4.1f}%)")


def tally(cases: list[JudgeCase], verdicts: list[bool]) -> dict[str, dict[str, Tally]]:
    """'all' / 'task' / 'kind' -> key -> Tally."""
    out: dict[str, dict[str, Tally]] = {name: defaultdict(Tally) for name in ("all", "task", "kind")}
    for case, judged in zip(cases, verdicts):
        for group, key in (("all", "all"), ("task", case.item.task), ("kind", case.kind)):
            out[group][key].add(case.human, judged)
    return out
