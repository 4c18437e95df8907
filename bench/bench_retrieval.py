"""Retrieval benchmark: LanceDB vs exact NumPy top-k (same run), embedding throughput, 1M-vector ANN.

    .venv/bin/python bench/bench_retrieval.py            # paper-sized batch + 1M x 64 scale run
    .venv/bin/python bench/bench_retrieval.py --quick    # smaller everywhere (about a minute)

1. Batch retrieval of every question: 1,613 queries x 7,140 records x 384 dims (the paper's sizes;
   the real corpus and benchmark under MMEB_HOME are used when `--real` and they exist). LanceDB flat
   search (one list call, and one query at a time) and `vector_search` (the exact batch path: stored
   vectors read once per table version, one matrix product) against NumPy exact top-100: median time
   ratios and whether the top-100 lists are identical.
2. Embedding throughput of the offline embedder (MiniLM), cold and from the content-hash cache.
3. Scale: synthetic clustered vectors (1M x 64) with an IVF-PQ index: build time, Recall@10 against
   exact search, p50/p99 latency of single queries.

Prints figures only; nothing here asserts on time.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from mmeb_assets.retrieval.search import (  # noqa: E402
    clear_matrix_cache, lance_vector_search, numpy_topk, vector_search,
)


def clustered(n: int, dim: int, rng: np.random.Generator, centers: int = 1000, spread: float = 0.6,
              intrinsic: int = 16, seed: int = 7) -> np.ndarray:
    """Unit vectors around random centres, varying inside a random `intrinsic`-dim subspace: the
    low-dimensional structure real embeddings have and an ANN index exploits. Corpus and queries
    built with the same `seed` share centres and subspace."""
    shape_rng = np.random.default_rng(seed)
    base = shape_rng.standard_normal((centers, dim)).astype(np.float32)
    basis = shape_rng.standard_normal((intrinsic, dim)).astype(np.float32) / np.sqrt(intrinsic)
    out = np.empty((n, dim), dtype=np.float32)
    for start in range(0, n, 200_000):
        stop = min(n, start + 200_000)
        pick = rng.integers(0, centers, stop - start)
        noise = rng.standard_normal((stop - start, intrinsic)).astype(np.float32) @ basis
        out[start:stop] = base[pick] + spread * noise
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return out


def _table(db, name: str, vectors: np.ndarray):
    import pyarrow as pa

    ids = pa.array([f"r{i}" for i in range(len(vectors))])
    flat = pa.FixedSizeListArray.from_arrays(pa.array(vectors.reshape(-1)), vectors.shape[1])
    return db.create_table(name, data=pa.table({"id": ids, "vector": flat}), mode="overwrite")


def _median_time(fn, repeats: int):
    """Median seconds of `repeats` calls (the machine may be shared) and the last result."""
    times, result = [], None
    for _ in range(max(1, repeats)):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return float(np.median(times)), result


def _agreement(a: list[list[str]], b: list[list[str]], k: int) -> float:
    return float(np.mean([len(set(x[:k]) & set(y[:k])) / k for x, y in zip(a, b)]))


def _real_inputs():
    from mmeb_resources.embedder import embedder_from_env
    from mmeb_resources.io_manager import _load
    from mmeb_resources.lancedb import LanceDBResource
    from mmeb_resources.storage import default_home

    home = default_home()
    bench = _load(home / "benchmark" / "benchmark.json")
    embedder = embedder_from_env()
    table = LanceDBResource().open_table(embedder.name)
    if table is None:
        raise SystemExit(f"--real: no LanceDB table for {embedder.name} under {home}/lance (materialize lance_index)")
    from mmeb_assets.retrieval.search import table_matrix

    ids, matrix = table_matrix(table)
    return ids, matrix, embedder.embed_queries([i.q for i in bench.items]), table


def batch_retrieval(args, rng) -> None:
    import lancedb

    if args.real:
        ids, matrix, queries, table = _real_inputs()
        label = "real corpus"
    else:
        matrix = clustered(args.records, 384, rng, centers=200)
        queries = clustered(args.queries, 384, rng, centers=200)
        ids = [f"r{i}" for i in range(len(matrix))]
        table = _table(lancedb.connect(tempfile.mkdtemp(prefix="bench-lance-")), "records", matrix)
        label = "synthetic clustered"
    order = np.argsort(np.asarray(ids, dtype=object), kind="stable")  # rows in id order, as vector_search holds them
    ids, matrix = [ids[i] for i in order], np.ascontiguousarray(matrix[order])
    k = 100
    print(f"\n## 1. Batch retrieval ({label}): {len(queries)} queries x {len(matrix)} records x {matrix.shape[1]} dims, "
          f"top-{k}")
    numpy_s, (idx, scores) = _median_time(lambda: numpy_topk(matrix, queries, k), args.repeats)
    exact = [[rid for rid, _ in sorted(zip([ids[i] for i in row], srow), key=lambda h: (-h[1], h[0]))]
             for row, srow in zip(idx, scores.tolist())]
    def cold_search():
        clear_matrix_cache()
        return vector_search(table, queries, k=k)

    cold_s, cold = _median_time(cold_search, args.repeats)
    warm_s, warm = _median_time(lambda: vector_search(table, queries, k=k), args.repeats)
    cold, warm = ([[rid for rid, _ in hits] for hits in result] for result in (cold, warm))
    t = time.perf_counter()
    lance = [[rid for rid, _ in hits] for hits in lance_vector_search(table, queries, k=k)]
    lance_s = time.perf_counter() - t
    sample = min(len(queries), args.single)
    t = time.perf_counter()
    for q in queries[:sample]:
        vector_search(table, q[None, :], k=k)
    single_ms = 1000 * (time.perf_counter() - t) / sample
    print(f"NumPy exact (one matmul + argpartition, rows in id order): {numpy_s:.3f} s")
    print(f"vector_search, batch (reads the vectors, cold; exact top-k):  {cold_s:.3f} s  ({cold_s / numpy_s:.2f}x NumPy; goal <= 2x)")
    print(f"vector_search, batch (same table version again): {warm_s:.3f} s  ({warm_s / numpy_s:.2f}x NumPy)")
    print(f"LanceDB flat list search (previous batch path):  {lance_s:.3f} s  ({lance_s / numpy_s:.2f}x NumPy)")
    print(f"LanceDB flat, one query at a time:               {single_ms:.1f} ms/query over {sample} "
          f"({single_ms * len(queries) / 1000 / numpy_s:.0f}x NumPy for all queries)")
    print(f"identical top-{k} (ids and order) vector_search vs NumPy: {sum(a == b for a, b in zip(cold, exact))}"
          f"/{len(exact)} queries; warm {sum(a == b for a, b in zip(warm, exact))}/{len(exact)}")
    for kk in (10, 50, 100):
        print(f"top-{kk} set agreement LanceDB list search vs NumPy:  {_agreement(lance, exact, kk):.4f}")


def embedding_throughput(args, rng) -> None:
    from mmeb_resources.embedder import EmbedInput, MiniLMEmbedder

    words = ("budget forecast meeting revenue slide figure table report deadline vendor project cluster "
             "emissions harbor retriever recall question answer version draft review update").split()
    texts = [f"[{i}] " + " ".join(rng.choice(words, 45)) for i in range(args.paragraphs)]
    cache = Path(tempfile.mkdtemp(prefix="bench-emb-")) / "emb.sqlite"
    emb = MiniLMEmbedder(cache_path=str(cache), batch_size=64)
    emb.embed_documents([EmbedInput(text="warm up")])
    t = time.perf_counter()
    emb.embed_documents([EmbedInput(text=x) for x in texts])
    cold = time.perf_counter() - t
    t = time.perf_counter()
    emb.embed_documents([EmbedInput(text=x) for x in texts])
    warm = time.perf_counter() - t
    print(f"\n## 2. Embedding throughput (MiniLM, CPU, {len(texts)} paragraphs of ~50 words, batch 64)")
    print(f"cold: {len(texts) / cold:.1f} records/s   from cache: {len(texts) / warm:.0f} records/s "
          f"({cold / warm:.0f}x)")


def scale_run(args, rng) -> None:
    import lancedb

    n, dim, nq = args.scale, args.dim, args.scale_queries
    print(f"\n## 3. Scale: {n:,} synthetic vectors x {dim} dims, IVF-PQ, {nq} single queries, top-10")
    t = time.perf_counter()
    data = clustered(n, dim, rng)
    queries = clustered(nq, dim, rng)
    db = lancedb.connect(tempfile.mkdtemp(prefix="bench-scale-"))
    table = _table(db, "scale", data)
    load_s = time.perf_counter() - t
    partitions = max(16, int(np.sqrt(n)))
    t = time.perf_counter()
    from lancedb.index import IvfPq

    table.create_index("vector", config=IvfPq(distance_type="cosine", num_partitions=partitions,
                                              num_sub_vectors=dim // 4))
    build_s = time.perf_counter() - t
    t = time.perf_counter()
    exact_idx, _ = numpy_topk(data, queries, 10)
    exact_s = time.perf_counter() - t
    exact = [{f"r{i}" for i in row} for row in exact_idx]
    print(f"generate + write: {load_s:.1f} s   IVF-PQ build ({partitions} partitions, {dim // 4} sub-vectors): "
          f"{build_s:.1f} s   NumPy exact top-10 for {nq} queries: {exact_s:.2f} s")
    table.search(queries[0]).distance_type("cosine").limit(10).to_arrow()  # load the index once
    for nprobes, refine in ((10, None), (20, None), (20, 10), (50, 20)):
        lat, recall = [], []
        for q, gold in zip(queries, exact):
            t = time.perf_counter()
            builder = table.search(q).distance_type("cosine").nprobes(nprobes).limit(10).select(["id", "_distance"])
            if refine:
                builder = builder.refine_factor(refine)
            got = builder.to_arrow().column("id").to_pylist()
            lat.append(1000 * (time.perf_counter() - t))
            recall.append(len(gold & set(got)) / 10)
        print(f"nprobes={nprobes:<3} refine={str(refine):<4}  Recall@10 vs exact {np.mean(recall):.3f}   "
              f"p50 {np.percentile(lat, 50):.1f} ms   p99 {np.percentile(lat, 99):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes everywhere")
    parser.add_argument("--real", action="store_true", help="section 1 on MMEB_HOME's corpus and benchmark")
    parser.add_argument("--skip-scale", action="store_true")
    parser.add_argument("--repeats", type=int, default=3, help="section 1: median of this many timed runs")
    args = parser.parse_args()
    args.records, args.queries, args.single = (7140, 1613, 100) if not args.quick else (2000, 400, 30)
    args.paragraphs = 512 if not args.quick else 128
    args.scale, args.dim, args.scale_queries = (1_000_000, 64, 300) if not args.quick else (100_000, 64, 100)
    rng = np.random.default_rng(0)
    print(f"bench_retrieval {'(quick)' if args.quick else ''}: {os.cpu_count()} CPUs")
    batch_retrieval(args, rng)
    embedding_throughput(args, rng)
    if not args.skip_scale:
        scale_run(args, rng)


if __name__ == "__main__":
    main()
