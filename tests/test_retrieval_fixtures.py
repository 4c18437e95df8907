"""Hand-built records and questions for the retrieval tests (no upstream stage needed).

Imported by tests/test_retrieval*.py; holds no tests itself.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from PIL import Image, ImageDraw

from mmeb_assets.schema.common import Provenance
from mmeb_assets.schema.qa import Gold, QAItem
from mmeb_assets.schema.records import Record, RecordSet

T0 = datetime(2026, 3, 2, 9, 0, 0)

# (project, local id, source, text); the id becomes '<project>-<source>-<n>'
TEXTS = {
    "aurora-retrieval": [
        ("slack", "#infra Priya: the GPU cluster budget for Q3 was raised to 48,000 dollars after the finance review."),
        ("email", "Subject: offsite venue. We booked the lakeside lodge for the team retreat in October."),
        ("notion", "Hiring tracker: two backend engineers start in November; designer interviews continue."),
        ("meeting", "Meeting notes: the annotation vendor missed its deadline, so labelling moves to the next sprint."),
        ("slack", "#ml Omar: use the zorblax7 checkpoint for the ablation run."),
        ("slack", "#ml Lea: which checkpoint should we use for the ablation run? the latest checkpoint of the model?"),
        ("slack", "#ml Lea: the ablation checkpoint choice still needs a decision from the model team."),
        ("pdf_page", "Report page 3: Table 2 reports recall at 10 of 0.62 for the late-interaction retriever."),
    ],
    "harbor-emissions": [
        ("notion", "Emissions dashboard: port emissions fell 12 percent in 2025 thanks to shore power at berth 4."),
        ("email", "Subject: reminder. The quarterly emissions report is due Friday to the ministry."),
        ("slide", "Slide 5: forecast of container traffic through the harbor from 2026 to 2030."),
        ("slack", "#ops Ana: the new tug boat arrives in May; crew training is scheduled for April."),
    ],
}
PROV = Provenance(seed_id="fixture", stage="records", generator="rules")


def make_records(project: str, home: Path, texts: list[tuple[str, str]] | None = None) -> list[Record]:
    """Records of one fixture project; visual ones get a real PNG under projects/<seed>/images/."""
    records = []
    for n, (source, text) in enumerate(texts if texts is not None else TEXTS[project], start=1):
        visual = source in ("pdf_page", "slide", "image")
        image_rel = None
        if visual:
            image_rel = f"images/{project}-{source}-{n}.png"
            path = home / "projects" / project / image_rel
            path.parent.mkdir(parents=True, exist_ok=True)
            img = Image.new("RGB", (160, 120), "white")
            ImageDraw.Draw(img).text((8, 50), text[:24], fill="black")
            img.save(path)
        records.append(Record(
            id=f"{project}-{source}-{n}", project=project, source=source, modality="visual" if visual else "text",
            timestamp=T0 + timedelta(hours=n), order=n, author="fixture", text=text, image_path=image_rel,
            provenance=PROV.model_copy(update={"seed_id": project}),
        ))
    return records


def make_record_set(project: str, home: Path) -> RecordSet:
    return RecordSet(seed_id=project, provenance=PROV.model_copy(update={"seed_id": project}),
                     records=make_records(project, home), version_graph=[])


def make_item(qid: str, project: str, task: str, question: str, evidence: list[str],
              answerable: bool = True) -> QAItem:
    return QAItem(id=qid, project=project, task=task, q=question,
                  answer_status="answerable" if answerable else "unanswerable",
                  gold=Gold(answer="fixture"), evidence=evidence, generator="rules:fixture",
                  provenance=PROV.model_copy(update={"seed_id": project, "stage": "qa"}))
