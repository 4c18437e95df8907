"""Asset checks of the qa stage: leaks, evidence ids, evidence present, duplicates, task coverage."""

from collections import Counter

import dagster as dg

from mmeb_assets.qa.assets import benchmark, qa_validated
from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.evidence_shows import evidence_problems
from mmeb_assets.qa.evidence_shows import operands as evidence_operands
from mmeb_assets.qa.stale_oracle import stale_gold_problems
from mmeb_assets.qa.text import normalize
from mmeb_assets.qa.validate_rules import cited_ids, leaked
from mmeb_assets.schema import TASKS, Benchmark, QAItem


def _result(findings: list[str], severity=dg.AssetCheckSeverity.ERROR, **meta) -> dg.AssetCheckResult:
    return dg.AssetCheckResult(passed=not findings, severity=severity,
                               metadata={"findings": len(findings), "first": "; ".join(findings[:5]), **meta})


# what a check that reads the rendered records needs beside the questions
RENDERED_PROJECT = {"records": dg.AssetIn("records"), "event_plan": dg.AssetIn("event_plan"),
                    "organization": dg.AssetIn("organization")}


def _run_partition(context) -> str | None:
    run = getattr(context, "run", None)
    tags = getattr(run, "tags", None) or {}
    return tags.get("dagster/partition")


def _own(value, context):
    """A check input may arrive as the partition's object or as a dict partition -> object; keep the
    run's own partition when it is there, else every partition."""
    if not isinstance(value, dict):
        return {"": value}
    key = _run_partition(context)
    return {key: value[key]} if key in value else dict(value)


def _items(value) -> list[QAItem]:
    if isinstance(value, dict):
        return [i for v in value.values() for i in _items(v)]
    return list(value.items)


def _record_ids(value) -> set[str]:
    if isinstance(value, dict):
        return {i for v in value.values() for i in _record_ids(v)}
    return {r.id for r in value.records}


def find_leaks(items: list[QAItem]) -> list[str]:
    return [f"{i.id}: question contains {i.gold.value!r}" for i in items if leaked(i)]


def find_unknown_evidence(items: list[QAItem], record_ids: set[str]) -> list[str]:
    return [f"{i.id}: {sorted(set(cited_ids(i)) - record_ids)}" for i in items if set(cited_ids(i)) - record_ids]


def find_missing_evidence(items: list[QAItem]) -> list[str]:
    return [i.id for i in items if i.answer_status == "answerable" and not i.evidence]


def find_duplicates(items: list[QAItem]) -> list[str]:
    counts = Counter(normalize(i.q) for i in items)
    ids = Counter(i.id for i in items)
    return [f"duplicate question: {q[:60]}" for q, n in counts.items() if n > 1] + \
           [f"duplicate id: {i}" for i, n in ids.items() if n > 1]


def find_gold_problems(items: list[QAItem]) -> list[str]:
    """Golds the benchmark's own judge would reject, and gold values that do not appear in their answer
    (a value cut at a thousands comma, 'EUR 27,' for 'EUR 27,000', scores a right answer wrong)."""
    from mmeb_assets.judge.llm import judge_rules

    out = []
    for item in items:
        if item.answer_status != "answerable":
            continue
        value = (item.gold.value or "").strip()
        # a list or role gold: each member; a signed difference is written '3 lower'
        members = [m.strip().lstrip("+-−") for m in value.split(";") if m.strip()]
        if any(normalize(m) not in normalize(item.gold.answer) for m in members):
            out.append(f"{item.id}: gold value {value!r} is not in its answer {item.gold.answer[:60]!r}")
        verdict = judge_rules(item, item.gold.answer)
        if not verdict.correct:
            out.append(f"{item.id}: the judge rejects its own gold ({verdict.code})")
    return out


def find_missing_tasks(items: list[QAItem]) -> list[str]:
    present = {i.task for i in items}
    return [t for t in TASKS if t not in present]


@dg.asset_check(asset=qa_validated, blocking=True, description="no kept question reveals its own answer")
def qa_no_leak(context: dg.AssetCheckExecutionContext, qa_validated) -> dg.AssetCheckResult:
    return _result(find_leaks(_items(_own(qa_validated, context))))


@dg.asset_check(asset=qa_validated, blocking=True, additional_ins={"records": dg.AssetIn("records")},
                description="every evidence and solution record id exists in the project's records")
def qa_evidence_ids_exist(context: dg.AssetCheckExecutionContext, qa_validated, records) -> dg.AssetCheckResult:
    return _result(find_unknown_evidence(_items(_own(qa_validated, context)), _record_ids(_own(records, context))))


@dg.asset_check(asset=qa_validated, blocking=True, description="every answerable item has gold evidence")
def qa_answerable_have_evidence(context: dg.AssetCheckExecutionContext, qa_validated) -> dg.AssetCheckResult:
    return _result(find_missing_evidence(_items(_own(qa_validated, context))))


