"""QA stage on the hand-built fixture project: families, validators on planted bad items, mix, export."""
from __future__ import annotations

from collections import Counter

import pytest

from mmeb_assets.provenance import make_provenance
from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.fixture import SEED, fixture_organization, fixture_plan, fixture_records
from mmeb_assets.qa.generate import generate_rule_items, make_context
from mmeb_assets.qa.mix import achieved_mix, select_mix
from mmeb_assets.qa.validate_rules import leaked, stage1_answer, stage2_compare, stage3_audit
from mmeb_assets.qa.validation import validate_item, validate_items
from mmeb_assets.schema import TASKS, Gold


@pytest.fixture(scope="module")
def index() -> ProjectIndex:
    return ProjectIndex(fixture_plan(), fixture_organization(), fixture_records())


@pytest.fixture(scope="module")
def items(index):
    return generate_rule_items(make_context(index, make_provenance(SEED, "qa", "rules")))


def by_family(items, family):
    return [i for i in items if i.generator == f"rules:{family}"]


def test_every_task_generated_with_evidence(items, index):
    counts = Counter(i.task for i in items)
    assert set(counts) == set(TASKS), counts
    for item in items:
        if item.answer_status == "answerable":
            assert item.evidence and all(e in index.by_id for e in item.evidence)
            assert item.evidence_paths[0] == item.evidence
            assert 2 <= len(item.solution) <= 5
            assert item.evidence_stats.n_units == len(item.evidence)
        else:
            assert item.evidence == [] and item.perturbed_from


def test_generation_is_deterministic(index, items):
    again = generate_rule_items(make_context(index, make_provenance(SEED, "qa", "rules")))
    assert [i.model_dump() for i in again] == [i.model_dump() for i in items]


def test_all_fixture_items_pass_validation(items, index):
    kept, dropped = validate_items(items, index)
    assert not dropped, [(d.id, d.validation.category, d.validation.stages[-1].reason) for d in dropped]
    assert len({i.q for i in kept}) == len(kept)


def test_temporal_gold_is_version_at_named_time(items, index):
    facts = {f.id: f for f in index.plan.evolving_facts}
    timed = [i for i in items if i.derivation and i.derivation.kind in ("version_at", "version_before")]
    assert len(timed) >= 4
    for item in timed:
        fact = facts[item.derivation.fact_key]
        assert item.gold.value == fact.value_at(item.derivation.boundary_time).value
        assert item.boundary, "earlier-state questions name their boundary"
        if item.derivation.kind == "version_at":
            assert item.boundary in item.q


def test_cross_source_names_stale_source_and_corrected_value(items):
    applies = by_family(items, "cross_source.applies")
    assert applies and all(i.gold.value == "52.4" for i in applies)
    assert all("54.2" in i.q for i in applies)   # the disputed value is a premise, not a leak
    stale = by_family(items, "cross_source.stale")
    assert stale and "Kestrel run tracker" in stale[0].gold.answer


def test_visual_evidence_is_used(items, index):
    pictures = by_family(items, "extraction.picture")
    assert pictures
    for item in pictures:
        record = index.by_id[item.evidence[0]]
        assert record.modality == "visual" and item.gold.value not in record.text


def test_computation_values(items):
    for item in by_family(items, "computation.difference"):
        a, b = (float(x) for x in item.derivation.operands)
        assert abs(float(item.gold.value) - (a - b)) < 1e-6


def _audit(item, index):
    s1 = stage1_answer(item, index)
    s2 = stage2_compare(item, s1)
    return s1, s2, stage3_audit(item, index, s1, s2)[0]


def test_validator_catches_leaked_answer(items, index):
    item = by_family(items, "extraction.cell")[0]
    bad = item.model_copy(update={"q": item.q.rstrip("?") + f" (it was {item.gold.value})?"})
    assert leaked(bad)
    assert _audit(bad, index)[2].verdict == "drop"
    assert validate_item(bad, index).validation.category == "leak"


def test_validator_catches_wrong_gold(items, index):
    item = by_family(items, "extraction.cell")[0]
    bad = item.model_copy(update={"gold": Gold(answer="99.9", value="99.9")})
    s1, s2, s3 = _audit(bad, index)
    assert s2.verdict == "mismatch" and s3.verdict == "drop" and s3.cause == "gold_wrong"
    comp = by_family(items, "computation.difference")[0]
    bad = comp.model_copy(update={"gold": Gold(answer="123.4 higher", value="123.4")})
    done = validate_item(bad, index)
    assert done.validation.decision == "fix" and done.gold.value == comp.gold.value   # recomputed and re-validated


