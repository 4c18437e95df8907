"""Dagster assets of the evaluation stage: answers and judgments per model x k, and the leaderboard."""

import contextlib
from pathlib import Path

import dagster as dg

from mmeb_assets.evaluation.answering import best_retrieval, build_answers, model_client
from mmeb_assets.evaluation.judging import build_judgments
from mmeb_assets.evaluation.leaderboard import build_leaderboard, load_runs, retrieval_metrics
from mmeb_assets.evaluation.prompting import project_image_loader
from mmeb_assets.evaluation.reader_cache import ReaderAnswerCache
from mmeb_assets.evaluation.submitted import submitted_retrieval, submitted_runs
from mmeb_resources.model_registry import load_registry
from mmeb_assets.partitions import K_VALUES, eval_partitions_def
from mmeb_assets.provenance import code_version
from mmeb_assets.schema.evaluation import AnswerSet, JudgmentSet, Leaderboard, RetrievalSet
from mmeb_assets.schema.qa import Benchmark
from mmeb_assets.schema.records import Corpus
from mmeb_resources.gpu import GPUResource
from mmeb_resources.llm_ledger import UsageLedger
from mmeb_resources.retrievers_config import BEST
from mmeb_resources.storage import StorageResource

STAGE = "evaluation"
CODE = code_version(STAGE)


def _retrievals_mapping() -> dg.PartitionMapping:
    """Every model x k cell reads the retriever partitions (Dagster's static mapping cannot target a
    multi-partitioned asset); `_one_retrieval` then takes the registry's active retriever."""
    return dg.AllPartitionMapping()


def _keys(context: dg.AssetExecutionContext) -> tuple[str, int]:
    dims = context.partition_key.keys_by_dimension  # type: ignore[union-attr]
    return dims["model"], int(dims["k"])


def _one_retrieval(retrievals: RetrievalSet | dict[str, RetrievalSet]) -> RetrievalSet:
    if not isinstance(retrievals, dict):
        return retrievals
    active = load_registry().active_retriever
    if active == BEST:
        return best_retrieval(retrievals)
    if active not in retrievals:
        raise ValueError(f"answers read retriever {active!r} (MMEB_EVAL_RETRIEVER / config/retrievers.yaml), "
                         f"but only {sorted(retrievals)} are materialized")
    return retrievals[active]


def _preview(answer_set: AnswerSet, rows: int = 8) -> str:
    lines = ["| question | task | answer |", "|---|---|---|"]
    for a in answer_set.answers[:rows]:
        text = a.answer.replace("|", "\\|").replace("\n", " ")[:120]
        lines.append(f"| {a.question_id} | {a.task} | {text} |")
    return "\n".join(lines)


@dg.asset(
    partitions_def=eval_partitions_def, code_version=CODE, group_name=STAGE,
    ins={"benchmark": dg.AssetIn(), "corpus": dg.AssetIn(),
         "retrievals": dg.AssetIn(partition_mapping=_retrievals_mapping())},
    description="One model's answers at k retrieved records (readers, in-process models, served models).",
)
def answers(context: dg.AssetExecutionContext, benchmark: Benchmark, corpus: Corpus, retrievals,
            storage: StorageResource, gpu: GPUResource) -> dg.Output[AnswerSet]:
    name, k = _keys(context)
    spec = load_registry().get(name)
    home = storage.root
    factory = (lambda: model_client(spec, home, gpu)) if spec.backend != "reader" else None
    answer_set, llm = build_answers(spec, k, benchmark, _one_retrieval(retrievals), corpus, llm_factory=factory,
                                    image_loader=project_image_loader(storage.project_dir),
                                    reader_cache=ReaderAnswerCache(storage.cache_dir() / "reader_answers.sqlite"))
    usage = llm.usage(f"{STAGE}.answers").as_metadata() if llm else {}
    metadata = {
        "model": name, "k": k, "retriever": answer_set.retriever, "backend": spec.backend,
        "answered": len(answer_set.answers), "questions": answer_set.n_questions,
        "sampled": answer_set.sample_size is not None, "text_only": not spec.vision,
        "recall_at_k": round(answer_set.recall_at_k or 0.0, 4), "records_dropped_for_budget":
            sum(len(a.dropped_record_ids) for a in answer_set.answers),
        "preview": dg.MetadataValue.md(_preview(answer_set)),
        **{f"llm_{key}": value for key, value in usage.items()},
    }
    return dg.Output(answer_set, metadata=metadata)


