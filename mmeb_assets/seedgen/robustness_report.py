"""Per-seed outcome of a build, read back from a data home: pages, tables, figures, records, questions
kept per task, or where the seed stopped and why.

Used for the robustness corpus (`mmeb robustness-report`), but reads any manifest. The reason of a
failed seed comes from the PDF itself when ingestion refuses it (the IngestionError names the file),
else from the latest failed Dagster run of that partition on the instance under the data home.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from mmeb_assets.manifests import Manifest
from mmeb_assets.schema.qa import TASKS

TASK_SHORT = {"extraction": "ext", "attribution": "att", "computation": "cmp", "comparison": "cpr",
              "interpretation": "int", "cross_source_conflict": "xsc", "temporal_conflict": "tmp",
              "unanswerable": "uns"}
STAGE_FILES = (("ingestion", "source_document.json"), ("source facts", "source_facts.json"),
               ("organization", "organization.json"), ("event plan", "event_plan.json"),
               ("records", "records.jsonl"), ("questions", "questions.jsonl"))


@dataclass
class SeedOutcome:
    seed: str
    pages: int | None = None
    tables: int | None = None
    figures: int | None = None
    claims: int | None = None
    records: int | None = None
    questions: Counter = field(default_factory=Counter)
    stopped_at: str = ""
    reason: str = ""

    @property
    def complete(self) -> bool:
        return not self.stopped_at


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _refusal(pdf: Path) -> str:
    from mmeb_assets.ingestion.pdf_text import IngestionError, open_pdf

    try:
        open_pdf(pdf).close()
    except IngestionError as exc:
        return str(exc)
    return ""


def _last_failure(seed: str) -> str:
    """The step failure message of the latest failed run of this partition (best effort)."""
    try:
        from dagster import DagsterEventType, DagsterInstance, DagsterRunStatus, RunsFilter

        instance = DagsterInstance.get()
        runs = instance.get_runs(RunsFilter(tags={"dagster/partition": seed}, statuses=[DagsterRunStatus.FAILURE]),
                                 limit=1)
        for run in runs:
            records = instance.all_logs(run.run_id)
            for record in records:  # a failed blocking check says more than the step it stopped
                event = record.dagster_event
                if event is not None and event.event_type == DagsterEventType.ASSET_CHECK_EVALUATION:
                    data = event.event_specific_data
                    if not data.passed:
                        return f"check {data.check_name} failed: {_check_message(data.metadata)}"
            for record in records:
                event = record.dagster_event
                if event is not None and event.is_step_failure and event.step_failure_data.error:
                    err = event.step_failure_data.error
                    cause = err.cause or err
                    message = (cause.message or "").strip().splitlines()
                    return f"{event.step_key}: {message[-1] if message else cause.cls_name}"
    except Exception as exc:  # the report still prints the files it found
        return f"(no run record: {type(exc).__name__})"
    return ""


def _check_message(metadata: dict) -> str:
    for key in ("first", "problems", "errors", "error", "message"):
        if key in metadata and str(getattr(metadata[key], "value", metadata[key])).strip():
            text = str(getattr(metadata[key], "value", metadata[key])).strip().lstrip("- ")
            return " | ".join(line.strip().lstrip("- ") for line in text.splitlines()[:2])
    return ", ".join(f"{k}={getattr(v, 'value', v)}" for k, v in list(metadata.items())[:3])


def seed_outcome(manifest: Manifest, seed: str, home: Path) -> SeedOutcome:
    folder = home / "projects" / seed
    out = SeedOutcome(seed)
    doc_file = folder / "source_document.json"
    if doc_file.exists():
        doc = json.loads(doc_file.read_text(encoding="utf-8"))
        doc = doc.get("data", doc)
        out.pages, out.tables, out.figures = doc["n_pages"], len(doc["tables"]), len(doc["figures"])
        out.claims = len(doc["numeric_claims"])
    if (folder / "records.jsonl").exists():
        out.records = len(_lines(folder / "records.jsonl"))
    if (folder / "questions.jsonl").exists():
        out.questions = Counter(item["task"] for item in _lines(folder / "questions.jsonl"))
    missing = next((stage for stage, name in STAGE_FILES if not (folder / name).exists()), "")
    if missing:
        out.stopped_at = missing
        pdf = manifest.pdf_path(seed)
        out.reason = (_refusal(pdf) if missing == "ingestion" else "") or _last_failure(seed) or "not built"
    return out


def report_table(outcomes: list[SeedOutcome]) -> str:
    head = ["seed", "pages", "tables", "figs", "claims", "records", *(TASK_SHORT[t] for t in TASKS), "qs", "outcome"]
    rows = [head]
    for o in outcomes:
        def cell(v) -> str:
            return "-" if v is None else str(v)
        total = sum(o.questions.values()) if o.questions else None
        outcome = "complete" if o.complete else f"stopped at {o.stopped_at}: {o.reason}"
        rows.append([o.seed, cell(o.pages), cell(o.tables), cell(o.figures), cell(o.claims), cell(o.records),
                     *(str(o.questions.get(t, 0)) if o.questions else "-" for t in TASKS), cell(total), outcome])
    widths = [max(len(r[i]) for r in rows) for i in range(len(head) - 1)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r[:-1], widths)) + "  " + r[-1] for r in rows]
    done = sum(o.complete for o in outcomes)
    lines.append(f"{done} of {len(outcomes)} seeds complete; "
                 f"{sum(o.records or 0 for o in outcomes)} records, "
                 f"{sum(sum(o.questions.values()) for o in outcomes)} questions")
    lines += unexpected_lines(outcomes)
    return "\n".join(lines)


def unexpected_lines(outcomes: list[SeedOutcome]) -> list[str]:
    """Seeds of the corpus whose outcome differs from the expectation in its SOURCES row."""
    from mmeb_assets.seedgen.robustness_corpus import CORPUS

    expected = {c.id: c.expect for c in CORPUS}
    odd = [f"{o.seed} (expected {expected[o.seed]}, {'built' if o.complete else 'refused at ' + o.stopped_at})"
           for o in outcomes if o.seed in expected and (expected[o.seed] == "build") != o.complete]
    return [f"not as expected: {', '.join(odd)}"] if odd else ["every corpus seed as expected (build / refuse)"]
