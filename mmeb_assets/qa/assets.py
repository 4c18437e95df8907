"""QA assets: per-seed candidates and validated questions, the merged benchmark, its statistics."""

from collections import Counter

import dagster as dg

from mmeb_assets.partitions import seed_partitions_def
from mmeb_assets.provenance import code_version, content_hash, make_provenance
from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.evidence_floors import raise_evidence_floors
from mmeb_assets.qa.export import write_parquet, write_questions_jsonl
from mmeb_assets.qa.generate import generate_rule_items, make_context
from mmeb_assets.qa.grounding import PlanTrace, question_basis
from mmeb_assets.qa.phrasing import scope_to_project
from mmeb_assets.qa.mix import PAPER_MIX, achieved_mix, normalize_mix, select_mix
from mmeb_assets.qa.quality import selection_bucket
from mmeb_assets.qa.shortcut_guard import guard_shortcuts
from mmeb_assets.qa.stats import QAStatistics, compute_statistics
from mmeb_assets.qa.validate_llm import LLMValidator
from mmeb_assets.qa.validation import validate_items
from mmeb_assets.schema import TASKS, Benchmark, EventPlan, Organization, QASet, RecordSet
from mmeb_assets.versioning import versioned
from mmeb_resources.llm import LLMResource
from mmeb_resources.storage import StorageResource, atomic_write_text

CODE = code_version("qa")


class QAGenerationConfig(dg.Config):
    llm_generation: bool = True
    llm_items_per_family: int = 4
    llm_records_chars: int = 60_000


class QAValidationConfig(dg.Config):
    target_per_project: int = 60
    mix_er: float = PAPER_MIX["ER"]
    mix_cr: float = PAPER_MIX["CR"]
    mix_uns: float = PAPER_MIX["UNS"]
    validator: str = "auto"

    def mix(self) -> dict[str, float]:
        return normalize_mix({"ER": self.mix_er, "CR": self.mix_cr, "UNS": self.mix_uns})


def _index(plan: EventPlan, org: Organization, records: RecordSet) -> ProjectIndex:
    for name, obj in (("event_plan", plan), ("organization", org)):
        if obj.seed_id != records.seed_id:
            raise ValueError(f"qa: {name}.seed_id {obj.seed_id!r} does not match records.seed_id {records.seed_id!r}")
    return ProjectIndex(plan=plan, org=org, records=records)


def _preview_md(items, n: int = 8) -> str:
    def cell(text: str, limit: int) -> str:
        return text[:limit].replace("|", "/")

    rows = "".join(f"| {i.id} | {i.task} | {cell(i.q, 90)} | {cell(i.gold.answer, 50)} | {len(i.evidence)} |\n"
                   for i in items[:n])
    return "| id | task | question | gold | evidence |\n|---|---|---|---|---|\n" + rows


def _task_md(items) -> str:
    counts = Counter(i.task for i in items)
    return "| task | n |\n|---|---|\n" + "".join(f"| {t} | {counts.get(t, 0)} |\n" for t in TASKS)


@dg.asset(partitions_def=seed_partitions_def, code_version=CODE, group_name="qa", kinds={"python"},
          description="Candidate questions of all 8 task types (rules, plus the LLM families when online).")
def qa_items(context: dg.AssetExecutionContext, config: QAGenerationConfig, llm: LLMResource,
             event_plan: EventPlan, organization: Organization, records: RecordSet) -> dg.MaterializeResult[QASet]:
    seed = context.partition_key
    index = _index(event_plan, organization, records)
    inputs = {"plan": content_hash(event_plan), "records": content_hash([r.id for r in records.records])}
    provenance = make_provenance(seed, "qa", "rules", code=CODE, inputs=inputs)
    items = generate_rule_items(make_context(index, provenance))
    if config.llm_generation and not llm.offline:
        from mmeb_assets.qa.llm_generate import generate_llm_items

        fallbacks: list[str] = []
        items += generate_llm_items(index, llm, existing=items, per_family=config.llm_items_per_family,
                                    records_chars=config.llm_records_chars, code=CODE, log=context.log,
                                    fallbacks=fallbacks)
        provenance = provenance.model_copy(update={"fallbacks": fallbacks})
    org = index.org
    items = [i.model_copy(update={"q": scope_to_project(i.q, org.project_codename, org.company_name)}) for i in items]
    qa_set = QASet(seed_id=seed, provenance=provenance, items=items, n_candidates=len(items))
    return versioned(qa_set, {"candidates": len(items), "by_task": dg.MetadataValue.md(_task_md(items))})


MIN_ANSWERABLE = 15


class ProjectTooSmall(ValueError):
    """A project whose validated questions fall under the floor; `str()` is the one-line message."""


def require_answerable_floor(seed: str, selected: list) -> None:
    """A small document makes a small project, but one with under `MIN_ANSWERABLE` answerable
    questions measures nothing: its partition fails in one line (nothing is written, earlier assets stay)."""
    answerable = sum(1 for i in selected if i.answer_status == "answerable")
    if answerable < MIN_ANSWERABLE:
        raise ProjectTooSmall(f"seed {seed}: {answerable} answerable question(s) passed validation, below the "
                              f"floor of {MIN_ANSWERABLE}; no questions.jsonl written")