@dg.asset(
    partitions_def=eval_partitions_def, code_version=CODE, group_name=STAGE,
    description="Correctness of each answer: deterministic judge, plus the LLM judge when one is configured.",
)
def judgments(context: dg.AssetExecutionContext, answers: AnswerSet, benchmark: Benchmark,
              storage: StorageResource, gpu: GPUResource) -> dg.Output[JudgmentSet]:
    judge_spec = load_registry().judge_model()
    with (model_client(judge_spec, storage.root, gpu) if judge_spec else contextlib.nullcontext()) as judge_llm:
        result = build_judgments(answers, benchmark, judge_llm)
        usage = judge_llm.usage("evaluation.judge").as_metadata() if judge_llm else {}
    metadata = {"model": result.model, "k": result.k, "judge": result.judge, "judged": len(result.judgments),
                "accuracy": round(result.accuracy, 4),
                "agreement_rules_vs_llm": round(result.agreement, 4) if result.agreement is not None else "n/a",
                **{f"judge_{key}": value for key, value in usage.items()}}
    return dg.Output(result, metadata=metadata)


@dg.asset(
    code_version=CODE, group_name=STAGE, deps=[judgments, answers],
    ins={"benchmark": dg.AssetIn(), "corpus": dg.AssetIn()},
    description="Tables 5-7 of the paper with bootstrap 95% intervals (markdown, CSV, PNG).",
)
def leaderboard(context: dg.AssetExecutionContext, benchmark: Benchmark, corpus: Corpus,
                storage: StorageResource) -> dg.Output[Leaderboard]:
    registry = load_registry()
    keys = [(m, int(k)) for m in (s.name for s in registry.enabled) for k in K_VALUES]
    runs, missing = load_runs(storage.root, keys, registry)
    kept = submitted_runs(storage.root, {item.id for item in benchmark.items})  # `mmeb score --save`: kept rows stay
    board, markdown = build_leaderboard(runs + kept, benchmark, corpus, storage.evaluation_dir("reports"), missing,
                                        retrieval_metrics(storage.root) | submitted_retrieval(storage.root, benchmark))
    metadata = {"runs": len(runs), "submitted_systems": len(kept), "missing_partitions": len(missing), "report": board.files.get("markdown", ""),
                "tables": dg.MetadataValue.md(markdown[:60000]),
                "llm_ledger": dg.MetadataValue.md(ledger_markdown(storage.root / "cache" / "llm_ledger.sqlite"))}
    if "overall_png" in board.files:
        metadata["plot"] = dg.MetadataValue.path(board.files["overall_png"])
    return dg.Output(board, metadata=metadata)


def ledger_markdown(path: Path) -> str:
    """Tokens and cost per stage and model, all time (every LLM stage writes the same ledger)."""
    if not path.exists():
        return "No LLM calls recorded (offline readers and rules only)."
    rows = UsageLedger(path).by_stage_and_model()
    lines = ["| stage | model | requests | cache hits | prompt tokens | completion tokens | cost USD |",
             "|---|---|---|---|---|---|---|"]
    lines += [f"| {r['stage']} | {r['model']} | {r['requests']} | {r['cache_hits']} | {r['prompt_tokens']} | "
              f"{r['completion_tokens']} | {float(r['cost_usd'] or 0):.4f} |" for r in rows]
    return "\n".join(lines)
