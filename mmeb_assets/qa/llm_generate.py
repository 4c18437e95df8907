"""LLM question generation per family, in the paper's qa_spec_v1 item format."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from mmeb_assets.prompts import load_prompt
from mmeb_assets.provenance import make_provenance
from mmeb_assets.qa.evidence import ProjectIndex, evidence_stats
from mmeb_assets.qa.generate import TASK_ABBR
from mmeb_assets.qa.text import contains_value, normalize
from mmeb_assets.qa.validate_llm import render_records
from mmeb_assets.schema import Derivation, Gold, QAItem, SolutionStep

QUESTION_MAX_CHARS = 300
FAMILIES: dict[str, tuple[str, str]] = {
    "extraction": ("Extract one entity or value stated explicitly in a message, table, page or figure.",
                   "Q: Which base model does the pilot use?"),
    "attribution": ("Identify who posted, sent, requested, decided or communicated a piece of information.",
                    "Q: Who sent the new engineer's welcome email?"),
    "computation": ("Apply a calculation the question specifies to recorded values (difference, ratio, sum).",
                    "Q: By how many points does the release run exceed the baseline on the main metric?"),
    "comparison": ("Compare results or properties: a difference, a ranking, or a choice under a stated limit.",
                   "Q: Which setting fits the latency budget with the best recall?"),
    "interpretation": ("Judge a claim or draw a conclusion from recorded evidence.",
                       "Q: Do the recorded counts support a 12-point increase?"),
    "cross_source_conflict": ("Sources disagree on the same information; identify the conflict or which value applies.",
                              "Q: Which deadline applies after the correction, given the tracker still shows the old one?"),
    "temporal_conflict": ("Recover information at a named time or version, or trace how it was revised.",
                          "Q: What was the acceptance deadline at 14:00 on Tuesday?"),
}


class SpecGold(BaseModel):
    answer: str


class SpecStep(BaseModel):
    step: str
    record_ids: list[str] = []


class SpecItem(BaseModel):
    id: str
    q: str
    answer_status: Literal["answerable"] = "answerable"
    gold: SpecGold
    solution: list[SpecStep] = Field(min_length=2, max_length=5)
    evidence_paths: list[list[str]] = Field(min_length=1)
    evidence: list[str] = Field(min_length=1)


class Omitted(BaseModel):
    id: str
    reason: str


class QASpec(BaseModel):
    schema_version: Literal["qa_spec_v1"]
    items: list[SpecItem] = []
    omitted: list[Omitted] = []


def spec_validator(allocated: list[str], known_ids: set[str], existing: set[str]):
    """Errors for qa_spec_v1 output: ids allocated exactly once, evidence rules, ids exist, no leak."""
    def check(spec: QASpec) -> list[str]:
        errors = []
        seen = [i.id for i in spec.items] + [o.id for o in spec.omitted]
        if sorted(seen) != sorted(allocated):
            errors.append(f"ids must be exactly {allocated} once each (items or omitted); got {seen}")
        for item in spec.items:
            if len(item.q.strip()) > QUESTION_MAX_CHARS:
                errors.append(f"{item.id}: q longer than {QUESTION_MAX_CHARS} characters")
            if item.evidence != item.evidence_paths[0]:
                errors.append(f"{item.id}: evidence must equal evidence_paths[0]")
            cited = set(item.evidence) | {r for s in item.solution for r in s.record_ids}
            unknown = sorted(cited - known_ids)
            if unknown:
                errors.append(f"{item.id}: unknown record ids {unknown}")
            if len(item.gold.answer) >= 3 and contains_value(item.q, item.gold.answer):
                errors.append(f"{item.id}: the question reveals the answer")
            if normalize(item.q) in existing:
                errors.append(f"{item.id}: duplicates an existing question")
        return errors
    return check


def _context(index: ProjectIndex) -> str:
    org = index.org
    people = "; ".join(f"{p.name} ({p.role})" for p in org.people)
    return (f"{org.company_name}: {org.project_sentence} (project {org.project_codename}). People: {people}. "
            f"Recorded period {index.plan.window_start:%Y-%m-%d} to {index.plan.window_end:%Y-%m-%d}.")


def _to_item(spec: SpecItem, task: str, index: ProjectIndex, provenance, new_id: str) -> QAItem:
    return QAItem(
        id=new_id, project=index.plan.seed_id, task=task, q=" ".join(spec.q.split()), answer_status="answerable",
        gold=Gold(answer=spec.gold.answer), solution=[SolutionStep(step=s.step, record_ids=s.record_ids) for s in spec.solution],
        evidence_paths=spec.evidence_paths, evidence=spec.evidence, generator=f"llm:{provenance.model}",
        provenance=provenance, derivation=Derivation(kind="free"), evidence_stats=evidence_stats(index, spec.evidence),
    )


def generate_family(index: ProjectIndex, llm, task: str, n: int, existing: list[QAItem], records_chars: int,
                    code: str = "") -> list[QAItem]:
    template = load_prompt("qa", "generate")
    definition, examples = FAMILIES[task]
    prefix = f"{TASK_ABBR[task]}_llm"
    allocated = [f"{prefix}_{k:02d}" for k in range(1, n + 1)]
    existing_q = {normalize(i.q) for i in existing}
    result = llm.generate_json(template, {
        "workspace_context": _context(index), "family": task, "definition": definition, "examples": examples,
        "existing_questions": "\n".join(f"- {i.q}" for i in existing if i.task == task)[:4000] or "(none)",
        "records": render_records(index.ordered, budget=records_chars), "n": n, "n_padded": f"{n:02d}",
        "id_prefix": prefix, "question_max_chars": QUESTION_MAX_CHARS,
    }, QASpec, stage=f"qa.generate.{task}", validate=spec_validator(allocated, set(index.by_id), existing_q))
    provenance = make_provenance(index.plan.seed_id, "qa", llm.generator_name, model=llm.model,
                                 prompt_hash=result.prompt_hash, code=code)
    seed = index.plan.seed_id
    return [_to_item(spec, task, index, provenance, f"{seed}-llm-{TASK_ABBR[task]}-{k:02d}")
            for k, spec in enumerate(result.value.items, start=1)]


def generate_llm_items(index: ProjectIndex, llm, existing: list[QAItem], per_family: int = 4,
                       records_chars: int = 60_000, code: str = "", log=None,
                       fallbacks: list[str] | None = None) -> list[QAItem]:
    """One call per answerable family; a family whose request fails for good or whose output never
    validates is skipped (the rules items stand), logged and appended to `fallbacks` with the reason."""
    from mmeb_resources.llm import LLMError, failure_reason

    def skipped(what: str, exc: LLMError) -> None:
        note = f"{what}: skipped, rules items only ({failure_reason(exc)})"
        if fallbacks is not None:
            fallbacks.append(note)
        if log is not None:
            log.warning(f"qa LLM generation {note}")

    out: list[QAItem] = []
    for task in FAMILIES:
        try:
            out += generate_family(index, llm, task, per_family, existing + out, records_chars, code)
        except LLMError as exc:
            skipped(task, exc)
    try:
        out += llm_perturb(index, llm, existing + out, n=max(1, per_family // 2), records_chars=records_chars, code=code)
    except LLMError as exc:
        skipped("unanswerable perturbation", exc)
    return out


class Perturbation(BaseModel):
    source_id: str
    q: str
    changed_term: str = Field(min_length=3)
    change: str = ""


class PerturbationSet(BaseModel):
    items: list[Perturbation] = []


def llm_perturb(index: ProjectIndex, llm, answerable: list[QAItem], n: int = 4, records_chars: int = 40_000,
                code: str = "") -> list[QAItem]:
    """UNS candidates from the LLM; kept only when the changed term occurs in no project record."""
    from mmeb_assets.qa.unanswerable import premise_is_absent

    sources = {i.id: i for i in answerable if i.answer_status == "answerable"}
    existing = {normalize(i.q) for i in answerable}

    def check(value: PerturbationSet) -> list[str]:
        errors = [f"unknown source_id {p.source_id}" for p in value.items if p.source_id not in sources]
        errors += [f"{p.source_id}: changed_term {p.changed_term!r} is not in the new question"
                   for p in value.items if p.source_id in sources and not contains_value(p.q, p.changed_term)]
        return errors

    template = load_prompt("qa", "perturb")
    result = llm.generate_json(template, {
        "records": render_records(index.ordered, budget=records_chars), "n": n,
        "questions": "\n".join(f"{i.id}: {i.q}" for i in list(sources.values())[:40]),
    }, PerturbationSet, stage="qa.generate.unanswerable", validate=check)
    provenance = make_provenance(index.plan.seed_id, "qa", llm.generator_name, model=llm.model,
                                 prompt_hash=result.prompt_hash, code=code)
    out = []
    for p in result.value.items[:n]:
        if normalize(p.q) in existing or not premise_is_absent(index, [p.changed_term]):
            continue
        existing.add(normalize(p.q))
        out.append(QAItem(
            id=f"{index.plan.seed_id}-llm-uns-{len(out) + 1:02d}", project=index.plan.seed_id, task="unanswerable",
            q=" ".join(p.q.split()), answer_status="unanswerable",
            gold=Gold(answer=f"Not established: the records contain no {p.changed_term}."),
            solution=[SolutionStep(step=f"Perturbed from an answerable question ({p.change or p.changed_term}).", record_ids=[]),
                      SolutionStep(step=f"No project record mentions {p.changed_term}.", record_ids=[])],
            generator=f"llm:{llm.model}", provenance=provenance, perturbed_from=p.source_id,
            derivation=Derivation(kind="absent_premise", absent_terms=[p.changed_term]),
            evidence_stats=evidence_stats(index, []),
        ))
    return out
