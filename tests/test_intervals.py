"""One interval per outcome set: seeded from the question ids (the same in every table), Wilson under 30
questions, 10,000 resamples equal in distribution to explicit index resampling, and the paired
bootstrap that marks model differences."""
from __future__ import annotations

import numpy as np
import pytest

from mmeb_assets.evaluation import intervals
from mmeb_assets.evaluation.intervals import (BOOTSTRAP_SAMPLES, accuracy_interval, bootstrap_interval, differs,
                                              outcome_seed, paired_difference, wilson_interval)
from mmeb_assets.evaluation.leaderboard import build_leaderboard
from mmeb_assets.provenance import make_provenance
from mmeb_assets.schema.evaluation import AnswerSet, Judgment, JudgmentSet
from mmeb_assets.schema.qa import TASKS, Benchmark
from mmeb_assets.evaluation.report import Run
from test_evaluation_fixtures import PROV, item

N = 80


def big_benchmark(n: int = N) -> Benchmark:
    return Benchmark(items=[item(f"q{i:03d}", TASKS[i % len(TASKS)], f"Question {i}?", "x", "x", [])
                            for i in range(n)], projects=["demo"])


def run_of(model: str, k: int, outcomes: dict[str, bool], evidence: str = "retrieved") -> Run:
    answers = AnswerSet(model=model, k=k, retriever="minilm", backend="reader", evidence=evidence, answers=[],
                        provenance=make_provenance("benchmark", "evaluation", "rules"))
    judgments = [Judgment(question_id=q, model=model, k=k, correct=c, reason="", judge="rules")
                 for q, c in outcomes.items()]
    return Run(answers=answers, judgments=JudgmentSet(model=model, k=k, judge="rules", judgments=judgments,
                                                      provenance=PROV), group="diagnostic")


def outcomes_with(correct: int, n: int = N, start: int = 0) -> dict[str, bool]:
    ids = [f"q{i:03d}" for i in range(n)]
    return {qid: (i - start) % n < correct for i, qid in enumerate(ids)}


def test_the_same_outcomes_get_the_same_interval_in_table5_and_table7(tmp_path):
    # 1,000 questions: the interval's rounded ends move with the seed (a table-label seed would differ)
    shared = outcomes_with(613, n=1000)
    runs = [run_of("model-a", 10, shared), run_of("model-b", 50, dict(reversed(list(shared.items()))))]
    board, markdown = build_leaderboard(runs, big_benchmark(1000), None, tmp_path)
    cells = {(c.table, c.model, c.column): c for c in board.cells}
    t5_a, t7_a = cells[("table5", "model-a", "overall")], cells[("table7", "model-a", "minilm@10")]
    t5_b, t7_b = cells[("table5", "model-b", "overall")], cells[("table7", "model-b", "minilm@50")]
    assert t5_a.interval == "bootstrap" and t5_a.n == 1000
    assert (t5_a.ci_low, t5_a.ci_high) == (t7_a.ci_low, t7_a.ci_high)
    # the same outcomes under another model, another k and another order: the same interval again
    assert (t5_a.ci_low, t5_a.ci_high) == (t5_b.ci_low, t5_b.ci_high) == (t7_b.ci_low, t7_b.ci_high)
    assert t5_a.ci_low < t5_a.accuracy < t5_a.ci_high
    assert f"({t5_a.ci_low:.1f}–{t5_a.ci_high:.1f})" in markdown.split("### Table 7")[1]


def test_the_seed_depends_on_the_ids_only(monkeypatch):
    assert outcome_seed(["b", "a"]) == outcome_seed(["a", "b"]) != outcome_seed(["a", "c"])
    a = {f"x{i}": i % 3 == 0 for i in range(60)}
    assert accuracy_interval(a) == accuracy_interval(dict(sorted(a.items(), reverse=True)))
    seeds = []
    monkeypatch.setattr(intervals, "bootstrap_interval", lambda c, n, seed: seeds.append(seed) or (0.0, 0.0))
    accuracy_interval(a)
    assert seeds == [outcome_seed(list(a))]


def test_wilson_is_used_under_30_questions_and_the_bootstrap_from_30(monkeypatch):
    small = {f"q{i}": i < 5 for i in range(5)}
    assert accuracy_interval(small) == wilson_interval(5, 5)
    low, high = accuracy_interval(small)
    assert high == 100.0 and 55.0 < low < 60.0  # Wilson 5/5: [56.6, 100]; a bootstrap would say [100, 100]
    called = []
    monkeypatch.setattr(intervals, "bootstrap_interval", lambda c, n, seed: called.append(n) or (0.0, 0.0))
    accuracy_interval({f"q{i}": i % 2 == 0 for i in range(29)})
    accuracy_interval({f"q{i}": i % 2 == 0 for i in range(30)})
    assert called == [30]


def test_wilson_matches_the_textbook_value():
    low, high = wilson_interval(20, 25)  # p = 0.8, n = 25
    assert low == pytest.approx(60.9, abs=0.1) and high == pytest.approx(91.1, abs=0.1)


def test_the_binomial_draw_is_the_index_resampling_bootstrap():
    outcomes = np.array([True] * 37 + [False] * 63)
    rng = np.random.default_rng(7)
    explicit = outcomes[rng.integers(0, len(outcomes), size=(BOOTSTRAP_SAMPLES, len(outcomes)))].mean(axis=1) * 100
    low, high = bootstrap_interval(37, 100, seed=11)
    assert low == pytest.approx(np.percentile(explicit, 2.5), abs=1.5)
    assert high == pytest.approx(np.percentile(explicit, 97.5), abs=1.5)


def test_the_paired_bootstrap_flags_a_significant_and_a_non_significant_difference():
    base = outcomes_with(40)  # 50%
    close = dict(base, q000=False, q041=True, q042=True)  # +1 question of 80
    far = {qid: True for qid in base}  # 100%
    _, low, high, n = paired_difference(close, base)
    assert n == N and low <= 0 <= high and differs(close, base) is False
    diff, low, high, _ = paired_difference(far, base)
    assert diff == 50.0 and low > 0 and differs(far, base) is True
    assert differs(base, {"other": True}) is None  # no shared question: not compared


def test_the_leaderboard_marks_the_best_and_the_differences_that_are_not_significant(tmp_path):
    best = run_of("reader-a", 10, outcomes_with(70))
    close = run_of("reader-b", 10, outcomes_with(68, start=3))
    far = run_of("reader-c", 10, outcomes_with(20))
    oracle = run_of("reader-oracle", 10, outcomes_with(80), evidence="gold")
    board, markdown = build_leaderboard([best, close, far, oracle], big_benchmark(), None, tmp_path)
    marks = {c.model: c.vs_best for c in board.cells if c.table == "table5" and c.column == "overall"}
    assert marks == {"reader-a": "best", "reader-b": "ns", "reader-c": "significant", "reader-oracle": ""}
    assert "**87.5**" in markdown and " ≈" in markdown
