"""Lineage of one record: where it came from, its versions, who cites it, who retrieved it.

Reads the files the stages wrote under the data home, so it works on any materialized instance
without loading the Definitions.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from mmeb_assets.schema import EventPlan, QAItem, Record, SourceFacts


@dataclass
class RecordLineage:
    record: Record
    events: list[dict] = field(default_factory=list)
    source_facts: list[str] = field(default_factory=list)
    versions: list[str] = field(default_factory=list)
    cited_by: list[str] = field(default_factory=list)
    retrieved_by: list[str] = field(default_factory=list)

    def markdown(self) -> str:
        r = self.record
        lines = [f"### Record `{r.id}`", f"{r.source} · {r.modality} · {r.timestamp} · {r.author or '-'} · {r.channel or r.title}",
                 "", "**Events it realizes**"]
        lines += [f"- `{e['id']}` {e['kind']} by {e['actor']} at {e['time']}: {e['summary']}" for e in self.events] or ["- none"]
        lines += ["", "**Source facts behind them**"] + ([f"- {s}" for s in self.source_facts] or ["- none"])
        lines += ["", "**Versions (oldest first)**", " -> ".join(f"`{v}`" for v in self.versions)]
        lines += ["", f"**Cited as evidence by {len(self.cited_by)} question(s)**"] + [f"- `{q}`" for q in self.cited_by]
        lines += ["", f"**Retrieved in {len(self.retrieved_by)} answer(s)**"] + [f"- {a}" for a in self.retrieved_by[:50]]
        return "\n".join(lines)


def _envelope(path: Path):
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8"))["data"]


def _read_records(project_dir: Path) -> list[Record]:
    path = project_dir / "records.jsonl"
    if not path.exists():
        return []
    return [Record.model_validate_json(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def find_record(home: Path, record_id: str) -> tuple[Path, list[Record]]:
    for project_dir in sorted((home / "projects").glob("*")):
        records = _read_records(project_dir)
        if any(r.id == record_id for r in records):
            return project_dir, records
    raise KeyError(f"record {record_id!r} not found in any {home}/projects/*/records.jsonl")


def _version_chain(record: Record, records: list[Record]) -> list[str]:
    by_id = {r.id: r for r in records}
    newer_of = {r.supersedes: r.id for r in records if r.supersedes}
    chain, current = [record.id], record
    while current.supersedes and current.supersedes in by_id:
        current = by_id[current.supersedes]
        chain.insert(0, current.id)
    tail = record.id
    while tail in newer_of:
        tail = newer_of[tail]
        chain.append(tail)
    return chain


def _source_facts_for(events: list[dict], plan: EventPlan | None, facts: SourceFacts | None,
                      doc_id: str = "") -> list[str]:
    """Plan items, invented facts and seed figures behind the events, following documents to their items."""
    if plan is None:
        return []
    refs = {ref for e in events for ref in e.get("refs", [])} | ({doc_id} if doc_id else set())
    for doc in plan.documents:
        if doc.id in refs:
            refs |= set(doc.item_ids) | set(doc.figure_ids) | set(getattr(doc, "invented_ids", []) or [])
    found = []
    for item in plan.items:
        if item.id in refs or any(ref.startswith(item.id + ":") for ref in refs):
            where = f"{item.table_id} row {item.row_index}" if item.table_id else "source text"
            found.append(f"{item.id} ({item.kind}, '{item.label}') from {where}: {item.values}")
    for inv in plan.invented:
        if inv.id in refs:
            found.append(f"{inv.id}: invented world-only fact {inv.name} = {inv.value} {inv.unit}")
    if facts is not None:
        for fig in facts.figures:
            if fig.id in refs:
                found.append(f"{fig.id}: seed figure '{fig.caption[:80]}'")
    return found


def _answers_by_record(home: Path) -> dict[str, list[str]]:
    """Record id -> 'model/kK: question id' for every stored answer that had the record in context."""
    hits: dict[str, list[str]] = {}
    for path in sorted((home / "evaluation").rglob("answers.json")):
        data = _envelope(path)
        cell = path.parent.relative_to(home / "evaluation").as_posix()
        for answer in (data.get("answers", []) if isinstance(data, dict) else []):
            for record_id in answer.get("record_ids", []):
                hits.setdefault(record_id, []).append(f"{cell}: {answer.get('question_id')}")
    return hits


def _citations(project_dir: Path) -> dict[str, list[str]]:
    """Record id -> ids of the project's questions that cite it (evidence or solution steps)."""
    cited: dict[str, list[str]] = {}
    questions = project_dir / "questions.jsonl"
    if not questions.exists():
        return cited
    for line in questions.read_text(encoding="utf-8").splitlines():
        if line.strip():
            item = QAItem.model_validate_json(line)
            ids = set(item.evidence) | {rid for step in item.solution for rid in step.record_ids}
            for record_id in sorted(ids):
                cited.setdefault(record_id, []).append(item.id)
    return cited


def _project_lineages(project_dir: Path, records: list[Record], answers: dict[str, list[str]],
                      only: str | None = None) -> list[RecordLineage]:
    plan_data = _envelope(project_dir / "event_plan.json")
    plan = EventPlan.model_validate(plan_data) if plan_data else None
    facts_data = _envelope(project_dir / "source_facts.json")
    facts = SourceFacts.model_validate(facts_data) if facts_data else None
    events_by_id = {e.id: e.model_dump(mode="json") for e in (plan.events if plan else [])}
    cited = _citations(project_dir)
    out = []
    for record in records:
        if only is not None and record.id != only:
            continue
        events = [events_by_id[e] for e in record.event_ids if e in events_by_id]
        out.append(RecordLineage(record=record, events=events, source_facts=_source_facts_for(events, plan, facts, record.doc_id),
                                 versions=_version_chain(record, records), cited_by=cited.get(record.id, []),
                                 retrieved_by=answers.get(record.id, [])))
    return out


def record_lineage(home: Path, record_id: str) -> RecordLineage:
    project_dir, records = find_record(home, record_id)
    return _project_lineages(project_dir, records, _answers_by_record(home), only=record_id)[0]


def all_lineages(home: Path) -> list[RecordLineage]:
    """Every record of every project, read in one pass per project."""
    answers = _answers_by_record(home)
    out: list[RecordLineage] = []
    for project_dir in sorted((home / "projects").glob("*")):
        records = _read_records(project_dir)
        if records:
            out.extend(_project_lineages(project_dir, records, answers))
    return out
