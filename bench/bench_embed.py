"""MiniLM embedding backends on one machine: records/s and Recall@10, torch vs ONNX Runtime.

Embeds every record of a built data home (`--home`, default $MMEB_HOME; `mmeb demo` makes one) with
each backend (`torch`: sentence-transformers; `onnx`: fp32 export; `onnx-int8`: dynamic int8, measured
only: it is not offered, its Recall@10 moved by more than 0.5 points), the
cache off, in the same process one after the other, and prints per backend: records/s, the ratio
to torch measured in this run, the lowest and mean cosine of its vectors to torch's, and Evidence
Recall@10 of the benchmark questions by exact cosine search over all records (mean over questions
of the share of gold evidence ids in the top 10), with its change from torch in points. The first
ONNX call exports the model (not timed: a warm-up batch runs before the clock starts).

    python bench/bench_embed.py [--home DIR] [--threads N] [--repeat 2]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def load_home(home: Path) -> tuple[list[str], list[str], list[tuple[str, list[str]]]]:
    ids, texts = [], []
    for path in sorted((home / "projects").glob("*/records.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            ids.append(record["id"])
            texts.append(record.get("text") or " ")
    questions = []
    bench = home / "benchmark" / "questions.jsonl"
    if bench.exists():
        for line in bench.read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            if item.get("evidence"):
                questions.append((item["q"], list(item["evidence"])))
    return ids, texts, questions


def recall_at(k: int, ids: list[str], docs: np.ndarray, queries: np.ndarray, gold: list[list[str]]) -> float:
    if not gold:
        return float("nan")
    top = np.argsort(-(queries @ docs.T), axis=1)[:, :k]
    shares = [len(set(g) & {ids[j] for j in row}) / len(set(g)) for row, g in zip(top, gold)]
    return 100.0 * float(np.mean(shares))


def measure(backend: str, texts: list[str], questions: list[str], repeat: int):
    from mmeb_resources.embedder import EmbedInput
    from mmeb_resources.embedder_onnx import MiniLMOnnxEmbedder, minilm_for_backend

    if backend == "onnx-int8":  # measured, not offered as a backend (see embedder_onnx.py)
        model = MiniLMOnnxEmbedder(int8=True, use_cache=False, batch_size=64)
    else:
        model = minilm_for_backend(backend, use_cache=False, batch_size=64)
    model.embed([EmbedInput(text=t) for t in texts[:32]], "")  # load / export / warm up, untimed
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        docs = model.embed([EmbedInput(text=t) for t in texts], "")
        best = min(best, time.perf_counter() - started)
    queries = model.embed([EmbedInput(text=q) for q in questions], "") if questions else np.zeros((0, 1))
    return docs, queries, len(texts) / best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", default=os.environ.get("MMEB_HOME", "data"))
    parser.add_argument("--threads", type=int, default=0, help="torch and ONNX Runtime threads (0: default)")
    parser.add_argument("--repeat", type=int, default=2, help="timed passes per backend (best is kept)")
    parser.add_argument("--backends", default="torch,onnx,onnx-int8")
    args = parser.parse_args(argv)
    if args.threads:
        import torch

        os.environ["OMP_NUM_THREADS"] = str(args.threads)
        torch.set_num_threads(args.threads)
    ids, texts, questions = load_home(Path(args.home))
    if not texts:
        print(f"no records under {args.home}/projects: build a home first (mmeb demo)")
        return 1
    print(f"{len(texts)} records, {len(questions)} questions from {args.home}; "
          f"threads={args.threads or 'default'}, best of {args.repeat}")
    gold = [g for _, g in questions]
    base = None
    for backend in args.backends.split(","):
        docs, queries, rate = measure(backend, texts, [q for q, _ in questions], args.repeat)
        recall = recall_at(10, ids, docs, queries, gold)
        if base is None:
            base = (docs, rate, recall)
        cos = np.sum(docs * base[0], axis=1)
        print(f"{backend:<10} {rate:8.1f} records/s  x{rate / base[1]:.2f} vs {args.backends.split(',')[0]}  "
              f"cosine to it min {cos.min():.4f} mean {cos.mean():.5f}  Recall@10 {recall:.2f} "
              f"({recall - base[2]:+.2f} points)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