@dg.asset_check(asset=qa_validated, blocking=True, description="no duplicate questions or ids")
def qa_no_duplicates(context: dg.AssetCheckExecutionContext, qa_validated) -> dg.AssetCheckResult:
    sets = _own(qa_validated, context)
    return _result([f"{key}: {f}" for key, v in sets.items() for f in find_duplicates(_items(v))])


@dg.asset_check(asset=qa_validated, blocking=True,
                description="floor: each of the 8 task types is present (defective questions are dropped one by "
                            "one; a project fails only when what is left misses a task type)")
def qa_task_coverage(context: dg.AssetCheckExecutionContext, qa_validated) -> dg.AssetCheckResult:
    sets = _own(qa_validated, context)
    missing = [t for t in TASKS if any(t in find_missing_tasks(_items(v)) for v in sets.values())]
    findings = [f"floor not met: all 8 task types (missing {', '.join(missing)})"] if missing else []
    return _result(findings, tasks_present=len(TASKS) - len(missing))


@dg.asset_check(asset=benchmark, blocking=True, description="merged benchmark: no leak, no duplicate ids, evidence present")
def benchmark_integrity(benchmark: Benchmark) -> dg.AssetCheckResult:
    findings = find_leaks(benchmark.items) + find_missing_evidence(benchmark.items)
    ids = Counter(i.id for i in benchmark.items)
    findings += [f"duplicate id: {i}" for i, n in ids.items() if n > 1]
    return _result(findings, questions=len(benchmark.items))


@dg.asset_check(asset=benchmark, blocking=False,
                description="no question text repeats across projects (the retrieval workspace is shared)")
def benchmark_cross_project_duplicates(benchmark: Benchmark) -> dg.AssetCheckResult:
    projects: dict[str, set[str]] = {}
    for item in benchmark.items:
        projects.setdefault(normalize(item.q), set()).add(item.project)
    findings = [f"{sorted(p)}: {q[:60]}" for q, p in projects.items() if len(p) > 1]
    return _result(findings, severity=dg.AssetCheckSeverity.WARN)


@dg.asset_check(asset=qa_validated, blocking=False,
                description="every gold answer is judged right by the rules judge, its value printed in it")
def qa_gold_judged_right(context: dg.AssetCheckExecutionContext, qa_validated) -> dg.AssetCheckResult:
    items = [i for v in _own(qa_validated, context).values() for i in _items(v)]
    findings = find_gold_problems(items)
    answerable = sum(1 for i in items if i.answer_status == "answerable")
    return _result(findings, severity=dg.AssetCheckSeverity.WARN, answerable=answerable)


@dg.asset_check(asset=qa_validated, blocking=False, additional_ins=RENDERED_PROJECT,
                description="each 'which documents still showed the old value' gold is exactly the documents "
                            "whose version current then shows it, read from the rendered records")
def qa_stale_golds_exact(context: dg.AssetCheckExecutionContext, qa_validated, records, event_plan,
                         organization) -> dg.AssetCheckResult:
    checked, findings = _per_project(context, qa_validated, records, event_plan, organization,
                                     lambda index, item: item.generator.endswith("cross_source.stale"),
                                     stale_gold_problems)
    return _result(findings, severity=dg.AssetCheckSeverity.WARN, stale_questions=checked)


@dg.asset_check(asset=qa_validated, blocking=False, additional_ins=RENDERED_PROJECT,
                description="every kept question on table cells cites a record that prints each cell's value in "
                            "the asked row and names the asked measure, read from the rendered records")
def qa_evidence_shows_asked(context: dg.AssetCheckExecutionContext, qa_validated, records, event_plan,
                            organization) -> dg.AssetCheckResult:
    checked, findings = _per_project(context, qa_validated, records, event_plan, organization,
                                     lambda index, item: bool(evidence_operands(index, item)), evidence_problems)
    return _result(findings, severity=dg.AssetCheckSeverity.WARN, questions_on_cells=checked)


def _per_project(context, qa_validated, records, event_plan, organization, counts, problems) -> tuple[int, list[str]]:
    """(questions `counts` selects, findings of `problems`) over this run's projects, each read from
    its rendered records with its plan and organization."""
    plans, orgs, recs = _own(event_plan, context), _own(organization, context), _own(records, context)
    findings, checked = [], 0
    for key, value in _own(qa_validated, context).items():
        if key not in plans or key not in orgs or key not in recs:
            continue
        index = ProjectIndex(plan=plans[key], org=orgs[key], records=recs[key])
        items = _items(value)
        checked += sum(1 for i in items if counts(index, i))
        findings += problems(index, items)
    return checked, findings


QA_CHECKS = [qa_no_leak, qa_gold_judged_right, qa_stale_golds_exact, qa_evidence_shows_asked, qa_evidence_ids_exist,
             qa_answerable_have_evidence, qa_no_duplicates, qa_task_coverage, benchmark_integrity,
             benchmark_cross_project_duplicates]
