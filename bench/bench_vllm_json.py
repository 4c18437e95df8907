"""Benchmark: small JSON objects from a served model, with and without the schema as response_format.

Why: the stage bench mixes form and content failures; this isolates form. N prompts (judge-style
verdicts over generated question / reference / candidate triples) go through the production client
at concurrency N, once with `response_format` (strict json_schema, bounded) and once without;
prints valid / total and completion tokens per second for each, against the same server.

    .venv/bin/python bench/bench_vllm_json.py --base-url http://127.0.0.1:8000/v1 --model smollm2-135m [--n 32]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1])]

from pydantic import BaseModel, ValidationError  # noqa: E402

from mmeb_resources.llm import LLMResource, extract_json_object  # noqa: E402

SYSTEM = "You are a strict grader. Reply with one JSON object: {\"correct\": true|false, \"reason\": \"...\"}."
PRODUCTS = ["Falcon", "Harbor", "Juniper", "Kestrel", "Lumen", "Mosaic", "Nimbus", "Orchid", "Pylon", "Quartz"]


class Verdict(BaseModel):
    correct: bool
    reason: str


def prompts(n: int) -> list[list[dict]]:
    out = []
    for i in range(n):
        name, other = PRODUCTS[i % len(PRODUCTS)], PRODUCTS[(i * 3 + 1) % len(PRODUCTS)]
        candidate = name if i % 2 == 0 else other
        user = (f"Question: what is the codename of project {i + 1}?\nReference answer: {name}\n"
                f"Candidate answer: {candidate} (accuracy {60 + i}.{i % 10}% on run {i * 7})\nIs the candidate correct?")
        out.append([{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}])
    return out


def valid(text: str) -> bool:
    try:
        Verdict.model_validate(extract_json_object(text))
    except (ValueError, ValidationError):
        return False
    return True


def run(args, structured: bool) -> str:
    with tempfile.TemporaryDirectory() as home:
        llm = LLMResource(backend="openai", base_url=args.base_url, model=args.model, home=home, use_cache=False,
                          concurrency=args.n, max_tokens=args.max_tokens, timeout_s=600)
        params = llm.json_params(Verdict) if structured else {}
        started = time.perf_counter()
        replies = llm.chat_batch(prompts(args.n), stage="bench.json", **params)
        seconds = time.perf_counter() - started
    ok = sum(valid(r.text) for r in replies)
    tokens = sum(r.completion_tokens for r in replies)
    return (f"{'with' if structured else 'without'} schema: {ok}/{len(replies)} valid, {tokens} completion tokens "
            f"in {seconds:.1f} s ({tokens / seconds:.0f} tokens/s at concurrency {args.n})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base-url", default=os.environ.get("MMEB_SMOLLM2_VLLM_URL", ""),
                        help="the server's /v1 URL (default $MMEB_SMOLLM2_VLLM_URL)")
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--max-tokens", type=int, default=128)
    args = parser.parse_args()
    if not args.base_url:  # `make bench` runs every bench; this one needs `make vllm`'s server
        print("bench_vllm_json: skipped, no server (start one with `make vllm`, then set MMEB_SMOLLM2_VLLM_URL)")
        return 0
    for structured in (True, False):
        print(run(args, structured), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
