"""Sample the questions that rest on a value of the seed document, for reading against the PDF page.

    python bench/sample_document_questions.py --home DIR [--per-project N] [--total N] [--seed S] > dossier.md

A question rests on the document when one of its derivation operands (or its gold value) is a
value of a source fact (table cell or prose number) of its project. Workspace questions (budgets,
owners, deadlines) are left out: random samples of all questions hide how the document's own
values are named. For each sampled question the dossier prints the question, the gold, the facts
it rests on (measure, subject, unit, page, where printed) and the text of its evidence records.
"""
from __future__ import annotations

import argparse
import json
import random
from pathlib import Path


def _facts(project: Path) -> list[dict]:
    path = project / "source_facts.json"
    if not path.is_file():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    data = data.get("data", data.get("value", data))
    return data.get("facts", [])


def _questions(project: Path) -> list[dict]:
    path = project / "questions.jsonl"
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _records(project: Path) -> dict[str, str]:
    out = {}
    for path in (project / "records").glob("*.jsonl") if (project / "records").is_dir() else []:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                out[rec.get("id", "")] = rec.get("text") or rec.get("content") or json.dumps(rec)[:800]
    path = project / "records.jsonl"
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                out[rec.get("id", "")] = rec.get("text") or rec.get("content") or json.dumps(rec)[:800]
    return out


def document_questions(project: Path) -> list[tuple[dict, list[dict]]]:
    facts = _facts(project)
    by_value: dict[str, list[dict]] = {}
    for fact in facts:
        by_value.setdefault(fact["value"].strip(), []).append(fact)
    out = []
    for q in _questions(project):
        if q.get("answer_status") != "answerable":
            continue
        derivation = q.get("derivation") or {}
        values = [*derivation.get("operands", []), (q.get("gold") or {}).get("value") or ""]
        hits = [f for v in values if v and len(v.replace(".", "").replace(",", "")) >= 2 for f in by_value.get(v.strip(), [])]
        if hits:
            out.append((q, hits))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--home", required=True, type=Path)
    parser.add_argument("--per-project", type=int, default=0)
    parser.add_argument("--total", type=int, default=30)
    parser.add_argument("--seed", type=int, default=36)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    projects = sorted(p for p in (args.home / "projects").iterdir() if p.is_dir())
    pool: list[tuple[Path, dict, list[dict]]] = []
    for project in projects:
        found = document_questions(project)
        rng.shuffle(found)
        if args.per_project:
            found = found[:args.per_project]
        pool.extend((project, q, hits) for q, hits in found)
        print(f"<!-- {project.name}: {len(document_questions(project))} of {len(_questions(project))} questions rest on the document -->")
    rng.shuffle(pool)
    for n, (project, q, hits) in enumerate(pool[:args.total], start=1):
        records = _records(project)
        print(f"\n## {n}. {project.name} / {q['id']} ({q['task']})\n\n**Q:** {q['q']}\n\n**Gold:** {q['gold']['answer']}")
        for fact in {id(f): f for f in hits}.values():
            print(f"- fact: measure={fact['measure']!r} subject={fact['subject']!r} value={fact['value']!r} "
                  f"unit={fact.get('unit', '')!r} page={fact['page']} source={fact['source'][:160]!r}")
        for rid in q.get("evidence", [])[:3]:
            print(f"- evidence {rid}: {str(records.get(rid, '(record text not found)'))[:600]!r}")


if __name__ == "__main__":
    main()
