"""Shortcut guard: after the mix and the evidence floors, a task whose kept questions a position
shortcut answers better than the oracle reader gets swaps until it does not.

Per kept question the oracle reader (latest mention over the gold evidence) and the two shortcut
readers (first / latest mention over the lexical top k) are judged, as `quality.seed_quality`
measures them. On a small project one question decides a task's gap (1 of 8 is 12 points), so a
question the shortcut answers and the oracle misses is exchanged for a left-out, validated question
of the same task and the same selection bucket (same evidence shape, same first/later-posted side),
which leaves task counts, evidence floors and the position balance as they were. Deterministic: the
kept order and the left-out order decide.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from mmeb_assets.evaluation.judge import judge_rules
from mmeb_assets.evaluation.readers import read_answer
from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.evidence_floors import evidence_floors, needed
from mmeb_assets.qa.quality import SHORTCUT_K, LexicalRanker
from mmeb_assets.schema import QAItem


@dataclass(frozen=True)
class ItemReads:
    """Whether each reader answers one question correctly."""
    oracle: bool
    first: bool
    latest: bool


class ReaderJudge:
    """Judges the oracle and shortcut readers on single questions, caching by question id."""

    def __init__(self, index: ProjectIndex, k: int = SHORTCUT_K):
        self.index, self.k = index, k
        self.ranker = LexicalRanker(index.ordered)
        self._cache: dict[str, ItemReads] = {}

    def reads(self, item: QAItem) -> ItemReads:
        if item.id not in self._cache:
            gold = [self.index.by_id[i] for i in item.evidence if i in self.index.by_id]
            top = self.ranker.top(item.q, self.k)
            self._cache[item.id] = ItemReads(
                oracle=judge_rules(item, read_answer(item.q, gold, "latest", sees_pixels=True)).correct,
                first=judge_rules(item, read_answer(item.q, top, "first")).correct,
                latest=judge_rules(item, read_answer(item.q, top, "latest")).correct)
        return self._cache[item.id]

    def gap(self, items: list[QAItem]) -> int:
        """Oracle correct minus the better shortcut's correct, in questions (the sign of quality's gap)."""
        reads = [self.reads(i) for i in items]
        return sum(r.oracle for r in reads) - max(sum(r.first for r in reads), sum(r.latest for r in reads))

    def shortcut_only(self, item: QAItem) -> bool:
        r = self.reads(item)
        return not r.oracle and (r.first or r.latest)


def _score(judge: ReaderJudge, items: list[QAItem]) -> tuple[int, int]:
    """Higher is better: the gap first, then fewer questions only a shortcut answers."""
    return judge.gap(items), -sum(judge.shortcut_only(i) for i in items)


def _swap_for(task_items: list[int], selected: list[QAItem], left_out: list[QAItem], judge: ReaderJudge,
              bucket: Callable[[QAItem], str]) -> tuple[int, int] | None:
    """(kept index, left-out index) of the first exchange in one task, within the same bucket, that
    raises its score."""
    before = _score(judge, [selected[i] for i in task_items])
    for i in task_items:
        outgoing = selected[i]
        if not judge.shortcut_only(outgoing):
            continue
        for j, incoming in enumerate(left_out):
            if incoming.task != outgoing.task or bucket(incoming) != bucket(outgoing):
                continue
            trial = [incoming if n == i else selected[n] for n in task_items]
            if _score(judge, trial) > before:
                return i, j
    return None


def _drop_for(task_items: list[int], selected: list[QAItem], index: ProjectIndex, judge: ReaderJudge) -> int | None:
    """A kept question only a shortcut answers, whose removal keeps the task and the evidence floors
    (cross-source items stay: their first/later-posted balance is set by the floors step)."""
    floors = evidence_floors(index)
    for i in task_items:
        item = selected[i]
        if len(task_items) < 2 or item.task == "cross_source_conflict" or not judge.shortcut_only(item):
            continue
        rest = selected[:i] + selected[i + 1:]
        if all(needed(rest, floor) == 0 for floor in floors):
            return i
    return None


def guard_shortcuts(selected: list[QAItem], left_out: list[QAItem], index: ProjectIndex,
                    bucket: Callable[[QAItem], str]) -> tuple[list[QAItem], list[QAItem], list[str]]:
    """(selected, left out, one line per change): every task's oracle-vs-shortcut gap raised to >= 0
    by swaps within a bucket, else by leaving out a question only a shortcut answers."""
    selected, left_out = list(selected), list(left_out)
    judge = ReaderJudge(index)
    changes: list[str] = []
    for task in dict.fromkeys(i.task for i in selected):
        for _ in range(len(selected)):
            task_items = [n for n, item in enumerate(selected) if item.task == task]
            if judge.gap([selected[n] for n in task_items]) >= 0:
                break
            found = _swap_for(task_items, selected, left_out, judge, bucket)
            if found is not None:
                i, j = found
                changes.append(f"{task}: {selected[i].id} (shortcut answers, oracle misses) -> {left_out[j].id}")
                selected[i], left_out[j] = left_out[j], selected[i]
                continue
            drop = _drop_for(task_items, selected, index, judge)
            if drop is None:
                break
            changes.append(f"{task}: {selected[drop].id} left out (shortcut answers, oracle misses; no swap)")
            left_out.append(selected.pop(drop))
    return selected, left_out, changes