def test_validator_catches_insufficient_evidence(items, index):
    item = by_family(items, "extraction.cell")[0]
    unrelated = next(r.id for r in index.ordered if r.source == "meeting")
    bad = item.model_copy(update={"evidence": [unrelated], "evidence_paths": [[unrelated]],
                                  "solution": [s.model_copy(update={"record_ids": [unrelated]}) for s in item.solution]})
    s1, _, s3 = _audit(bad, index)
    assert s1.verdict == "not_knowable" and s3.cause == "evidence_insufficient"
    done = validate_item(bad, index)
    assert done.validation.decision in ("fix", "drop") and done.validation.category == "evidence_insufficient"
    if done.validation.decision == "fix":
        assert stage1_answer(done, index).verdict == "knowable"


def test_validator_catches_answerable_unanswerable(items, index):
    uns = [i for i in items if i.task == "unanswerable"][0]
    answerable_term = "annotation throughput"   # occurs in a project record
    bad = uns.model_copy(update={"derivation": uns.derivation.model_copy(update={"absent_terms": [answerable_term]})})
    _, _, s3 = _audit(bad, index)
    assert s3.verdict == "drop" and s3.cause == "unanswerable_is_answerable"


def test_validator_catches_competing_version(items, index):
    item = by_family(items, "temporal.as_of")[0]
    late = index.plan.evolving_facts[0].versions[-1].time
    bad = item.model_copy(update={"derivation": item.derivation.model_copy(update={"boundary_time": late})})
    done = validate_item(bad, index)
    assert done.validation.category == "gold_wrong"
    assert done.gold.value == index.plan.evolving_facts[0].value_at(late).value


def test_unknown_evidence_id_is_flagged(items, index):
    item = by_family(items, "attribution.result")[0]
    bad = item.model_copy(update={"evidence": item.evidence + ["nope-1"]})
    assert _audit(bad, index)[2].cause == "evidence_insufficient"
    assert "nope-1" not in validate_item(bad, index).evidence


def test_mix_follows_configuration(items, index):
    kept, _ = validate_items(items, index)
    chosen, rest = select_mix(kept, {"ER": 0.68, "CR": 0.26, "UNS": 0.05}, 40, SEED)
    assert {i.task for i in chosen} == set(TASKS)
    mix = achieved_mix(chosen)
    assert mix["ER"] > mix["CR"] > mix["UNS"] > 0
    assert len(chosen) + len(rest) == len(kept)
    only_er, _ = select_mix(kept, {"ER": 1.0, "CR": 0.0, "UNS": 0.0}, 20, SEED)
    assert achieved_mix(only_er)["ER"] >= 0.7


def test_as_of_inside_a_slip_window_is_flagged(items, index):
    """Between a slip and its correction, 'what was it' has two readings: the rule drops it."""
    fact = index.plan.evolving_facts[0]          # 18:00 (initial) -> 20:00 (correction) -> change
    assert fact.versions[1].cause == "correction"
    inside = fact.versions[0].time + (fact.versions[1].time - fact.versions[0].time) / 2
    assert not [i for i in items if i.derivation and i.derivation.kind == "version_at"
                and i.derivation.boundary_time == inside]
    template = next(i for i in items if i.generator == "rules:temporal.as_of" and i.derivation.fact_key == fact.id)
    planted = template.model_copy(update={
        "gold": Gold(answer=fact.versions[0].value, value=fact.versions[0].value),
        "derivation": template.derivation.model_copy(update={"boundary_time": inside,
                                                             "operands": [fact.versions[0].value]})})
    done = validate_item(planted, index)
    assert done.validation.decision == "drop" and done.validation.category == "ambiguous_question"


def test_free_form_items_need_grounded_gold(index, items):
    """LLM items carry no recipe: the rule solver needs the gold's numbers and most of its words cited."""
    from mmeb_assets.schema import Derivation

    base = by_family(items, "attribution.result")[0]
    free = base.model_copy(update={"derivation": Derivation(kind="free"), "generator": "llm:test"})
    assert stage1_answer(free, index).verdict == "knowable"
    wrong = free.model_copy(update={"gold": Gold(answer="Priya Natarajan")})
    assert stage1_answer(wrong, index).verdict == "not_knowable"
    number = free.model_copy(update={"gold": Gold(answer="77.7 points")})
    assert stage1_answer(number, index).verdict == "not_knowable"


def test_mix_takes_the_documents_questions_first(items, index):
    """Within each bucket of the document-first tasks, items resting on the seed go before workspace ones."""
    from mmeb_assets.qa.grounding import PlanTrace, question_basis

    kept, _ = validate_items(items, index)
    trace = PlanTrace(index.plan)

    def on_document(item) -> bool:
        return question_basis(item, trace) == "document"

    plain, _ = select_mix(kept, {"ER": 0.68, "CR": 0.26, "UNS": 0.05}, 30, SEED)
    first, _ = select_mix(kept, {"ER": 0.68, "CR": 0.26, "UNS": 0.05}, 30, SEED, prefer=on_document)
    share = lambda chosen: sum(map(on_document, chosen)) / len(chosen)
    assert sum(map(on_document, kept)) > 0
    assert share(first) > share(plain)
    assert {i.task for i in first} == {i.task for i in plain}
