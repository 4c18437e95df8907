"""Benchmark: judges against the hand-labelled judge set (tests/data/judge_cases.yaml).

Prints, per judge, agreement with the human verdict, false accepts (judged correct, human says wrong)
and false rejects (judged wrong, human says correct), overall, per task and per near-miss kind. The
rules judge always runs; an LLM judge runs when one is named: an OpenAI-compatible endpoint
(--base-url/--model) or a registry entry (--registry-model, e.g. smollm2-135m: SmolLM2 in process on
the CPU). --sample N judges a stratified sample of N cases with the LLM (the rules judge is also
shown on the same sample). The target for the rules judge: >= 97% agreement, <= 2% false accepts.

    .venv/bin/python bench/bench_judge.py
    .venv/bin/python bench/bench_judge.py --registry-model smollm2-135m --sample 60
    .venv/bin/python bench/bench_judge.py --base-url http://127.0.0.1:8000/v1 --model smollm2-135m
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1])]

from mmeb_assets.judge.llm import judge_llm_batch, judge_rules  # noqa: E402
from mmeb_assets.evaluation.judge_cases import JudgeCase, load_cases, tally  # noqa: E402


def sample(cases: list[JudgeCase], n: int | None) -> list[JudgeCase]:
    """Every k-th case, so that each task and kind keeps its share (deterministic)."""
    if not n or n >= len(cases):
        return cases
    step = len(cases) / n
    return [cases[int(i * step)] for i in range(n)]


def report(name: str, cases: list[JudgeCase], verdicts: list[bool], seconds: float) -> None:
    groups = tally(cases, verdicts)
    print(f"\n== {name}: {len(cases)} cases in {seconds:.1f} s")
    print(f"{'':28s}{'n':>4s} {'agree':>7s} {'false acc.':>11s} {'false rej.':>11s}")
    print(f"{'all':28s}{groups['all']['all'].row()}")
    for title in ("task", "kind"):
        print(f"-- per {title}")
        for key, row in sorted(groups[title].items()):
            print(f"{key:28s}{row.row()}")


def llm_client(args):
    from mmeb_resources.llm import LLMResource

    home = args.home or tempfile.mkdtemp(prefix="mmeb-bench-judge-")
    if args.base_url:
        return LLMResource(backend="openai", base_url=args.base_url, model=args.model, api_key="not-needed",
                           home=home, temperature=0.0, concurrency=args.concurrency)
    from mmeb_assets.evaluation.answering import llm_for_spec
    from mmeb_resources.model_registry import load_registry

    spec = load_registry().get(args.registry_model)
    return llm_for_spec(spec.model_copy(update={"max_tokens": 96}), Path(home))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=Path, default=None, help="judge set (default tests/data/judge_cases.yaml)")
    parser.add_argument("--base-url", help="OpenAI-compatible endpoint of an LLM judge")
    parser.add_argument("--model", default="", help="model name at --base-url")
    parser.add_argument("--registry-model", help="registry entry as LLM judge (e.g. smollm2-135m)")
    parser.add_argument("--sample", type=int, default=None, help="LLM judge on a stratified sample of N cases")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--home", help="cache/ledger folder for the LLM client (default: a fresh temp folder)")
    args = parser.parse_args(argv)
    cases = load_cases(args.cases) if args.cases else load_cases()
    started = time.perf_counter()
    rules = [judge_rules(c.item, c.candidate) for c in cases]
    report("rules judge (strict)", cases, [v.correct for v in rules], time.perf_counter() - started)
    if not (args.base_url or args.registry_model):
        return 0
    chosen = sample(cases, args.sample)
    if len(chosen) < len(cases):
        by_id = {c.id: v for c, v in zip(cases, rules)}
        report("rules judge on the LLM sample", chosen, [by_id[c.id].correct for c in chosen], 0.0)
    llm = llm_client(args)
    started = time.perf_counter()
    found = judge_llm_batch(llm, [c.item for c in chosen], [c.candidate for c in chosen])
    seconds = time.perf_counter() - started
    unusable = sum(not v.ok for v in found)
    report(f"LLM judge {llm.model} (no usable verdict: {unusable}, counted as 'wrong')", chosen,
           [v.correct and v.ok for v in found], seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
