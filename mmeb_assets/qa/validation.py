"""Three-stage validation driver: answer from cited evidence, compare with gold, audit against the project.

The deterministic stages always run; with an online LLM the LLM stages run too and the stricter
decision wins. A `fix` is applied and the item re-validated (bounded rounds); a `drop` is kept with
its category and reason.
"""
from __future__ import annotations

from mmeb_assets.qa.evidence import ProjectIndex, evidence_stats
from mmeb_assets.qa.text import normalize
from mmeb_assets.qa.validate_rules import Fix, stage1_answer, stage2_compare, stage3_audit
from mmeb_assets.schema import Gold, QAItem, StageVerdict, Validation

SEVERITY = {"pass": 0, "fix": 1, "drop": 2}
MAX_ROUNDS = 3


def apply_fix(item: QAItem, fix: Fix, index: ProjectIndex) -> QAItem:
    evidence = [i for i in item.evidence if i not in fix.evidence_remove]
    evidence += [i for i in fix.evidence_add if i not in evidence and i in index.by_id]
    solution = [s.model_copy(update={"record_ids": [r for r in s.record_ids if r not in fix.evidence_remove]})
                for s in item.solution]
    gold = item.gold
    if fix.gold_answer or fix.gold_value:
        gold = Gold(answer=fix.gold_answer or gold.answer, value=fix.gold_value or gold.value, unit=gold.unit)
    derivation = item.derivation
    if derivation is not None and fix.gold_value:
        derivation = derivation.model_copy(update={"result": fix.gold_value,
                                                   "operands": [fix.gold_value] if derivation.kind.startswith("version_")
                                                   and derivation.kind != "version_sequence" else derivation.operands})
    paths = [evidence] + [p for p in item.evidence_paths[1:] if p != evidence]
    return item.model_copy(update={
        "q": fix.q or item.q, "gold": gold, "evidence": evidence, "evidence_paths": paths if evidence else [],
        "solution": solution, "derivation": derivation, "evidence_stats": evidence_stats(index, evidence),
    })


def _run_stages(item: QAItem, index: ProjectIndex, llm_validator) -> tuple[list[StageVerdict], StageVerdict, Fix]:
    s1 = stage1_answer(item, index)
    s2 = stage2_compare(item, s1)
    s3, fix = stage3_audit(item, index, s1, s2)
    stages = [s1, s2, s3]
    if llm_validator is None or s3.verdict == "drop":
        return stages, s3, fix
    from mmeb_resources.llm import LLMError, failure_reason

    try:
        l1 = llm_validator.stage1(item)
        l2 = llm_validator.stage2(item, l1)
        l3, lfix = llm_validator.stage3(item, l1, l2)
    except LLMError as exc:  # the rules verdict stands; the LLM failure is recorded on the item
        stages.append(StageVerdict(stage="full_project", verdict=s3.verdict, cause="llm_error",
                                   reason=failure_reason(exc, 280), validator=llm_validator.name))
        return stages, s3, fix
    stages += [l1, l2, l3]
    if SEVERITY.get(l3.verdict, 2) > SEVERITY[s3.verdict]:
        return stages, l3, lfix
    return stages, s3, fix


def validate_item(item: QAItem, index: ProjectIndex, llm_validator=None, max_rounds: int = MAX_ROUNDS) -> QAItem:
    fixes: list[str] = []
    categories: list[str] = []
    current = item
    for round_no in range(1, max_rounds + 1):
        stages, final, fix = _run_stages(current, index, llm_validator)
        if final.verdict == "pass":
            decision = "fix" if fixes else "pass"
            category = categories[0] if categories else "none"
            return current.model_copy(update={"validation": Validation(
                decision=decision, category=category, stages=stages, fixes_applied=fixes, rounds=round_no)})
        if final.verdict == "fix" and not fix.empty and round_no < max_rounds:
            current = apply_fix(current, fix, index)
            fixes.append(f"{final.cause}: {fix.note or 'edited'}")
            categories.append(final.cause)
            continue
        category = final.cause if final.cause not in ("", "none") else "unfixable"
        return current.model_copy(update={"validation": Validation(
            decision="drop", category=category, stages=stages, fixes_applied=fixes, rounds=round_no)})
    raise AssertionError("unreachable")


def validate_items(items: list[QAItem], index: ProjectIndex, llm_validator=None) -> tuple[list[QAItem], list[QAItem]]:
    """(kept, dropped); kept items have decision pass or fix, duplicates after fixes are dropped."""
    kept, dropped, seen = [], [], set()
    for item in items:
        done = validate_item(item, index, llm_validator)
        if done.validation.decision == "drop":
            dropped.append(done)
            continue
        key = normalize(done.q)
        if key in seen:
            dropped.append(done.model_copy(update={"validation": done.validation.model_copy(
                update={"decision": "drop", "category": "duplicate"})}))
            continue
        seen.add(key)
        kept.append(done)
    return kept, dropped