@dg.asset(partitions_def=seed_partitions_def, code_version=CODE, group_name="qa", kinds={"python"},
          description="Questions after three-stage validation and the category mix; writes questions.jsonl.")
def qa_validated(context: dg.AssetExecutionContext, config: QAValidationConfig, storage: StorageResource,
                 llm: LLMResource, qa_items: QASet, records: RecordSet, event_plan: EventPlan,
                 organization: Organization) -> dg.MaterializeResult[QASet]:
    seed = context.partition_key
    index = _index(event_plan, organization, records)
    use_llm = config.validator == "llm" or (config.validator == "auto" and not llm.offline)
    validator = LLMValidator(llm, index) if use_llm else None
    kept, dropped = validate_items(qa_items.items, index, validator)
    bucket = selection_bucket(index)
    trace = PlanTrace(event_plan)
    selected, left_out = select_mix(kept, config.mix(), config.target_per_project, seed, bucket,
                                    prefer=lambda item: question_basis(item, trace) == "document")
    selected, left_out, swaps = raise_evidence_floors(selected, left_out, index, bucket)
    selected, left_out, shortcut_swaps = guard_shortcuts(selected, left_out, index, bucket)
    require_answerable_floor(seed, selected)
    order = {t: n for n, t in enumerate(TASKS)}
    selected.sort(key=lambda i: (order[i.task], i.id))
    generator = llm.generator_name if use_llm else "rules"
    provenance = make_provenance(seed, "qa", generator, model=llm.model if use_llm else "", code=CODE,
                                 inputs={"qa_items": content_hash(qa_items), "mix": config.mix(),
                                         "target": config.target_per_project})
    path = write_questions_jsonl(storage.project_dir(seed) / "questions.jsonl", selected)
    write_questions_jsonl(storage.project_dir(seed) / "questions_dropped.jsonl", dropped)
    qa_set = QASet(seed_id=seed, provenance=provenance, items=selected, dropped=dropped,
                   n_candidates=len(qa_items.items), unselected=[i.id for i in left_out], target_mix=config.mix())
    drops = Counter(i.validation.category for i in dropped)
    basis = Counter(question_basis(i, trace) for i in selected if i.answer_status == "answerable")
    return versioned(qa_set, {
        "document_share": round(basis["document"] / max(1, sum(basis.values())), 4),
        "rests_on": dg.MetadataValue.json(dict(sorted(basis.items()))),
        "kept": len(selected), "dropped": len(dropped), "passed_not_selected": len(left_out),
        "evidence_floor_swaps": swaps, "shortcut_swaps": len(shortcut_swaps),
        "shortcut_swaps_detail": dg.MetadataValue.md("\n".join(f"- {s}" for s in shortcut_swaps) or "none"),
        "questions_jsonl": str(path), "mix": dg.MetadataValue.json(achieved_mix(selected)),
        "by_task": dg.MetadataValue.md(_task_md(selected)),
        "drop_categories": dg.MetadataValue.json(dict(sorted(drops.items()))),
        "preview": dg.MetadataValue.md(_preview_md(selected[::max(1, len(selected) // 8)])),
    })


@dg.asset(code_version=CODE, group_name="qa", kinds={"python", "parquet"},
          ins={"qa_validated": dg.AssetIn(partition_mapping=dg.AllPartitionMapping())},
          description="All projects' questions merged: benchmark/questions.jsonl and questions.parquet.")
def benchmark(context: dg.AssetExecutionContext, storage: StorageResource,
              qa_validated: dict[str, QASet]) -> dg.MaterializeResult[Benchmark]:
    projects = sorted(qa_validated)
    items = [item for seed in projects for item in qa_validated[seed].items]
    dropped = Counter(i.validation.category for seed in projects for i in qa_validated[seed].dropped)
    target = qa_validated[projects[0]].target_mix if projects else {}
    bench = Benchmark(items=items, projects=projects, mix=achieved_mix(items), target_mix=target or dict(PAPER_MIX),
                      dropped=dict(sorted(dropped.items())))
    folder = storage.benchmark_dir()
    jsonl = write_questions_jsonl(folder / "questions.jsonl", items)
    parquet = write_parquet(folder / "questions.parquet", items)
    return versioned(bench, {"questions": len(items), "projects": len(projects), "jsonl": str(jsonl),
                             "parquet": str(parquet), "mix": dg.MetadataValue.json(bench.mix),
                             "by_task": dg.MetadataValue.md(_task_md(items))})


@dg.asset(code_version=CODE, group_name="qa", kinds={"python"},
          description="Paper-shaped statistics: Table 3 (c)-(d), appendix Tables 2-5 (markdown + CSV).")
def qa_statistics(context: dg.AssetExecutionContext, storage: StorageResource, benchmark: Benchmark) -> dg.MaterializeResult[QAStatistics]:
    stats = compute_statistics(benchmark.items, benchmark.projects)
    folder = storage.benchmark_dir() / "stats"
    metadata = {}
    for table in stats.tables:
        atomic_write_text(folder / f"{table.name}.md", table.to_markdown())
        atomic_write_text(folder / f"{table.name}.csv", table.to_csv())
        metadata[table.name] = dg.MetadataValue.md(table.to_markdown())
        metadata[f"{table.name}_csv"] = dg.MetadataValue.text(table.to_csv())
    metadata["folder"] = str(folder)
    return versioned(stats, metadata)
