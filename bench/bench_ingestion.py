"""Ingestion time per seed, against a baseline measured in the same run (PyMuPDF reading every page's text).

Usage: .venv/bin/python bench/bench_ingestion.py [--repeat 2]
Prints seconds per seed (median of repeats) and the ratio to the baseline.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pymupdf

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mmeb_assets.seedgen.demo_seeds import demo_seed_ids, write_demo_seed  # noqa: E402
from mmeb_assets.ingestion.document import ingest_pdf  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "seeds"


def _median_seconds(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def _read_text(pdf: Path) -> None:
    with pymupdf.open(pdf) as doc:
        for page in doc:
            page.get_text("blocks")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        seeds = [(s, write_demo_seed(s, root / f"{s}.pdf")) for s in demo_seed_ids()]
        seeds += [(p.stem, p) for p in sorted(SHARED.glob("*.pdf"))]
        ingest_pdf(seeds[0][1], root / "warm", "warm")  # imports (camelot, cv2) out of the timings
        print(f"{'seed':<22}{'pages':>6}{'tables':>7}{'figures':>8}{'ingest s':>10}{'text s':>9}{'ratio':>8}")
        for seed, pdf in seeds:
            doc = ingest_pdf(pdf, root / seed, seed)
            ingest = _median_seconds(lambda: ingest_pdf(pdf, root / seed, seed), args.repeat)
            base = _median_seconds(lambda: _read_text(pdf), args.repeat)
            print(f"{seed:<22}{doc.n_pages:>6}{len(doc.tables):>7}{len(doc.figures):>8}{ingest:>10.2f}{base:>9.3f}"
                  f"{ingest / base:>8.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
