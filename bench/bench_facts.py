"""Precision and recall of fact extraction against the hand-labelled facts (`bench/data/facts_labelled/`).

    python bench/bench_facts.py [--seeds DIR] [--cache DIR] [--extractor rules|quantulum3]

Runs the production path (ingest_pdf, then mmeb_assets.facts.extract_facts) on each labelled seed PDF
and compares, on the labelled pages only (`scope_pages`, labelled exhaustively):

- a match is an extracted fact and a labelled fact on the same page with the same value (as numbers:
  '1,512' = '1512', '80.0' = '80') whose measure and subject are consistent: the labelled measure and
  subject share at least one content word with the extracted measure and subject (lower case, plural
  's' dropped, function and generic words such as 'percent', 'number', 'value' left out). Each fact
  matches at most once.
- precision = matched extracted facts / extracted facts on the scope pages (those that hit an `ignore`
  entry are left out); recall = matched labelled facts / labelled facts.
- leaked share per class = labelled non-facts of that class whose page and value an extracted fact has
  / labelled non-facts of that class.
"""
from __future__ import annotations

import argparse
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

LABELS = ROOT / "bench" / "data" / "facts_labelled"
SEEDS = ROOT.parent / "shared" / "seeds"
GENERIC = {"percent", "percentage", "share", "number", "value", "values", "count", "total", "the", "and", "for",
           "with", "from", "that", "this", "score", "scores", "rate", "amount", "result", "results"}


@dataclass
class Labelled:
    seed: str
    kind: str
    scope: set[int]
    facts: list[dict]
    non_facts: list[dict]
    ignore: list[dict] = field(default_factory=list)


def load_labels(path: Path) -> Labelled:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    facts = [dict(f) for f in data.get("facts") or []]
    for table in data.get("tables") or []:
        for subject, values in table["rows"].items():
            if len(values) != len(table["columns"]):
                raise ValueError(f"{path.name}: row {subject!r} has {len(values)} values for {len(table['columns'])} columns")
            facts.extend({"page": table["page"], "value": str(v), "unit": "", "measure": col, "subject": subject}
                         for col, v in zip(table["columns"], values))
    return Labelled(data["seed"], data.get("kind", ""), set(data["scope_pages"]), facts,
                    [dict(n) for n in data.get("non_facts") or []], [dict(i) for i in data.get("ignore") or []])


def number(value: str) -> float | None:
    cleaned = re.sub(r"[,$£€%\s]", "", str(value)).replace("−", "-")
    try:
        return float(cleaned)
    except ValueError:
        return None


def same_value(a: str, b: str) -> bool:
    x, y = number(a), number(b)
    return (x is not None and y is not None and abs(x - y) < 1e-9) or str(a).strip() == str(b).strip()


def content_words(*texts: str) -> set[str]:
    words = set()
    for text in texts:
        for word in re.findall(r"[A-Za-z][A-Za-z\-@.]*", text or ""):
            word = word.lower().strip(".-")
            if len(word) >= 2 and word not in GENERIC:
                words.add(word[:-1] if word.endswith("s") and len(word) > 3 else word)
    return words


def overlap(label: dict, fact) -> int:
    """Content words the labelled measure and subject share with the extracted ones (0: inconsistent)."""
    return len(content_words(label["measure"], label.get("subject", "")) & content_words(fact.measure, fact.subject))


@dataclass
class SeedScore:
    seed: str
    kind: str
    extracted: int
    matched_extracted: int
    labelled: int
    matched_labelled: int
    leaked: dict[str, tuple[int, int]]
    seconds: float
    false_positives: list = field(default_factory=list)
    misses: list = field(default_factory=list)
    pairs: list = field(default_factory=list)


