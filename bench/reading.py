"""The blind reading of `../shared/READING.md`: draw the questions, hand readers a dossier, tally verdicts.

    python bench/reading.py sample --home DIR --out FOLDER [--per-project 10] [--seed 51] [--pdfs MANIFEST]
    python bench/reading.py tally FOLDER/verdicts.csv [FOLDER2/verdicts.csv ...]

`sample` draws, with a fixed seed it prints, 10 answerable questions per project at random and,
separately, 10 per project among those that rest on a value or statement of the seed document (SV:
traced through the question's fact key to a plan item built from the seed). It writes
`dossier.md` (per question: question, gold, derivation, solution steps, the full text of every
evidence record, image paths, the facts it rests on with their seed page, the PDF) and
`verdicts.csv`, one row per question, for the reader to fill: class A/B/C/D, flags (SV, F, E), a
note. `tally` prints the verdict table: A/B/C/D overall and among SV questions, per document, and
the commonest notes per class.
"""
from __future__ import annotations

import argparse
import csv
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from sample_document_questions import _questions, _sources, document_questions  # noqa: E402

CLASSES = "ABCD"
FIELDS = ["id", "project", "sample", "sv", "class", "flags", "note"]


def _records(project: Path) -> dict[str, dict]:
    rows = (json.loads(line) for line in (project / "records.jsonl").read_text(encoding="utf-8").splitlines() if line)
    return {r["id"]: r for r in rows}


def draw(home: Path, per_project: int, seed: int) -> list[tuple[Path, dict, str, bool]]:
    """(project, question, sample name, rests on the document) for both samples of every project."""
    rng = random.Random(seed)
    out = []
    for project in sorted(p for p in (home / "projects").iterdir() if (p / "questions.jsonl").is_file()):
        sv_ids = {q["id"] for q, _ in document_questions(project)}
        answerable = [q for q in _questions(project) if q.get("answer_status") == "answerable"]
        randomly = rng.sample(answerable, min(per_project, len(answerable)))
        on_document = [q for q in answerable if q["id"] in sv_ids]
        on_document = rng.sample(on_document, min(per_project, len(on_document)))
        chosen = {q["id"]: (q, "random") for q in randomly}
        for q in on_document:
            chosen[q["id"]] = (q, "both" if q["id"] in chosen else "document")
        out += [(project, q, sample, q["id"] in sv_ids) for q, sample in chosen.values()]
    return out


def _dossier_entry(n: int, project: Path, q: dict, pdf: str) -> list[str]:
    records = _records(project)
    derivation = q.get("derivation") or {}
    lines = [f"\n## {n}. {q['id']} ({q['task']}; project {project.name})", "", f"**Q:** {q['q']}", "",
             f"**Gold:** {q['gold']['answer']}", "",
             f"**Derivation:** {derivation.get('kind', '')} operands={derivation.get('operands', [])} "
             f"result={derivation.get('result', '')!r}", "", "**Solution:**"]
    lines += [f"{k}. {step['step']} (records: {', '.join(step.get('record_ids', []))})"
              for k, step in enumerate(q.get("solution", []), start=1)]
    lines += ["", f"**Seed document:** {pdf}"]
    lines += [f"- rests on {line}" for line in _sources(project, derivation.get("fact_key", ""))]
    for rid in q.get("evidence", []):
        record = records.get(rid, {})
        image = f" image: {project / record['image_path']}" if record.get("image_path") else ""
        lines += ["", f"**Evidence {rid}** ({record.get('source', '?')}){image}", "```", record.get("text", "?"), "```"]
    return lines


def sample(args) -> None:
    pdfs = _pdf_paths(args.pdfs) if args.pdfs else {}
    drawn = draw(args.home, args.per_project, args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    lines = [f"# Reading dossier (seed {args.seed}, {args.per_project} per project per sample)",
             "Class each question A/B/C/D by ../shared/READING.md, checking it against the PDF page."]
    for n, (project, q, _sample, _sv) in enumerate(drawn, start=1):
        lines += _dossier_entry(n, project, q, pdfs.get(project.name, "(see the manifest)"))
    (args.out / "dossier.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with (args.out / "verdicts.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, FIELDS)
        writer.writeheader()
        for project, q, name, sv in drawn:
            writer.writerow({"id": q["id"], "project": project.name, "sample": name, "sv": "SV" if sv else ""})
    print(f"seed {args.seed}: {len(drawn)} questions from {len({p for p, *_ in drawn})} projects "
          f"({sum(sv for *_, sv in drawn)} SV) -> {args.out}/dossier.md, verdicts.csv")


def _pdf_paths(manifest: Path) -> dict[str, str]:
    import yaml

    data = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    return {s["id"]: str((manifest.parent / s["path"]).resolve()) for s in data.get("seeds", [])}


def _row(label: str, classes: Counter) -> str:
    total = sum(classes.values())
    cells = [f"{classes[c]} ({100 * classes[c] / total:.0f}%)" if total else "0" for c in CLASSES]
    return f"| {label} | {total} | " + " | ".join(cells) + " |"


def tally(args) -> None:
    rows = [r for path in args.verdicts for r in csv.DictReader(path.open(encoding="utf-8"))]
    judged = [r for r in rows if r.get("class", "").strip().upper() in CLASSES]
    for r in judged:
        r["class"] = r["class"].strip().upper()
    print(f"{len(judged)} of {len(rows)} questions classed\n")
    print("| questions | n | A | B | C | D |\n|---|---:|---:|---:|---:|---:|")
    print(_row("all", Counter(r["class"] for r in judged)))
    print(_row("**resting on the document (SV)**", Counter(r["class"] for r in judged if r["sv"] == "SV")))
    by_project: dict[str, Counter] = defaultdict(Counter)
    for r in judged:
        by_project[r["project"]][r["class"]] += 1
    for project, classes in sorted(by_project.items()):
        print(_row(project, classes))
    for cls in "BCD":
        notes = Counter(r["note"].split(":")[0].strip() for r in judged if r["class"] == cls and r["note"].strip())
        if notes:
            print(f"\n{cls}: " + "; ".join(f"{kind} ({n})" for kind, n in notes.most_common(3)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("sample")
    s.add_argument("--home", type=Path, required=True)
    s.add_argument("--out", type=Path, required=True)
    s.add_argument("--per-project", type=int, default=10)
    s.add_argument("--seed", type=int, default=51)
    s.add_argument("--pdfs", type=Path, help="the manifest the home was built from (names each seed's PDF)")
    s.set_defaults(func=sample)
    t = sub.add_parser("tally")
    t.add_argument("verdicts", type=Path, nargs="+")
    t.set_defaults(func=tally)
    args = parser.parse_args()
    args.func(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
