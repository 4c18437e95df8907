"""The offline build at scale: the `scale` manifest (30 generated projects) or `--seeds N` of it,
built with parallel workers, against a sequential build of a sample measured in the same run.

Usage: .venv/bin/python bench/bench_build.py [--seeds N] [--sample 2] [--workers W] [--manifest scale]
                                             [--models reader-latest-mention,reader-first-mention,reader-oracle]
                                             [--qa-only-rebuild]

Prints seconds per project, records/s, questions/s, peak RSS, failed checks, where the time goes per
asset (from the instance's run step records), and the ratio of the parallel per-project rate to the
sequential one (1 worker, the same per-seed assets, a sample of the same seeds, its own data home:
no cache is shared). Each build is `mmeb build` in a subprocess, on a fresh data home under --out.
After the build, a bare encode of the same record texts (bench/encode_baseline.py: the same model,
threads and mini-batch) gives the encoder's own rate, and the build's embedding rate is printed as a
ratio of it. `--qa-only-rebuild` then forces the QA assets and everything downstream of them on the
same home (records unchanged) and times that rebuild, with the embeddings it had to compute.
The load average is sampled during every build and printed beside its time.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

warnings.filterwarnings("ignore", module="dagster")
READERS = "reader-latest-mention,reader-first-mention,reader-oracle"
PER_SEED_MARK = "seed_document"  # the first asset of the per-seed phase


def _sub_manifest(name: str, count: int | None, folder: Path, tag: str) -> tuple[Path, list[str]]:
    """The first-phase seeds, spread evenly over the manifest (every domain, both archetypes)."""
    import yaml

    from mmeb_assets.manifests import resolve_manifest_path

    source = resolve_manifest_path(name)
    raw = yaml.safe_load(source.read_text(encoding="utf-8"))
    seeds = raw["seeds"]
    if count and count < len(seeds):
        step = len(seeds) / count
        seeds = [seeds[int(i * step)] for i in range(count)]
    seeds = [dict(s, path=str((source.parent / s["path"]).resolve())) for s in seeds]
    path = folder / f"{tag}.yaml"
    roots = [str((source.parent / r).resolve()) for r in raw.get("allowed_roots") or []] + [str(source.parent)]
    path.write_text(yaml.safe_dump({"name": f"{raw.get('name', 'bench')}-{tag}", "allowed_roots": roots, "seeds": seeds},
                                   sort_keys=False))
    return path, [s["id"] for s in seeds]


class LoadSampler:
    """The 1-minute load average every few seconds while a build runs (other work on the machine
    inflates every timing: the figures are read beside it)."""

    def __init__(self, every: float = 5.0):
        self.every, self.samples, self._stop = every, [], threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self.samples.append(os.getloadavg()[0])

    def __enter__(self):
        self.samples.append(os.getloadavg()[0])
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def summary(self) -> str:
        return f"load average (1 min) during the build: mean {statistics.mean(self.samples):.2f}, max {max(self.samples):.2f}"


def _build(manifest: Path, home: Path, workers: int, models: str, extra: list[str],
           backend: str = "torch", fresh: bool = True) -> tuple[float, str]:
    if fresh:
        if home.exists():
            shutil.rmtree(home)
        home.mkdir(parents=True)
    env = {**os.environ, "MMEB_HOME": str(home), "DAGSTER_HOME": str(home / "dagster"), "MMEB_EVAL_MODELS": models,
           "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false",
           "MMEB_EMBED_BACKEND": backend}
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "mmeb_assets.cli", "build", "--manifest", str(manifest),
                           "--workers", str(workers), "--keep-going", "--force", *extra],
                          cwd=REPO, env=env, capture_output=True, text=True)
    seconds = time.monotonic() - started
    if proc.returncode != 0:
        print(proc.stdout[-4000:], proc.stderr[-4000:], sep="\n")
        raise SystemExit(f"build failed (exit {proc.returncode}): {manifest}")
    return seconds, proc.stdout


def _instance(home: Path):
    from dagster import DagsterInstance
    from dagster._core.instance.ref import InstanceRef

    return DagsterInstance.from_ref(InstanceRef.from_dir(str(home / "dagster")))


def _run_stats(home: Path, since: float = 0.0) -> dict:
    """Per-seed phase wall time, step seconds per asset, failed checks, from the instance (runs that
    started at or after `since`)."""
    from dagster import DagsterEventType

    instance = _instance(home)
    records = [r for r in instance.get_run_records() if (r.start_time or 0.0) >= since]
    seed_runs = [r for r in records if PER_SEED_MARK in (r.dagster_run.asset_selection and
                                                          {k.path[-1] for k in r.dagster_run.asset_selection} or set())]
    per_asset: dict[str, list[float]] = defaultdict(list)
    failed_checks, index_cpu = [], []
    for record in records:
        for step in instance.get_run_step_stats(record.dagster_run.run_id):
            if step.start_time and step.end_time:
                per_asset[step.step_key].append(step.end_time - step.start_time)
        for entry in instance.all_logs(record.dagster_run.run_id, of_type=DagsterEventType.ASSET_CHECK_EVALUATION):
            evaluation = entry.dagster_event.event_specific_data
            if not evaluation.passed:
                failed_checks.append(f"{record.dagster_run.tags.get('dagster/partition', '-')}: {evaluation.check_name}")
        for entry in instance.all_logs(record.dagster_run.run_id, of_type=DagsterEventType.ASSET_MATERIALIZATION):
            materialization = entry.dagster_event.event_specific_data.materialization
            if materialization.asset_key.path[-1] == "lance_index" and "cpu_s" in materialization.metadata:
                index_cpu.append(float(materialization.metadata["cpu_s"].value))
    starts = [r.start_time for r in seed_runs if r.start_time]
    ends = [r.end_time for r in seed_runs if r.end_time]
    return {"seed_phase_s": (max(ends) - min(starts)) if starts and ends else float("nan"),
            "seed_runs": len(seed_runs), "per_asset": per_asset, "failed_checks": failed_checks,
            "runs": len(records), "index_cpu_s": sum(index_cpu)}


def _counts(home: Path) -> tuple[int, int]:
    records = sum(sum(1 for _ in p.open(encoding="utf-8")) for p in (home / "projects").glob("*/records.jsonl"))
    questions_path = home / "benchmark" / "questions.jsonl"
    questions = sum(1 for _ in questions_path.open(encoding="utf-8")) if questions_path.exists() else 0
    return records, questions


def _peak_rss(stdout: str) -> str:
    match = re.search(r"peak RSS (\d+) MiB", stdout)
    return f"{match.group(1)} MiB" if match else "?"


def _asset_table(per_asset: dict[str, list[float]], total_s: float, top: int) -> list[str]:
    rows = sorted(per_asset.items(), key=lambda kv: -sum(kv[1]))
    lines = [f"{'step (asset or check)':<44} {'runs':>5} {'total s':>9} {'mean s':>8} {'share':>6}",
             "-" * 76]
    for name, times in rows[:top]:
        lines.append(f"{name:<44} {len(times):>5} {sum(times):>9.1f} {sum(times) / len(times):>8.2f} "
                     f"{100 * sum(times) / max(total_s, 1e-9):>5.1f}%")
    rest = rows[top:]
    if rest:
        rest_s = sum(sum(t) for _, t in rest)
        lines.append(f"{'(' + str(len(rest)) + ' other steps)':<44} {'':>5} {rest_s:>9.1f} {'':>8} "
                     f"{100 * rest_s / max(total_s, 1e-9):>5.1f}%")
    return lines


def main() -> int:
    from mmeb_assets.build.runners import default_workers

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--manifest", default="scale")
    parser.add_argument("--seeds", type=int, default=None, help="build N seeds of the manifest (default: all)")
    parser.add_argument("--sample", type=int, default=2, help="seeds of the sequential baseline (0: skip it)")
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--models", default=READERS, help="MMEB_EVAL_MODELS of the full build")
    parser.add_argument("--out", default="", help="folder for the data homes (default: a temp folder)")
    parser.add_argument("--top", type=int, default=15, help="rows of the per-asset table")
    parser.add_argument("--backends", default="torch", help="MiniLM embedding backends to build with, in turn "
                                                             "(torch,onnx): the first is the baseline of the ratios")
    parser.add_argument("--qa-only-rebuild", action="store_true",
                        help="then force the QA assets and everything downstream on the first build's home, timed")
    args = parser.parse_args()

    out = Path(args.out or tempfile.mkdtemp(prefix="mmeb-bench-build-"))
    out.mkdir(parents=True, exist_ok=True)
    manifest, seeds = _sub_manifest(args.manifest, args.seeds, out, "full")
    print(f"bench_build: {len(seeds)} projects of '{args.manifest}', {args.workers} workers, models {args.models}, "
          f"homes under {out}")

    results = {}
    for backend in args.backends.split(","):
        results[backend] = _parallel(manifest, out / f"parallel-{backend}", args, len(seeds), backend)
    first = next(iter(results))
    for backend, (wall, embed_rate, _stats) in results.items():
        print(f"backend {backend:6s} whole build {wall:8.1f} s ({results[first][0] / wall:.2f}x the {first} build's "
              f"speed), embedding {embed_rate:.1f} records/s ({embed_rate / results[first][1]:.2f}x)")
    summary = {b: {"projects": len(seeds), "wall_s": round(w, 1), "embed_records_per_s": round(r, 2)}
               for b, (w, r, _s) in results.items()}
    summary[first].update(_encoder_ratio(out / f"parallel-{first}", args.workers, results[first][1],
                                        results[first][2]))
    if args.qa_only_rebuild:
        summary[first]["qa_only_rebuild_s"] = _qa_only_rebuild(manifest, out / f"parallel-{first}", args, first)
    if args.sample:
        _sequential(args, out, seeds, results[first][2])
    print(json.dumps(summary))
    return 0


def _encoder_ratio(home: Path, workers: int, build_rate: float, stats: dict) -> dict:
    """The bare encode of the build's record texts (its own process, a build worker's threads) and
    the build's embedding rate as a share of it: by wall time (the goal, on an idle machine) and by
    CPU time (`lance_index`'s own, from its metadata), which other load on the machine leaves alone."""
    from mmeb_assets.build.runners import default_workers

    threads = max(1, default_workers() // workers)
    env = {**os.environ, "OMP_NUM_THREADS": str(threads), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "TOKENIZERS_PARALLELISM": "false"}
    proc = subprocess.run([sys.executable, str(REPO / "bench" / "encode_baseline.py"), "--home", str(home),
                           "--threads", str(threads), "--batch", "16"], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        print(proc.stderr[-2000:])
        raise SystemExit("bare encode failed")
    bare = json.loads(proc.stdout.strip().splitlines()[-1])
    ratio = build_rate / bare["records_per_s"]
    print(f"\nbare encode (command: python bench/encode_baseline.py --home {home} --threads {threads} --batch 16): "
          f"{bare['records']} record texts in {bare['seconds']:.1f} s, {bare['records_per_s']:.1f} records/s "
          f"(all-MiniLM-L6-v2, max length {bare['max_seq_length']}, {threads} torch thread(s), load average "
          f"{bare['load_average'][0]:.2f})")
    print(f"build's embedding rate / bare encode, wall time: {build_rate:.1f} / {bare['records_per_s']:.1f} = "
          f"{ratio:.2f} (target >= 0.8)")
    cpu_ratio = float("nan")
    if stats.get("index_cpu_s"):
        cpu_rate = bare["records"] / stats["index_cpu_s"]
        cpu_ratio = cpu_rate / bare["records_per_cpu_s"]
        print(f"  the same by CPU seconds: {cpu_rate:.1f} / {bare['records_per_cpu_s']:.1f} = {cpu_ratio:.2f} "
              f"(lance_index {stats['index_cpu_s']:.0f} CPU s, bare encode {bare['cpu_seconds']:.0f} CPU s)")
    return {"bare_encode_records_per_s": bare["records_per_s"], "embed_ratio_to_bare": round(ratio, 2),
            "embed_cpu_ratio_to_bare": round(cpu_ratio, 2)}


def _sequential(args, out: Path, seeds: list[str], stats: dict) -> None:
    """The per-seed assets of a sample of the seeds, one worker: the per-project rate to beat."""
    import yaml

    sample = seeds[:args.sample]
    sample_manifest, _ = _sub_manifest(args.manifest, None, out, "sample")
    raw = yaml.safe_load(sample_manifest.read_text())
    raw["seeds"] = [s for s in raw["seeds"] if s["id"] in sample]
    sample_manifest.write_text(yaml.safe_dump(raw, sort_keys=False))
    select = [arg for name in sorted(_per_seed_asset_names()) for arg in ("--select", name)]
    _build(sample_manifest, out / "sequential", 1, args.models, select)
    seq = _run_stats(out / "sequential")
    seq_rate = len(sample) / seq["seed_phase_s"]
    par_rate = len(seeds) / stats["seed_phase_s"]
    print(f"\nsequential sample (command: mmeb build --manifest {sample_manifest} --workers 1 --force "
          f"--select <the per-seed assets>): {len(sample)} projects, per-seed phase {seq['seed_phase_s']:.1f} s "
          f"({seq['seed_phase_s'] / len(sample):.1f} s per project)")
    print(f"parallel / sequential per-project rate: {par_rate / seq_rate:.2f}x "
          f"({par_rate * 60:.2f} vs {seq_rate * 60:.2f} projects/min; goal >= 1.7x on 2 cores)")


def _qa_downstream() -> list[str]:
    """The QA assets and every asset downstream of them (what a change in QA generation makes stale)."""
    from mmeb_assets.build.phases import load_definitions

    graph = load_definitions().resolve_asset_graph()
    todo = [k for k in graph.materializable_asset_keys if graph.get(k).group_name == "qa"]
    seen = set()
    while todo:
        key = todo.pop()
        if key in seen or key not in graph.materializable_asset_keys:
            continue
        seen.add(key)
        todo.extend(graph.get(key).child_keys)
    return sorted(k.path[-1] for k in seen)


def _embedding_rows(home: Path) -> int:
    import sqlite3

    path = home / "cache" / "embeddings.sqlite"
    if not path.exists():
        return 0
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0])


def _qa_only_rebuild(manifest: Path, home: Path, args, backend: str) -> float:
    """Force the QA assets and their downstream on the built home: records (and so the index) are
    unchanged, so no record is embedded again; returns the wall seconds."""
    names = _qa_downstream()
    select = [arg for name in names for arg in ("--select", name)]
    vectors_before, since = _embedding_rows(home), time.time()
    with LoadSampler() as load:
        wall, _stdout = _build(manifest, home, args.workers, args.models, select, backend, fresh=False)
    stats = _run_stats(home, since=since)
    added = _embedding_rows(home) - vectors_before
    total_steps = sum(sum(t) for t in stats["per_asset"].values())
    print(f"\nQA-only rebuild (command: mmeb build --manifest {manifest} --workers {args.workers} --force "
          f"{' '.join(f'--select {n}' for n in names)}):")
    print(f"  whole rebuild     {wall:8.1f} s   (goal for 30 projects: <= 60 s); {load.summary()}")
    print(f"  runs              {stats['runs']:8d}     lance_index steps: {len(stats['per_asset'].get('lance_index', []))}"
          f"; vectors added to the embedding cache: {added}")
    print("\n".join(_asset_table(stats["per_asset"], total_steps, args.top)))
    return round(wall, 1)


def _parallel(manifest: Path, home: Path, args, n: int, backend: str) -> tuple[float, float, dict]:
    """One parallel build with `backend`: (wall seconds, embedding records/s, run stats), printed."""
    with LoadSampler() as load:
        wall, stdout = _build(manifest, home, args.workers, args.models, [], backend)
    stats = _run_stats(home)
    records, questions = _counts(home)
    embed_s = sum(stats["per_asset"].get("lance_index", [])) or float("nan")
    print(f"\nparallel build, MMEB_EMBED_BACKEND={backend} (command: mmeb build --manifest {manifest} --workers "
          f"{args.workers} --force, MMEB_EVAL_MODELS={args.models}):")
    print(f"  whole build       {wall:8.1f} s   ({wall / 60:.1f} min; goal for 30 projects: <= 3 min)")
    print(f"  {load.summary()}")
    print(f"  per project       {wall / n:8.1f} s   (whole build / {n})")
    print(f"  per-seed phase    {stats['seed_phase_s']:8.1f} s   ({stats['seed_phase_s'] / n:.1f} s per project)")
    print(f"  records           {records:8d}     {records / wall:.1f} records/s; embedding (lance_index steps, "
          f"{embed_s:.0f} s) {records / embed_s:.1f} records/s")
    print(f"  questions         {questions:8d}     {questions / wall:.2f} questions/s")
    print(f"  peak RSS          {_peak_rss(stdout):>10}   (largest process: the build or one worker)")
    print(f"  runs              {stats['runs']:8d}     failed checks: {len(stats['failed_checks'])} "
          f"{stats['failed_checks'][:5] if stats['failed_checks'] else ''}")
    failed = [line for line in stdout.splitlines() if "FAILED" in line]
    print(f"  failed runs       {len(failed):8d}     " + ("; ".join(failed[:3]) if failed else ""))
    total_steps = sum(sum(t) for t in stats["per_asset"].values())
    print(f"  where the time goes (sum of step seconds over all runs: {total_steps:.0f} s; with {args.workers} "
          "workers steps overlap):")
    print("\n".join(_asset_table(stats["per_asset"], total_steps, args.top)))
    return wall, records / embed_s, stats


def _per_seed_asset_names() -> set[str]:
    from mmeb_assets.build.phases import is_seed_partitioning, load_definitions

    graph = load_definitions().resolve_asset_graph()
    return {k.path[-1] for k in graph.materializable_asset_keys if is_seed_partitioning(graph.get(k).partitions_def)}


if __name__ == "__main__":
    sys.exit(main())
