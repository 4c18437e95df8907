"""Shortcut guard: after the mix and the evidence floors, a task whose kept questions a position
shortcut answers better than the oracle reader gets swaps until it does not.

Per kept question the oracle reader (latest mention over the gold evidence) and the two shortcut
readers (first / latest mention over the lexical top k) are judged, as `quality.seed_quality`
measures them. On a small project one question decides a task's gap (1 of 8 is 12 points), so a
question the shortcut answers and the oracle misses is exchanged for a left-out, validated question
of the same task and the same selection slot (a conflict's evidence shape and first/later-posted side,
another task's evidence size),
which leaves task counts, evidence floors and the position balance as they were. Deterministic: the
kept order and the left-out order decide.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from mmeb_assets.judge.llm import judge_rules
from mmeb_assets.judge.readers import read_answer
from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.evidence_floors import CONFLICT_TASKS, _find_swap, evidence_floors, needed
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


def _slot(bucket: Callable[[QAItem], str], item: QAItem) -> str:
    """What a swap keeps: a conflict's whole bucket (posted side and evidence shape), another item's
    evidence size (its bucket's first part; the family may change)."""
    key = bucket(item)
    return key if item.task in CONFLICT_TASKS else key.partition("|")[0]


def _swap_for(task_items: list[int], selected: list[QAItem], left_out: list[QAItem], judge: ReaderJudge,
              bucket: Callable[[QAItem], str], index: ProjectIndex) -> tuple[int, int] | None:
    """(kept index, left-out index) of the first exchange in one task that raises its score and lowers
    no evidence floor (or leaves every floor met): within the same slot, else (outside conflicts) one of
    another evidence size."""
    before = _score(judge, [selected[i] for i in task_items])
    floors = evidence_floors(index)
    for same_slot in (True, False):
        for i in task_items:
            outgoing = selected[i]
            if not judge.shortcut_only(outgoing) or (not same_slot and outgoing.task in CONFLICT_TASKS):
                continue
            for j, incoming in enumerate(left_out):
                if incoming.task != outgoing.task or \
                        same_slot != (_slot(bucket, incoming) == _slot(bucket, outgoing)):
                    continue
                trial = [incoming if n == i else selected[n] for n in task_items]
                if _score(judge, trial) <= before:
                    continue
                keeps = all(f.holds(incoming) or not f.holds(outgoing) for f in floors)
                if keeps or all(needed(selected[:i] + [incoming] + selected[i + 1:], f) == 0 for f in floors):
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


def _repair_floors(selected: list[QAItem], left_out: list[QAItem], index: ProjectIndex, judge: ReaderJudge,
                   bucket: Callable[[QAItem], str]) -> tuple[list[QAItem], list[QAItem], list[str]] | None:
    """The evidence floors restored by floor swaps that leave no task's gap below zero, or None."""
    floors, moves = evidence_floors(index), []
    for floor in floors:
        while needed(selected, floor) > 0:
            found = _find_swap(selected, left_out, floor, floors, bucket)
            if found is None:
                return None
            i, j = found
            task = selected[i].task
            trial = selected[:i] + [left_out[j]] + selected[i + 1:]
            if judge.gap([t for t in trial if t.task == task]) < min(0, judge.gap([t for t in selected if t.task == task])):
                return None
            moves.append(f"{selected[i].id} -> {left_out[j].id}")
            selected, left_out = trial, left_out[:j] + [selected[i]] + left_out[j + 1:]
    return selected, left_out, moves


def _swap_and_repair(task_items: list[int], selected: list[QAItem], left_out: list[QAItem], judge: ReaderJudge,
                     bucket: Callable[[QAItem], str], index: ProjectIndex):
    """(selected, left out, the item taken out, floor moves): a question only a shortcut answers
    exchanged for one of another evidence size in its task, then the floor it held restored by a floor
    swap elsewhere (the item taken out is held aside, so it cannot come back); None when no such pair of
    exchanges exists. Conflict items are left to the posted-side balance."""
    before = _score(judge, [selected[i] for i in task_items])
    for i in task_items:
        outgoing = selected[i]
        if outgoing.task in CONFLICT_TASKS or not judge.shortcut_only(outgoing):
            continue
        for j, incoming in enumerate(left_out):
            trial = selected[:i] + [incoming] + selected[i + 1:]
            if incoming.task != outgoing.task or _score(judge, [trial[n] for n in task_items]) <= before:
                continue
            repaired = _repair_floors(trial, left_out[:j] + left_out[j + 1:], index, judge, bucket)
            if repaired is not None:
                return repaired[0], repaired[1], outgoing, ", ".join(repaired[2]) or "none needed"
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
            found = _swap_for(task_items, selected, left_out, judge, bucket, index)
            if found is not None:
                i, j = found
                changes.append(f"{task}: {selected[i].id} (shortcut answers, oracle misses) -> {left_out[j].id}")
                selected[i], left_out[j] = left_out[j], selected[i]
                continue
            repaired = _swap_and_repair(task_items, selected, left_out, judge, bucket, index)
            if repaired is not None:
                selected, left_out, outgoing, moves = repaired
                changes.append(f"{task}: {outgoing.id} (shortcut answers, oracle misses) out; floors kept by {moves}")
                left_out.append(outgoing)
                continue
            drop = _drop_for(task_items, selected, index, judge)
            if drop is None:
                break
            changes.append(f"{task}: {selected[drop].id} left out (shortcut answers, oracle misses; no swap)")
            left_out.append(selected.pop(drop))
    return selected, left_out, changes
