"""Which items the annotators see: by default 50 accepted and 50 rejected by the automatic
validation, drawn and shuffled with a fixed seed.

Accepted = the kept items of a project's `qa_validated` (`QASet.items`, decision pass or fix);
rejected = its dropped items (`QASet.dropped`). The sample stores each item without its
`validation` block, so nothing the web app renders can reveal the automatic decision.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

from mmeb_assets.schema.qa import QAItem, QASet
from mmeb_assets.schema.records import Record

QA_VALIDATED_FILE = "qa_validated.json"
RECORDS_FILE = "records.jsonl"


class AnnotationInputError(ValueError):
    """An input file that cannot be used; the message names the file and the reason."""


def load_qa_validated(path: Path) -> QASet:
    """Read the IO manager's envelope (`{"model": ..., "data": {...}}`) or a bare QASet JSON."""
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
        data = payload["data"] if isinstance(payload, dict) and "data" in payload and "model" in payload else payload
        return QASet.model_validate(data)
    except (OSError, ValueError, KeyError) as exc:
        raise AnnotationInputError(f"{path}: not a readable QASet ({exc})") from exc


def load_records(path: Path) -> list[Record]:
    records = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise AnnotationInputError(f"{path}: cannot read records ({exc})") from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(Record.model_validate_json(line))
        except ValueError as exc:
            raise AnnotationInputError(f"{path} line {number}: not a Record ({exc})") from exc
    return records


def project_ids(home: Path, only: list[str] | None = None) -> list[str]:
    """Projects that have a `qa_validated.json` (optionally only those named)."""
    root = home / "projects"
    found = sorted(p.parent.name for p in root.glob(f"*/{QA_VALIDATED_FILE}")) if root.exists() else []
    if only:
        missing = [p for p in only if p not in found]
        if missing:
            raise AnnotationInputError(f"no {QA_VALIDATED_FILE} under {root} for project(s) {', '.join(missing)}")
        return [p for p in found if p in only]
    return found


def validation_decisions(home: Path, projects: list[str] | None = None) -> dict[str, str]:
    """item id -> 'accepted' | 'rejected', from every project's current `qa_validated.json`."""
    decisions: dict[str, str] = {}
    for project in project_ids(home, projects):
        qa = load_qa_validated(home / "projects" / project / QA_VALIDATED_FILE)
        decisions.update({item.id: "accepted" for item in qa.items})
        decisions.update({item.id: "rejected" for item in qa.dropped})
    return decisions


@dataclass
class SampleConfig:
    n_accepted: int = 50
    n_rejected: int = 50
    seed: int = 0
    projects: list[str] = field(default_factory=list)
    item_ids: list[str] = field(default_factory=list)
    """When given, exactly these items (the counts are ignored), still shuffled with the seed."""

    def as_meta(self) -> dict[str, str]:
        meta = {"n_accepted": str(self.n_accepted), "n_rejected": str(self.n_rejected), "seed": str(self.seed),
                "projects": ",".join(self.projects)}
        if self.item_ids:
            meta["item_ids"] = ",".join(self.item_ids)
        return meta


@dataclass
class DrawnSample:
    items: list[tuple[QAItem, str]]
    available: dict[str, int]
    notes: list[str]


def draw_sample(accepted: list[QAItem], rejected: list[QAItem], config: SampleConfig) -> DrawnSample:
    """Pure: n of each kind (all of them when fewer exist), then one shuffle; same seed, same order."""
    rng = random.Random(config.seed)
    notes = []
    chosen: list[tuple[QAItem, str]] = []
    if config.item_ids:
        by_id = {i.id: (i, "accepted") for i in accepted} | {i.id: (i, "rejected") for i in rejected}
        unknown = [i for i in config.item_ids if i not in by_id]
        if unknown:
            raise AnnotationInputError(f"item id(s) not in any qa_validated.json: {', '.join(unknown[:10])}")
        chosen = [by_id[i] for i in dict.fromkeys(config.item_ids)]
        rng.shuffle(chosen)
        return DrawnSample(chosen, {"accepted": len(accepted), "rejected": len(rejected)}, notes)
    for label, pool, wanted in (("accepted", accepted, config.n_accepted), ("rejected", rejected, config.n_rejected)):
        pool = sorted(pool, key=lambda item: item.id)
        if len(pool) < wanted:
            notes.append(f"only {len(pool)} {label} item(s) exist; sampled {len(pool)} instead of {wanted}")
        taken = rng.sample(pool, min(wanted, len(pool)))
        chosen.extend((item, label) for item in taken)
    rng.shuffle(chosen)
    return DrawnSample(chosen, {"accepted": len(accepted), "rejected": len(rejected)}, notes)


def draw_from_home(home: Path, config: SampleConfig) -> DrawnSample:
    accepted: list[QAItem] = []
    rejected: list[QAItem] = []
    for project in project_ids(home, config.projects or None):
        qa = load_qa_validated(home / "projects" / project / QA_VALIDATED_FILE)
        accepted.extend(qa.items)
        rejected.extend(qa.dropped)
    if not accepted and not rejected:
        raise AnnotationInputError(f"no validated QA items under {home / 'projects'} "
                                   f"(materialize qa_validated first)")
    return draw_sample(accepted, rejected, config)


def blind_item(item: QAItem) -> dict:
    """The item as annotators may see it: everything but the automatic validation."""
    return item.model_dump(mode="json", exclude={"validation"})
