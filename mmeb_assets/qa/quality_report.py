"""`mmeb questions --by-seed`: load each project of the data home and print one quality row per seed."""
from __future__ import annotations

import importlib
import json
from pathlib import Path

from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.grounding import ShareRow, share_row
from mmeb_assets.qa.export import read_questions_jsonl
from mmeb_assets.qa.quality import SHORTCUT_K, TARGETS, SeedQuality, seed_quality
from mmeb_assets.qa.stats import StatTable
from mmeb_assets.schema import TASKS, EventPlan, Organization, QAItem, RecordSet

ABBR = {"extraction": "EXT", "attribution": "ATT", "computation": "CMP", "comparison": "CPR",
        "interpretation": "INT", "cross_source_conflict": "XSC", "temporal_conflict": "TMP", "unanswerable": "UNS"}
NEEDED = ("event_plan.json", "organization.json", "records.json", "questions.jsonl")


def _load_model(path: Path, expected: type):
    """A stage file written by the IO manager ({"model": class path, "data": ...})."""
    try:
        envelope = json.loads(path.read_text(encoding="utf-8"))
        module, _, name = envelope["model"].rpartition(".")
        cls = getattr(importlib.import_module(module), name)
        obj = cls.model_validate(envelope["data"])
    except (OSError, ValueError, KeyError, AttributeError, ImportError) as exc:
        raise ValueError(f"{path}: not a readable stage file ({type(exc).__name__}: {exc})") from exc
    if not isinstance(obj, expected):
        raise ValueError(f"{path}: holds {type(obj).__name__}, expected {expected.__name__}")
    return obj


def load_project(folder: Path) -> tuple[ProjectIndex, list[QAItem]]:
    missing = [n for n in NEEDED if not (folder / n).exists()]
    if missing:
        raise FileNotFoundError(f"{folder}: missing {', '.join(missing)} (build the seed through qa_validated)")
    plan = _load_model(folder / "event_plan.json", EventPlan)
    org = _load_model(folder / "organization.json", Organization)
    records = _load_model(folder / "records.json", RecordSet)
    return ProjectIndex(plan=plan, org=org, records=records), read_questions_jsonl(folder / "questions.jsonl")


def project_folders(home: Path) -> list[Path]:
    """Every seed project of the data home that has validated questions."""
    root = home / "projects"
    return sorted(p for p in root.iterdir() if (p / "questions.jsonl").exists()) if root.is_dir() else []


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def _gap(q: SeedQuality, task: str) -> str:
    gap = q.readers[task].gap
    return "–" if gap is None else f"{gap:+.0f}"


def quality_table(rows: list[SeedQuality]) -> StatTable:
    columns = (["Seed", "# Q"] + [ABBR[t] for t in TASKS] + ["3+ rec", "2+ src"]
               + [f"gap {ABBR[t]}" for t in TASKS] + ["XSC first-posted", "targets"])
    body = []
    for q in rows:
        first = q.first_posted
        body.append([q.seed, str(sum(q.per_task.values()))] + [str(q.per_task[t]) for t in TASKS]
                    + [_pct(q.multi_record), _pct(q.multi_source)] + [_gap(q, t) for t in TASKS]
                    + [f"{_pct(first)} ({q.n_first_posted}/{q.n_conflict_values})", "; ".join(q.misses) or "met"])
    title = (f"Quality per seed (targets: 3+ records >= {100 * TARGETS['multi_record']:.0f}%, 2+ sources >= "
             f"{100 * TARGETS['multi_source']:.0f}% of answerable; gap = oracle minus best shortcut reader, points, "
             f">= 0; XSC gold first-posted 40-60%)")
    return StatTable(name="quality_by_seed", title=title, columns=columns, rows=body)


def stored_retrievals(home: Path, retriever: str) -> dict[str, list[str]]:
    """question id -> ranked record ids from `evaluation/retrievals/<retriever>/retrievals.json`."""
    from mmeb_assets.schema.evaluation import RetrievalSet

    path = home / "evaluation" / "retrievals" / retriever / "retrievals.json"
    if not path.exists():
        raise FileNotFoundError(f"{path}: no stored retrievals for retriever {retriever!r} (build 'retrievals' first)")
    return {r.question_id: r.record_ids for r in _load_model(path, RetrievalSet).retrievals}


def by_seed(home: Path, retriever: str = "") -> tuple[StatTable, list[SeedQuality]]:
    """The quality table of every seed project in `home`; the shortcut readers read the stored top k of
    `retriever` when one is named (it must come from the same build as the questions), else a lexical top k."""
    retrieved = stored_retrievals(home, retriever) if retriever else None
    rows = []
    for folder in project_folders(home):
        index, items = load_project(folder)
        rows.append(seed_quality(folder.name, items, index, retrieved_ids=retrieved))
    table = quality_table(rows)
    table.title += f"; shortcut readers read the top {SHORTCUT_K} of " + (
        f"the stored '{retriever}' retrievals" if retriever else "a lexical (BM25) ranking of the project")
    return table, rows


SHARE_TARGETS = {"overall": 0.45, "project": 0.30}


def share_table(home: Path) -> tuple[StatTable, ShareRow]:
    """Per project and overall: answerable questions resting on the seed document (a table value, a prose
    number or statement), on workspace facts, on the team's own review numbers; with the targets."""
    overall, body = ShareRow("all projects"), []
    for folder in project_folders(home):
        index, items = load_project(folder)
        row = share_row(folder.name, items, index.plan)
        overall.counts.update(row.counts)
        body.append(_share_cells(row, SHARE_TARGETS["project"]))
    body.append(_share_cells(overall, SHARE_TARGETS["overall"]))
    title = (f"What answerable questions rest on (targets: document >= {SHARE_TARGETS['overall']:.0%} overall, "
             f">= {SHARE_TARGETS['project']:.0%} in every project)")
    columns = ["Project", "Answerable", "Document", "Workspace", "Review numbers", "Document share", "target"]
    return StatTable(name="document_share", title=title, columns=columns, rows=body), overall


def _share_cells(row: ShareRow, target: float) -> list[str]:
    return [row.project, str(row.answerable), str(row.counts["document"]), str(row.counts["workspace"]),
            str(row.counts["review"]), _pct(row.share()), "met" if row.share() >= target else "missed"]
