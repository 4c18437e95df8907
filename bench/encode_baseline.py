"""The bare encoder rate that `lance_index` is measured against: every built record's stored text,
encoded once with sentence-transformers, the bundled all-MiniLM-L6-v2 at the build's settings (max
length 256, mini-batch 16, the torch threads of one build worker). No cache, no table, no Dagster.

Usage: .venv/bin/python bench/encode_baseline.py --home DATA_HOME [--threads 1] [--batch 16]
Prints one JSON line: records, seconds, records_per_s, CPU seconds, threads, batch, load average.
Run as its own process (bench_build.py does) so the thread setting is the only one torch sees.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def record_texts(home: Path) -> list[str]:
    """The stored text of every record of every project, as `lance_index` embeds it."""
    texts = []
    for path in sorted((home / "projects").glob("*/records.jsonl")):
        with path.open(encoding="utf-8") as handle:
            texts += [json.loads(line)["text"] or " " for line in handle if line.strip()]
    return texts


def bare_encode(texts: list[str], threads: int, batch: int) -> dict:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch
    from sentence_transformers import SentenceTransformer

    from mmeb_resources.embedder import MiniLMEmbedder

    torch.set_num_threads(threads)
    settings = MiniLMEmbedder()
    model = SentenceTransformer(str(settings.resolved_path()), device="cpu", local_files_only=True)
    model.max_seq_length = settings.max_seq_length
    model.encode(texts[:batch], batch_size=batch)  # warm-up: first-call allocations are not the encoder's rate
    started, cpu_started = time.perf_counter(), time.process_time()
    model.encode(texts, batch_size=batch, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    return {"records": len(texts), "seconds": round(seconds, 2), "records_per_s": round(len(texts) / seconds, 2),
            "cpu_seconds": round(cpu, 2), "records_per_cpu_s": round(len(texts) / cpu, 2),
            "threads": threads, "batch": batch, "max_seq_length": settings.max_seq_length,
            "load_average": [round(x, 2) for x in os.getloadavg()]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--home", required=True, help="a built data home (projects/*/records.jsonl)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (a build worker's: cores // workers)")
    parser.add_argument("--batch", type=int, default=16, help="mini-batch (MiniLMEmbedder encodes in 16s)")
    args = parser.parse_args()
    texts = record_texts(Path(args.home))
    if not texts:
        raise SystemExit(f"no records under {args.home}/projects")
    print(json.dumps(bare_encode(texts, args.threads, args.batch)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
