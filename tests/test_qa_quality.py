"""Per-seed quality: the measures of `mmeb questions --by-seed`, the selection buckets, the command itself."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from mmeb_assets.provenance import make_provenance
from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.export import write_questions_jsonl
from mmeb_assets.qa.fixture import SEED, fixture_organization, fixture_plan, fixture_records
from mmeb_assets.qa.generate import generate_rule_items, make_context
from mmeb_assets.qa.evidence_floors import CONFLICT_TASKS
from mmeb_assets.qa.mix import DEFERRED, PAPER_MIX, TURNS, evidence_shape, evidence_size, select_mix
from mmeb_assets.qa.quality import (
    LexicalRanker, ReaderScores, SeedQuality, first_posted_value, seed_quality, selection_bucket, target_misses,
)
from mmeb_assets.qa.quality_report import by_seed, load_project
from mmeb_assets.qa.validation import validate_items
from mmeb_assets.schema import TASK_CATEGORY, TASKS


@pytest.fixture(scope="module")
def project():
    index = ProjectIndex(fixture_plan(), fixture_organization(), fixture_records())
    items = generate_rule_items(make_context(index, make_provenance(SEED, "qa", "rules")))
    kept, _ = validate_items(items, index)
    selected, _ = select_mix(kept, PAPER_MIX, 60, SEED, selection_bucket(index))
    return index, selected


def test_shares_count_answerable_items_by_their_gold_evidence(project):
    index, items = project
    q = seed_quality(SEED, items, index)
    answerable = [i for i in items if i.answer_status == "answerable" and i.evidence]
    assert q.n_answerable == len(answerable) > 0
    assert q.n_multi_record == sum(len(set(i.evidence)) >= 3 for i in answerable)
    assert q.n_multi_source == sum(len({index.by_id[e].source for e in i.evidence}) >= 2 for i in answerable)
    assert sum(q.per_task.values()) == len(items) and set(q.per_task) == set(TASKS)
    assert sum(s.n for s in q.readers.values()) == len(items)
    for scores in q.readers.values():
        assert 0 <= scores.oracle <= scores.n and 0 <= scores.first <= scores.n and 0 <= scores.latest <= scores.n


def test_unanswerable_items_reward_the_abstaining_oracle(project):
    index, items = project
    uns = [i for i in items if i.task == "unanswerable"]
    assert uns
    scores = seed_quality(SEED, uns, index).readers["unanswerable"]
    assert scores.oracle == len(uns)   # no gold evidence: the reader abstains, which is right


def test_gap_is_oracle_minus_the_better_shortcut():
    assert ReaderScores(n=10, oracle=6, first=3, latest=4).gap == pytest.approx(20.0)
    assert ReaderScores(n=4, oracle=1, first=2, latest=0).gap == pytest.approx(-25.0)
    assert ReaderScores().gap is None


def test_target_misses_name_each_missed_target():
    readers = {t: ReaderScores() for t in TASKS}
    readers["temporal_conflict"] = ReaderScores(n=4, oracle=0, first=1, latest=0)
    q = SeedQuality(seed="s", per_task={}, n_answerable=100, n_multi_record=17, n_multi_source=30,
                    readers=readers, n_conflict_values=10, n_first_posted=7)
    misses = target_misses(q)
    assert any(m.startswith("3+ records 17.0%") for m in misses)
    assert not any(m.startswith("2+ sources") for m in misses)
    assert any("first-posted 70%" in m for m in misses)
    assert any(m.startswith("temporal_conflict: shortcut beats oracle by 25") for m in misses)
    q.n_multi_record, q.n_first_posted = 18, 5
    q.readers["temporal_conflict"] = ReaderScores(n=4, oracle=1, first=1, latest=0)
    assert target_misses(q) == []


def test_first_posted_value_is_the_value_of_the_earliest_related_record(project):
    index, items = project
    applies = [i for i in items if i.generator == "rules:cross_source.applies"]
    assert applies
    error = index.plan.errors[0]
    # In the fixture the wrong value is what was posted first (the slip), the correction came later.
    first_shown = next(r for r in index.ordered if index.shows(r, error.wrong_value) or index.shows(r, error.correct_value))
    assert index.shows(first_shown, error.wrong_value) and not index.shows(first_shown, error.correct_value)
    for item in applies:
        assert first_posted_value(item, index) == error.wrong_value != item.gold.value
    stale = [i for i in items if i.generator == "rules:cross_source.stale"]
    assert all(first_posted_value(i, index) is None for i in stale)   # a list of titles has no position


def test_lexical_ranker_puts_the_matching_record_first(project):
    index, _ = project
    target = max(index.ordered, key=lambda r: len(r.text))
    words = " ".join(w for w in target.text.split() if w.isalpha() and len(w) > 6)[:200]
    top = LexicalRanker(index.ordered).top(words, 3)
    assert len(top) == 3 and target in top


def test_buckets_take_turns_within_a_task(project):
    index, items = project
    bucket = selection_bucket(index)
    xsc = [i for i in items if i.task == "cross_source_conflict"]
    assert all(bucket(i).split("|")[0] in ("first", "later", "unclear") for i in xsc)
    er = [i for i in items if TASK_CATEGORY[i.task] == "ER"]
    assert all(bucket(i).partition("|")[0] == evidence_size(i) for i in er)
    kept = [i for i in er if i.task == "attribution"]
    sizes = {evidence_size(i) for i in kept}
    assert len(sizes) >= 2
    available = Counter(evidence_size(i) for i in kept)
    one_round = {size: min(TURNS[size], available[size]) for size in sizes}
    selected, _ = select_mix(kept, {"ER": 1.0, "CR": 0.0, "UNS": 0.0}, sum(one_round.values()), SEED, bucket)
    assert Counter(evidence_size(i) for i in selected) == one_round   # each size its turns before repeats


def _envelope(obj) -> str:
    return json.dumps({"model": f"{type(obj).__module__}.{type(obj).__name__}", "data": obj.model_dump(mode="json")})


def test_by_seed_reads_the_data_home_and_prints_a_row_per_seed(project, tmp_path, capsys):
    from mmeb_assets.cli import main

    index, items = project
    folder = tmp_path / "projects" / SEED
    folder.mkdir(parents=True)
    (folder / "event_plan.json").write_text(_envelope(index.plan))
    (folder / "organization.json").write_text(_envelope(index.org))
    (folder / "records.json").write_text(_envelope(index.records))
    write_questions_jsonl(folder / "questions.jsonl", items)
    (tmp_path / "projects" / "half-built").mkdir()
    loaded, questions = load_project(folder)
    assert len(questions) == len(items) and len(loaded.ordered) == len(index.ordered)
    table, rows = by_seed(tmp_path)
    assert [q.seed for q in rows] == [SEED] and len(table.rows) == 1
    assert main(["questions", "--by-seed", "--home", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"| {SEED} | {len(items)} |" in out and "gap XSC" in out


def test_by_seed_names_a_missing_stage_file(project, tmp_path):
    folder = tmp_path / "projects" / "broken"
    folder.mkdir(parents=True)
    write_questions_jsonl(folder / "questions.jsonl", project[1][:2])
    with pytest.raises(FileNotFoundError, match="broken: missing event_plan.json"):
        by_seed(tmp_path)


def test_oracle_reader_reads_the_author_from_the_header_only_for_who_questions(project):
    from mmeb_assets.judge.readers import read_answer

    index, items = project
    who = [i for i in items if i.generator == "rules:attribution.result"]
    assert who
    for item in who:
        record = index.by_id[item.evidence[0]]
        assert item.gold.value in record.text.splitlines()[0]   # the author is in the source header
        assert read_answer(item.q, [record], "latest") == item.gold.value
    numeric = next(i for i in items if i.generator == "rules:extraction.cell")
    header = index.by_id[numeric.evidence[0]].text.splitlines()[0]
    assert read_answer(numeric.q, [index.by_id[numeric.evidence[0]]], "latest") not in header


def test_stored_retrievals_feed_the_shortcut_readers(project, tmp_path):
    from mmeb_assets.qa.quality_report import stored_retrievals
    from mmeb_assets.schema.evaluation import Retrieval, RetrievalSet

    index, items = project
    gold_first = RetrievalSet(retriever="x", retrievals=[Retrieval(question_id=i.id, record_ids=list(i.evidence),
                                                                   scores=[1.0] * len(i.evidence)) for i in items])
    folder = tmp_path / "evaluation" / "retrievals" / "x"
    folder.mkdir(parents=True)
    (folder / "retrievals.json").write_text(_envelope(gold_first))
    stored = stored_retrievals(tmp_path, "x")
    assert stored == {i.id: list(i.evidence) for i in items}
    scores = seed_quality(SEED, items, index, retrieved_ids=stored).readers
    lexical = seed_quality(SEED, items, index).readers
    # Retrieving exactly the gold evidence, the latest-mention shortcut is the oracle itself.
    assert all(s.latest == s.oracle for t, s in scores.items() if t != "unanswerable")
    assert any(scores[t].latest != lexical[t].latest for t in TASKS)
    with pytest.raises(FileNotFoundError, match="no stored retrievals for retriever 'y'"):
        stored_retrievals(tmp_path, "y")


def test_by_seed_command_names_missing_retrievals_without_a_traceback(project, tmp_path, capsys):
    from mmeb_assets.cli import main

    (tmp_path / "projects").mkdir()
    assert main(["questions", "--by-seed", "--home", str(tmp_path), "--retriever", "minilm"]) == 1
    assert "no stored retrievals for retriever 'minilm'" in capsys.readouterr().out


def test_evidence_floors_swap_within_a_task_until_the_targets_hold(project):
    """A mix that took plain evidence first (the worst case) is lifted to the 3+-record and 2+-source
    floors by swaps that keep every task's count and every conflict's position bucket."""
    from collections import Counter

    from mmeb_assets.qa.evidence_floors import _find_swap, _prefix, evidence_floors, raise_evidence_floors

    index, _ = project
    items = generate_rule_items(make_context(index, make_provenance(SEED, "qa", "rules")))
    kept, _ = validate_items(items, index)
    plain_first = lambda i: "plain" if evidence_shape(i) == "plain" else DEFERRED  # noqa: E731
    selected, left_out = select_mix(kept, PAPER_MIX, 40, SEED, plain_first)
    bucket = selection_bucket(index)
    floors = evidence_floors(index)
    before = seed_quality(SEED, selected, index)
    assert before.multi_record < 0.18  # the planted deficit
    lifted, rest, swaps = raise_evidence_floors(selected, left_out, index, bucket)
    after = seed_quality(SEED, lifted, index)
    assert swaps > 0 and after.multi_record > before.multi_record
    for floor, share in zip(floors, (after.multi_record, after.multi_source)):
        # a floor still missed is one no allowed swap can raise (the fixture's left-out items are few)
        assert share >= floor.share or _find_swap(lifted, rest, floor, floors, bucket) is None
    assert Counter(i.task for i in lifted) == Counter(i.task for i in selected)
    prefix = lambda i: (i.task, _prefix(bucket, i))  # noqa: E731
    assert Counter(map(prefix, lifted)) == Counter(map(prefix, selected))
    assert sorted(i.id for i in lifted + rest) == sorted(i.id for i in selected + left_out)
    assert len({i.id for i in lifted}) == len(lifted)
    for floor in floors:
        assert sum(map(floor.holds, lifted)) >= sum(map(floor.holds, selected))
    assert raise_evidence_floors(lifted, rest, index, bucket)[2] == 0  # a second pass has nothing to do


def test_two_record_excess_is_exchanged_for_one_record_items_of_the_same_task(project):
    """A kept set whose evidence-reasoning golds lean to two records (the planted worst case) gets
    two-record items exchanged for left-out one-record items of the same task until the ceiling holds or
    no exchange keeps the floors; task counts stay, no floor falls, multi-image items stay."""
    from collections import Counter

    from mmeb_assets.qa.evidence_floors import TWO_UNIT_CEILING, _size_swap, evidence_floors, needed, \
        raise_evidence_floors

    index, _ = project
    items = generate_rule_items(make_context(index, make_provenance(SEED, "qa", "rules")))
    kept, _ = validate_items(items, index)
    two_first = lambda i: "two" if evidence_size(i) == "2 units" else DEFERRED  # noqa: E731
    selected, left_out = select_mix(kept, PAPER_MIX, 40, SEED, two_first)
    share = lambda items: sum(evidence_size(i) == "2 units" for i in items) / len(items)  # noqa: E731
    assert share(selected) > TWO_UNIT_CEILING   # the planted excess
    bucket = selection_bucket(index)
    floors = evidence_floors(index)
    lifted, rest, swaps = raise_evidence_floors(selected, left_out, index, bucket)
    assert swaps > 0 and share(lifted) < share(selected)
    assert share(lifted) <= TWO_UNIT_CEILING or _size_swap(lifted, rest, floors) is None
    assert Counter(i.task for i in lifted) == Counter(i.task for i in selected)
    assert all(needed(lifted, f) <= needed(selected, f) for f in floors)
    multi_image = lambda items: {i.id for i in items if i.evidence_stats.n_images >= 2 and i.task not in CONFLICT_TASKS}  # noqa: E731
    assert multi_image(selected) <= multi_image(lifted) | {i.id for i in selected if i.evidence_stats.n_units != 2}


def test_position_balance_swaps_cross_source_items_into_the_band(project):
    """Kept cross-source golds that all sit on the first-posted side are brought into the 40-60% band
    by exchanging one for a left-out later-posted item; the count of cross-source items stays."""
    from mmeb_assets.qa.evidence_floors import _first_share, raise_evidence_floors

    index, _ = project
    items = generate_rule_items(make_context(index, make_provenance(SEED, "qa", "rules")))
    kept, _ = validate_items(items, index)
    xsc = [i for i in kept if i.task == "cross_source_conflict"]
    assert len(xsc) >= 3
    side = {i.id: "first" for i in xsc[:-1]} | {xsc[-1].id: "later"}  # planted: where each gold was posted
    bucket = lambda item: f"{side[item.id]}|plain" if item.id in side else "plain"  # noqa: E731
    selected, left_out = xsc[:-1], [xsc[-1]]
    assert _first_share(selected, bucket) == 1.0
    lifted, rest, swaps = raise_evidence_floors(selected, left_out, index, bucket)
    assert swaps == 1 and 0.4 <= _first_share(lifted, bucket) <= 0.6
    assert len(lifted) == len(selected) and {i.id for i in lifted + rest} == {i.id for i in xsc}
    assert raise_evidence_floors(lifted, rest, index, bucket)[2] == 0


def test_shortcut_guard_raises_every_task_gap_to_zero_where_it_can(project):
    """A kept set that holds the questions a position shortcut answers while the oracle misses them
    (planted: those first) is repaired task by task: after the guard no task's gap is negative unless no
    allowed swap or removal is left, the swaps keep task buckets, and nothing is lost or duplicated."""
    from mmeb_assets.qa.shortcut_guard import ReaderJudge, guard_shortcuts

    index, _ = project
    items = generate_rule_items(make_context(index, make_provenance(SEED, "qa", "rules")))
    kept, _ = validate_items(items, index)
    judge = ReaderJudge(index)
    shortcut_first = sorted(kept, key=lambda i: (not judge.shortcut_only(i), i.id))
    selected, left_out = select_mix(shortcut_first, PAPER_MIX, 40, SEED, lambda i: "all")
    bucket = selection_bucket(index)
    guarded, rest, changes = guard_shortcuts(selected, left_out, index, bucket)
    assert sorted(i.id for i in guarded + rest) == sorted(i.id for i in selected + left_out)
    assert len({i.id for i in guarded}) == len(guarded)
    gaps_before = {t: judge.gap([i for i in selected if i.task == t]) for t in TASKS}
    gaps_after = {t: judge.gap([i for i in guarded if i.task == t]) for t in TASKS}
    assert all(gaps_after[t] >= gaps_before[t] for t in TASKS)
    assert all(" -> " in c or "left out" in c for c in changes)
    changed = {c.split(":")[0] for c in changes}
    assert all(gaps_before[t] < 0 for t in changed)  # only tasks a shortcut was winning are touched
    if changes:
        assert sum(min(g, 0) for g in gaps_after.values()) >= sum(min(g, 0) for g in gaps_before.values())
    assert guard_shortcuts(guarded, rest, index, bucket)[2] == [] or any(g < 0 for g in gaps_after.values())
