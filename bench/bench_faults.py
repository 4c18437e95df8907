"""Benchmark: the fault table. Every fault of the local test server's schedule on every LLM stage
(source facts, simulation, records, QA generation and validation, answering, judging), transient
(first request only) and persistent (every request), through the production client over real HTTP.

Per fault: cells tried, cells survived (completed, every item present, failure recorded with its
reason when it could not be absorbed, ledger = requests the server saw, nothing invalid cached),
items lost (must be 0), extra requests spent over clean runs of the same stages, and items that
ended up from the rules twin / recorded as failed.

    .venv/bin/python bench/bench_faults.py [--stage NAME ...] [--fault NAME ...]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
os.environ.setdefault("MMEB_HOME", tempfile.mkdtemp(prefix="bench-faults-"))

from llm_fault_matrix import ALL_FAULTS, CLIENT, HANG_TIMEOUT_S, STAGES, clean_requests, run_cell  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--stage", action="append", choices=list(STAGES))
    parser.add_argument("--fault", action="append", choices=list(ALL_FAULTS))
    args = parser.parse_args()
    stages, faults = args.stage or list(STAGES), args.fault or list(ALL_FAULTS)
    started = time.perf_counter()
    baseline = {s: clean_requests(s) for s in stages}
    rows, broken = [], []
    for fault in faults:
        cells = [run_cell(s, fault, m) for s in stages for m in ("transient", "persistent")]
        broken += [c for c in cells if c.problems]
        rows.append((fault, len(cells), sum(c.survived for c in cells), sum(c.lost for c in cells),
                     sum(c.extra_requests for c in cells if c.mode == "transient"),
                     sum(c.extra_requests for c in cells if c.mode == "persistent"),
                     sum(c.fallbacks for c in cells if c.mode == "persistent")))
    print(f"Fault table: {len(stages)} LLM stages x {len(faults)} faults x (transient, persistent); clean runs "
          f"send {sum(baseline.values())} requests ({', '.join(f'{s} {n}' for s, n in baseline.items())}); client "
          f"read timeout {CLIENT['timeout_s']} s ({HANG_TIMEOUT_S} s in the hang cells, a 3 s hang), "
          f"{CLIENT['max_retries']} retry, {CLIENT['max_json_tries']} JSON tries")
    print()
    print("| fault | tried | survived | items lost | extra requests (transient) | extra requests (persistent) "
          "| items recorded failed / rules twin (persistent) |")
    print("|---|---|---|---|---|---|---|")
    for fault, tried, survived, lost, extra_t, extra_p, fell in rows:
        print(f"| {fault} | {tried} | {survived} | {lost} | {extra_t:+d} | {extra_p:+d} | {fell} |")
    total = [sum(r[i] for r in rows) for i in range(1, 7)]
    print(f"| **all** | {total[0]} | {total[1]} | {total[2]} | {total[3]:+d} | {total[4]:+d} | {total[5]} |")
    print(f"\n{time.perf_counter() - started:.0f} s")
    for cell in broken:
        print(f"BROKEN {cell.stage} / {cell.fault} / {cell.mode}: {cell.problems}")
    return 1 if broken or total[2] else 0


if __name__ == "__main__":
    sys.exit(main())
