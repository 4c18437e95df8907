"""Where a build's CPU goes, per asset and inside `lance_index`, from py-spy's raw (collapsed) stacks.

Usage: py-spy record --pid <worker pid> --format raw --rate 20 -o prof.txt   (one file per worker)
       .venv/bin/python bench/profile_steps.py --rate 20 prof1.txt prof2.txt

A sample belongs to the asset or check whose function is the first project frame below the build
worker (mmeb_assets/<stage>/...); inside `lance_index` it is bucketed by the deepest frame that
names a known part (model load, tokenizer, encoder forward, embedding cache, table write, full-text
index, ...). py-spy samples running threads only, so time spent waiting on a lock is not here.
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import Counter

FRAME = re.compile(r"^(?P<func>.+?) \((?P<file>[^()]*?)(?::(?P<line>\d+))?\)$")
SKIP_DIRS = ("mmeb_assets/build/", "mmeb_assets/operations/resume", "mmeb_assets/versioning")
# (bucket, substring of "function (file)"), deepest match wins; order breaks ties at one depth
LANCE_PARTS = [
    ("model load", "SentenceTransformer.__init__"), ("model load", "__init__ (sentence_transformers/"),
    ("model load", "from_pretrained"), ("model load", "_load (mmeb_resources/embedder"),
    ("tokenize", "tokenize"), ("tokenize", "tokenizers"),
    ("encoder forward", "forward (torch/"), ("encoder forward", "_call_impl"),
    ("encode (other)", "encode (sentence_transformers/"),
    ("embedding cache (sqlite)", "EmbeddingCache"), ("embedding cache (sqlite)", "get_many"),
    ("embedding cache (sqlite)", "put_many"), ("embedding cache (sqlite)", "embedding_cache"),
    ("text prep + hashes", "embed_inputs"), ("text prep + hashes", "content_hash"),
    ("arrow rows", "record_table"),
    ("table write (merge/add)", "replace_project"), ("table write (merge/add)", "merge_insert"),
    ("table write (merge/add)", "write_rows"), ("full-text index", "ensure_fts_index"),
    ("full-text index", "_index_text"), ("full-text index", "create_index"),
    ("row read-back", "project_hashes"), ("row read-back", "open_table"),
]


def parse(line: str) -> tuple[list[str], int] | None:
    stack, _, count = line.rstrip("\n").rpartition(" ")
    if not stack or not count.isdigit():
        return None
    return stack.split(";"), int(count)


def asset_of(frames: list[str]) -> str:
    """The first project frame past the build machinery: the asset, check or IO manager running."""
    for frame in frames:
        m = FRAME.match(frame)
        if not m:
            continue
        path = m.group("file") or ""
        if "mmeb_resources/io_manager" in path:
            return "(io manager: load/store)"
        if ("mmeb_assets/" in path or path.startswith("mmeb_assets")) and not any(d in path for d in SKIP_DIRS):
            return m.group("func")
    return "(dagster / other)"


def lance_part(frames: list[str]) -> str:
    best, depth = "lance_index (other)", -1
    for i, frame in enumerate(frames):
        for bucket, needle in LANCE_PARTS:
            if needle in frame and i > depth:
                best, depth = bucket, i
                break
    return best


def table(counter: Counter, rate: float, title: str) -> list[str]:
    total = sum(counter.values()) or 1
    lines = [f"{title:<40} {'cpu s':>8} {'share':>6}", "-" * 56]
    for name, n in counter.most_common():
        lines.append(f"{name:<40} {n / rate:>8.1f} {100 * n / total:>5.1f}%")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--rate", type=float, default=100.0, help="py-spy --rate of the recordings")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    assets: Counter = Counter()
    lance: Counter = Counter()
    for path in args.files:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                parsed = parse(line)
                if parsed is None:
                    continue
                frames, count = parsed
                asset = asset_of(frames)
                assets[asset] += count
                if asset == "lance_index":
                    lance[lance_part(frames)] += count
    top = Counter(dict(assets.most_common(args.top)))
    print("\n".join(table(top, args.rate, "asset / check (sampled cpu)")))
    print()
    print("\n".join(table(lance, args.rate, "inside lance_index")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
