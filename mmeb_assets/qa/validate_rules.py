"""The deterministic implementation of the three validation stages.

Stage 1 (evidence-grounded answering): re-derive the answer from the cited records only, following
the item's derivation. Stage 2 (candidate-gold comparison). Stage 3 (full-project audit): leak,
evidence ids, unanswerable premise against all records, numbers in the gold, competing versions.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.evidence_shows import evidence_problems
from mmeb_assets.qa.text import answers_match, contains_value, decimals, fmt, numbers_in, parse_number
from mmeb_assets.schema import QAItem, StageVerdict

CONFLICT_TASKS = {"cross_source_conflict", "temporal_conflict"}


@dataclass
class Fix:
    q: str | None = None
    gold_answer: str | None = None
    gold_value: str | None = None
    evidence_add: list[str] = field(default_factory=list)
    evidence_remove: list[str] = field(default_factory=list)
    note: str = ""

    @property
    def empty(self) -> bool:
        return not (self.q or self.gold_answer or self.gold_value or self.evidence_add or self.evidence_remove)


def cited_ids(item: QAItem) -> list[str]:
    ids = list(item.evidence)
    for step in item.solution:
        ids += step.record_ids
    return list(dict.fromkeys(ids))


def _cited_text(item: QAItem, index: ProjectIndex) -> str:
    return "\n".join(index.surface(index.by_id[i]) for i in cited_ids(item) if i in index.by_id)


# Derivations whose result is chosen from 'label=value' operands (a pick, or whether a named pick holds),
# and those that check one value against a level the question states.
RANK_KINDS = ("rank", "rank_low", "rank_claim", "rank_claim_low")
LEVEL_KINDS = ("level_claim", "level_claim_low")


def _pairs(operands: list[str]) -> list[tuple[str, str]]:
    return [tuple(op.split("=", 1)) for op in operands if "=" in op]


def recompute(item: QAItem) -> str | None:
    """The result the derivation recipe gives from its operands (None when it is a plain lookup)."""
    d = item.derivation
    if d is None:
        return None
    nums = [parse_number(o) for o in d.operands]
    if d.kind == "difference" and len(nums) == 2 and None not in nums:
        return fmt(nums[0] - nums[1], max(decimals(o) for o in d.operands))
    if d.kind == "ratio" and len(nums) == 2 and None not in nums and nums[1] != 0:
        return fmt(nums[0] / nums[1], 2)
    if d.kind == "percent_change" and len(nums) == 2 and None not in nums and nums[1] != 0:
        return fmt((nums[0] - nums[1]) / nums[1] * 100, 1)
    if d.kind in RANK_KINDS:
        pairs = [(label, parse_number(v)) for label, v in _pairs(d.operands)]
        pick = (min if d.kind.endswith("_low") else max)(pairs, key=lambda p: p[1])[0]
        if d.kind.startswith("rank_claim"):
            return "Yes" if d.premise_values and pick == d.premise_values[0] else "No"
        return pick
    if d.kind == "budget_choice":
        cap = parse_number(d.operands[-1])
        rows = [(label, v.split("|")) for label, v in _pairs(d.operands[:-1])]
        fits = [(label, parse_number(q)) for label, (q, c) in rows if parse_number(c) <= cap]
        return max(fits, key=lambda p: p[1])[0] if fits else None
    if d.kind in LEVEL_KINDS and len(nums) == 1 and d.premise_values:
        level = parse_number(d.premise_values[0])
        if nums[0] is not None and level is not None:
            return "Yes" if (nums[0] <= level if d.kind.endswith("_low") else nums[0] >= level) else "No"
    if d.kind == "claim_check" and len(nums) == 3 and None not in nums:
        return "Yes" if abs(nums[0] - nums[1]) >= nums[2] else "No"
    if d.kind == "version_sequence":
        return " -> ".join(d.operands)
    if d.kind == "quote_check" and len(d.operands) == 2:
        return "Yes" if d.operands[0] == d.operands[1] else "No"
    return None


def _operand_values(item: QAItem) -> list[str]:
    d = item.derivation
    if d.kind in RANK_KINDS:
        return [v for _, v in _pairs(d.operands)]
    if d.kind == "budget_choice":
        return [part for _, v in _pairs(d.operands[:-1]) for part in v.split("|")]
    if d.kind == "claim_check":
        return d.operands[:2]
    if d.kind == "quote_check":
        return d.operands[:1]  # the claimed quote is the question's premise, printed in no record when wrong
    if d.kind == "corrected_value":
        return d.operands[1:]
    return list(d.operands)


def _computable(number: str, found: list[str]) -> bool:
    """Is `number` a difference, sum, ratio or percent change of two numbers in `found`?"""
    target = parse_number(number)
    values = [parse_number(f) for f in found]
    values = [v for v in values if v is not None][:60]
    if target is None:
        return False
    places = decimals(number)
    for a in values:
        for b in values:
            for result in (a - b, a + b, (a / b) if b else None, ((a - b) / b * 100) if b else None):
                if result is not None and Decimal(fmt(abs(result), places)) == abs(target):
                    return True
    return False


def stage1_answer(item: QAItem, index: ProjectIndex) -> StageVerdict:
    """Answer from the cited records only; not_knowable when they do not settle it."""
    text = _cited_text(item, index)
    d = item.derivation
    if item.answer_status == "unanswerable":
        return StageVerdict(stage="evidence_answering", verdict="not_knowable", answer=None,
                            reason="the cited records do not establish an answer")
    if not text:
        return StageVerdict(stage="evidence_answering", verdict="not_knowable", cause="no_evidence",
                            reason="no cited record exists in the project")
    if d is None or d.kind == "free":
        missing = [n for n in numbers_in(item.gold.answer) if not contains_value(text, n)
                   and not _computable(n, numbers_in(text))]
        value_ok = item.gold.value is None or contains_value(text, item.gold.value) \
            or _computable(item.gold.value, numbers_in(text))
        words = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]{3,}", item.gold.answer)]
        lower = text.lower()
        grounded = not words or sum(w.lower() in lower for w in words) / len(words) >= 0.5
        if missing or not value_ok or not grounded:
            return StageVerdict(stage="evidence_answering", verdict="not_knowable", cause="value_not_in_evidence",
                                reason=f"not found in the cited records: {missing or [item.gold.value or item.gold.answer]}")
        return StageVerdict(stage="evidence_answering", verdict="knowable", answer=item.gold.value or item.gold.answer)
    if d.kind in ("stale_sources",):
        needed = d.operands
    elif d.kind in ("lookup", "author", "version_at", "version_before", "version_latest", "version_sequence",
                    "corrected_value"):
        needed = _operand_values(item) or [d.result]
    else:
        needed = _operand_values(item)
    missing = [v for v in needed if not contains_value(text, v)]
    if missing:
        return StageVerdict(stage="evidence_answering", verdict="not_knowable", cause="value_not_in_evidence",
                            reason=f"not found in the cited records: {missing}")
    answer = recompute(item) or d.result
    return StageVerdict(stage="evidence_answering", verdict="knowable", answer=answer,
                        reason=f"derived by {d.kind} from {len(cited_ids(item))} cited record(s)")


def stage2_compare(item: QAItem, s1: StageVerdict) -> StageVerdict:
    gold_status = item.answer_status
    if gold_status == "unanswerable":
        if s1.verdict == "not_knowable":
            return StageVerdict(stage="candidate_gold", verdict="match", reason="both abstain")
        return StageVerdict(stage="candidate_gold", verdict="mismatch", cause="answered_unanswerable",
                            reason=f"solver answered {s1.answer!r}")
    if s1.verdict == "not_knowable" or not s1.answer:
        return StageVerdict(stage="candidate_gold", verdict="mismatch", cause="candidate_abstained", reason=s1.reason)
    gold = item.gold.value or item.gold.answer
    if answers_match(s1.answer, gold) or answers_match(s1.answer, item.gold.answer):
        return StageVerdict(stage="candidate_gold", verdict="match", answer=s1.answer)
    if parse_number(s1.answer) is not None and parse_number(gold) is not None:
        return StageVerdict(stage="candidate_gold", verdict="mismatch", cause="different_value", answer=s1.answer,
                            reason=f"derived {s1.answer}, gold {gold}")
    return StageVerdict(stage="candidate_gold", verdict="mismatch", cause="wrong_entity", answer=s1.answer,
                        reason=f"derived {s1.answer!r}, gold {gold!r}")


def leaked(item: QAItem) -> bool:
    """The requested answer appears in the question (premise values and candidates excepted)."""
    value = item.gold.value
    if item.answer_status == "unanswerable" or not value or value in ("Yes", "No"):
        return False
    allowed = set(item.derivation.premise_values) if item.derivation else set()
    if value in allowed:
        return False
    return contains_value(item.q, value)


def _competing(item: QAItem, index: ProjectIndex) -> str | None:
    """Another version of the same value that the wording also fits (no boundary named)."""
    d = item.derivation
    if d is None or item.answer_status == "unanswerable":
        return None
    if d.kind in ("version_at", "version_before") and d.boundary_time is not None:
        fact = next((f for f in index.plan.evolving_facts if f.id == d.fact_key), None)
        if fact is not None:
            current = fact.value_at(d.boundary_time)
            if current is not None and current.value != (item.gold.value or ""):
                return current.value
            later = [v for v in fact.versions if v.time > d.boundary_time]
            if d.kind == "version_at" and later and later[0].cause == "correction":
                return later[0].value   # the stated value was a slip corrected later: two readings
        return None
    versions = set(d.competing_values)
    item_id, _, col = d.fact_key.partition(":")
    error = index.errors_by_target.get(d.fact_key)
    if error is not None:
        versions |= {error.wrong_value, error.correct_value}
    versions.discard(item.gold.value or "")
    if versions and item.task not in CONFLICT_TASKS and not item.boundary:
        return sorted(versions)[0]
    return None


def _locate(item: QAItem, index: ProjectIndex, s1: StageVerdict) -> list[str]:
    """Project records that show the values the cited ones lack (for an evidence fix)."""
    if item.derivation is None:
        return []
    text = _cited_text(item, index)
    add = []
    for value in _operand_values(item) or [item.derivation.result]:
        if value and not contains_value(text, value):
            found = index.find(value)
            if len(found) != 1 and len(value) < 4:
                return []
            if found:
                add.append(found[0].id)
    return list(dict.fromkeys(add))


def stage3_audit(item: QAItem, index: ProjectIndex, s1: StageVerdict, s2: StageVerdict) -> tuple[StageVerdict, Fix]:
    """pass / fix / drop with a category, and the concrete fix when there is one."""
    def verdict(v: str, category: str, reason: str, fix: Fix | None = None):
        return StageVerdict(stage="full_project", verdict=v, cause=category, reason=reason), fix or Fix()

    if leaked(item):
        return verdict("drop", "leak", f"the question contains the answer {item.gold.value!r}")
    unknown = [i for i in cited_ids(item) if i not in index.by_id]
    if unknown:
        keep = [i for i in item.evidence if i in index.by_id]
        return verdict("fix", "evidence_insufficient", f"unknown record ids {unknown}",
                       Fix(evidence_remove=unknown, note="removed ids that are not project records") if keep or
                       item.answer_status == "unanswerable" else None)
    if item.answer_status == "unanswerable":
        terms = item.derivation.absent_terms if item.derivation else []
        hits = index.mentions_any(terms) if terms else []
        if not terms:
            return verdict("drop", "unanswerable_is_answerable", "no perturbed premise to check against the records")
        if hits:
            return verdict("drop", "unanswerable_is_answerable",
                           f"{terms} occurs in project records {[r.id for r in hits[:3]]}")
        return verdict("pass", "none", f"no project record mentions {terms}")
    if not item.evidence:
        add = _locate(item, index, s1)
        return verdict("fix" if add else "drop", "evidence_insufficient", "answerable item without evidence",
                       Fix(evidence_add=add, note="located the records that show the value") if add else None)
    competing = _competing(item, index)
    if competing is not None:
        d = item.derivation
        fact = next((f for f in index.plan.evolving_facts if f.id == d.fact_key), None)
        in_force = fact.value_at(d.boundary_time) if fact is not None and d.boundary_time else None
        if d.kind in ("version_at", "version_before") and in_force is not None and in_force.value == competing:
            return verdict("fix", "gold_wrong", f"the version in force at the named time is {competing!r}",
                           Fix(gold_answer=competing, gold_value=competing, note="gold set to the version in force"))
        return verdict("drop", "ambiguous_question", f"another version {competing!r} also fits the wording")
    if s1.verdict != "knowable":
        add = _locate(item, index, s1)
        return verdict("fix" if add else "drop", "evidence_insufficient", s1.reason,
                       Fix(evidence_add=add, note="added records that show the missing values") if add else None)
    if s2.verdict != "match":
        recomputed = recompute(item)
        if recomputed is not None and item.derivation.kind in ("difference", "ratio", "percent_change", "claim_check",
                                                              *RANK_KINDS, *LEVEL_KINDS, "budget_choice"):
            return verdict("fix", "gold_wrong", s2.reason, Fix(gold_value=recomputed, gold_answer=_rewrite_answer(item, recomputed),
                                                               note=f"gold recomputed from the operands: {recomputed}"))
        return verdict("drop", "gold_wrong", s2.reason)
    text = _cited_text(item, index)
    allowed = set(item.derivation.premise_values if item.derivation else []) | {item.gold.value or ""}
    bad = [n for n in numbers_in(item.gold.answer) if n not in allowed and not contains_value(text, n)
           and not _computable(n, numbers_in(text)) and not contains_value(item.q, n)]
    if bad:
        return verdict("drop", "gold_wrong", f"numbers in the gold not supported by the cited records: {bad}")
    unshown = evidence_problems(index, [item])
    if unshown:  # a precision chart holding the same digits is no evidence for F1
        return verdict("drop", "evidence_wrong", unshown[0])
    return verdict("pass", "none", "value derivable from the cited records; no leak; no competing version")


def _rewrite_answer(item: QAItem, value: str) -> str:
    old = item.gold.value or ""
    if old and old in item.gold.answer:
        return item.gold.answer.replace(old, value, 1)
    return value