def score_seed(labels: Labelled, facts) -> SeedScore:
    in_scope = [f for f in facts if f.page in labels.scope
                and not any(i["page"] == f.page and same_value(i["value"], f.value) for i in labels.ignore)]
    pairs = sorted(((overlap(lab, fact), i, j) for j, fact in enumerate(in_scope) for i, lab in enumerate(labels.facts)
                    if lab["page"] == fact.page and same_value(lab["value"], fact.value) and overlap(lab, fact)),
                   key=lambda t: (-t[0], t[1], t[2]))
    used: set[int] = set()
    taken: set[int] = set()
    assigned = []
    for _score, i, j in pairs:  # the most consistent pairs first; each fact matches at most once
        if i not in used and j not in taken:
            used.add(i)
            taken.add(j)
            assigned.append((labels.facts[i], in_scope[j]))
    matched_extracted = len(taken)
    false_positives = [f for j, f in enumerate(in_scope) if j not in taken]
    leaked: dict[str, tuple[int, int]] = {}
    for non in labels.non_facts:
        hit = any(f.page == non["page"] and same_value(non["value"], f.value) for f in facts)
        n_hit, n_all = leaked.get(non["class"], (0, 0))
        leaked[non["class"]] = (n_hit + int(hit), n_all + 1)
    misses = [lab for i, lab in enumerate(labels.facts) if i not in used]
    return SeedScore(labels.seed, labels.kind, len(in_scope), matched_extracted, len(labels.facts), len(used),
                     leaked, 0.0, false_positives, misses, assigned)


def extract(seed: str, pdf: Path, cache: Path, extractor: str):
    from mmeb_assets.facts.extract import extract_facts
    from mmeb_assets.ingestion.document import ingest_pdf, load_source_document

    out = cache / seed
    try:
        document = load_source_document(out)
    except (FileNotFoundError, ValueError):
        document = ingest_pdf(pdf, out, seed)
    if extractor == "quantulum3":
        from facts_libraries import quantulum_facts
        return quantulum_facts(document)
    return extract_facts(document)[0]


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "n/a"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--seeds", type=Path, default=SEEDS)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/mmeb-bench-facts"),
                        help="ingested documents are kept here (delete it to re-ingest)")
    parser.add_argument("--extractor", default="rules", choices=["rules", "quantulum3"])
    parser.add_argument("--show", type=int, default=0, help="print N false positives and misses per seed")
    parser.add_argument("--libraries", action="store_true",
                        help="also compare units with quantulum3, pint and price-parser (pip install .[bench])")
    args = parser.parse_args()
    if not args.seeds.is_dir():
        print(f"skip: no seed folder at {args.seeds}")
        return 0
    scores = []
    for path in sorted(args.labels.glob("*.yaml")):
        labels = load_labels(path)
        started = time.perf_counter()
        facts = extract(labels.seed, args.seeds / f"{labels.seed}.pdf", args.cache, args.extractor)
        score = score_seed(labels, facts)
        score.seconds = time.perf_counter() - started
        scores.append(score)
        for fact in score.false_positives[:args.show]:
            print(f"  FP {labels.seed} p{fact.page} {fact.value!r} {fact.measure!r} / {fact.subject!r}")
        for lab in score.misses[:args.show]:
            print(f"  MISS {labels.seed} p{lab['page']} {lab['value']!r} {lab['measure']!r} / {lab['subject']!r}")
    print(f"extractor: {args.extractor}")
    print("| seed | kind | labelled facts | extracted (scope) | precision | recall |")
    print("|---|---|---|---|---|---|")
    for s in scores:
        print(f"| {s.seed} | {s.kind} | {s.labelled} | {s.extracted} | {pct(s.matched_extracted, s.extracted)} "
              f"| {pct(s.matched_labelled, s.labelled)} |")
    for name, group in (("reports", [s for s in scores if s.kind == "report"]),
                        ("papers", [s for s in scores if s.kind == "paper"]), ("all", scores)):
        me, ex = sum(s.matched_extracted for s in group), sum(s.extracted for s in group)
        ml, la = sum(s.matched_labelled for s in group), sum(s.labelled for s in group)
        print(f"| **{name}** | | {la} | {ex} | {pct(me, ex)} | {pct(ml, la)} |")
    print("\nleaked non-facts per class (labelled non-facts whose page and value became a fact):")
    classes = sorted({c for s in scores for c in s.leaked})
    for cls in classes:
        hit = sum(s.leaked.get(cls, (0, 0))[0] for s in scores)
        total = sum(s.leaked.get(cls, (0, 0))[1] for s in scores)
        print(f"  {cls}: {hit}/{total} ({pct(hit, total)})")
    hit = sum(v[0] for s in scores for v in s.leaked.values())
    total = sum(v[1] for s in scores for v in s.leaked.values())
    print(f"  all: {hit}/{total} ({pct(hit, total)})")
    if args.libraries:
        from facts_libraries import unit_agreement
        print("\nunit and scale of the matched labelled prose facts, per method (agree/total):")
        for method, (agree, total) in unit_agreement([p for s in scores for p in s.pairs]).items():
            print(f"  {method}: {agree}/{total} ({pct(agree, total)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
