"""Sample the questions that rest on a value of the seed document, for reading against the PDF page.

    python bench/sample_document_questions.py --home DIR [--per-project N] [--project ID ...] [--statements] [--total N] [--seed S] > dossier.md

A question rests on the document when its fact key traces to a plan item built from the seed (a
table row, a prose claim, a statement), as `mmeb questions --share` counts it. Workspace questions (budgets,
owners, deadlines) are left out: random samples of all questions hide how the document's own
values are named. For each sampled question the dossier prints the question, the gold, the facts
it rests on (measure, subject, unit, page, where printed) and the text of its evidence records.
"""
from __future__ import annotations

import argparse
import json
import random
from functools import lru_cache
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
    """Answerable questions that rest on the seed document, traced through their fact keys to the plan
    (`mmeb_assets/qa/grounding.py`), with the facts whose values they use (none for a statement)."""
    from mmeb_assets.qa.grounding import PlanTrace
    from mmeb_assets.qa.quality_report import load_project

    index, _items = load_project(project)
    trace = PlanTrace(index.plan)
    by_value: dict[str, list[dict]] = {}
    for fact in _facts(project):
        by_value.setdefault(fact["value"].strip(), []).append(fact)
    out = []
    for q in _questions(project):
        derivation = q.get("derivation") or {}
        if q.get("answer_status") != "answerable" or trace.basis(derivation.get("fact_key", "")) != "document":
            continue
        values = [*derivation.get("operands", []), (q.get("gold") or {}).get("value") or ""]
        out.append((q, [f for v in values if v for f in by_value.get(v.strip(), [])]))
    return out


@lru_cache(maxsize=None)
def _stage_files(project: Path) -> tuple[dict, dict]:
    """(event plan, source facts) of a project, read once."""
    plan = json.loads((project / "event_plan.json").read_text(encoding="utf-8"))
    facts = json.loads((project / "source_facts.json").read_text(encoding="utf-8"))
    return plan.get("data", plan), facts.get("data", facts)


def _sources(project: Path, fact_key: str) -> list[str]:
    """Where in the seed the items of a fact key come from: table (with its page) or statement."""
    import re

    plan, facts = _stage_files(project)
    tables = {t["id"]: t for t in facts.get("tables", [])}
    items = {i["id"]: i for i in plan.get("items", [])}
    out = []
    for token in dict.fromkeys(re.findall(r"[A-Za-z][\w-]*", fact_key or "")):
        item = items.get(token)
        if item is None:
            continue
        table, row = item.get("table_id", ""), item.get("row_index")
        if table in tables:
            out.append(f"{token} {item['label']!r}: {table} ({tables[table]['caption'][:80]!r}) row {row}, page {tables[table]['page']}")
        elif table == "statement" and row is not None and row < len(facts.get("statements", [])):
            st = facts["statements"][row]
            out.append(f"{token} {item['label']!r}: statement on page {st['page']}: {st['sentence'][:200]!r}")
        else:
            out.append(f"{token} {item['label']!r}: {table or 'prose claim'} {row}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--home", required=True, type=Path)
    parser.add_argument("--per-project", type=int, default=0)
    parser.add_argument("--total", type=int, default=30)
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--project", action="append", default=[], help="only these projects (repeatable)")
    parser.add_argument("--statements", action="store_true",
                        help="only questions resting on a statement of the document (a definition, a component list, "
                             "an abbreviation, a stated figure), not on a table")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    projects = sorted(p for p in (args.home / "projects").iterdir() if (p / "questions.jsonl").is_file()
                      and (not args.project or p.name in args.project))
    pool: list[tuple[Path, dict, list[dict]]] = []
    for project in projects:
        found = document_questions(project)
        if args.statements:
            found = [(q, hits) for q, hits in found
                     if any(": statement on page" in line
                            for line in _sources(project, (q.get("derivation") or {}).get("fact_key", "")))]
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
        for line in _sources(project, (q.get("derivation") or {}).get("fact_key", "")):
            print(f"- source: {line}")
        for rid in q.get("evidence", [])[:3]:
            print(f"- evidence {rid}: {str(records.get(rid, '(record text not found)'))[:600]!r}")


if __name__ == "__main__":
    main()
