"""Hand-built inputs for the annotation tests: two projects with records (one visual, with a PNG)
and validated QA sets, written into a temp data home the way the records and QA stages do."""
from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

from PIL import Image, ImageDraw

from mmeb_assets.annotation.db import Judgment
from mmeb_assets.schema.common import Provenance
from mmeb_assets.schema.qa import Gold, QAItem, QASet, StageVerdict, Validation
from mmeb_assets.schema.records import Record

HIDDEN_REASON = "HIDDEN-LLM-REASON-7f3a"
HIDDEN_CATEGORY = "hidden_category_9c1e"
XSS = "<script>window.__pwned=1</script><img src=x onerror=alert(1)>"


def _prov(seed: str, stage: str) -> Provenance:
    return Provenance(seed_id=seed, stage=stage, generator="rules")


def _records(seed: str) -> list[Record]:
    t0 = datetime(2025, 3, 3, 9, 0)
    rows = [
        dict(source="slack", modality="text", author="Dana Li", channel="#results",
             text=f"[Slack #results] Dana Li: the F1 on the {seed} benchmark is 0.812 after run r42"),
        dict(source="email", modality="text", author="Sam Roy", title="Re: numbers",
             text="[Email] From Sam Roy. Subject: Re: numbers. Batch size was 64 for the final run."),
        dict(source="notion", modality="text", author="Ada K", title="Project notes",
             text=f"[Notion] Project notes. Untrusted markup here: {XSS}"),
        dict(source="pdf_page", modality="visual", filename=f"{seed}-report.pdf", page=3, author="Dana Li",
             doc_id="doc-1", image_path="images/page3.png",
             text="[PDF report page 3] Table 2: accuracy by model, zebra-crossing dataset"),
        dict(source="slide", modality="visual", filename=f"{seed}-kickoff.pptx", page=2, author="Sam Roy",
             doc_id="doc-2", text="[Slides kickoff slide 2] Timeline: launch in May"),
    ]
    return [Record(id=f"{seed}-{r['source']}-{n}", project=seed, timestamp=t0 + timedelta(hours=n), order=n,
                   provenance=_prov(seed, "records"), **r) for n, r in enumerate(rows)]


def _item(seed: str, n: int, evidence: list[str], decision: str) -> QAItem:
    validation = Validation(decision=decision, category=HIDDEN_CATEGORY, stages=[StageVerdict(
        stage="full_project", verdict=decision, reason=HIDDEN_REASON)])
    return QAItem(id=f"{seed}-q{n}", project=seed, task="extraction", q=f"What is fact {n} of {seed}? <b>bold?</b>",
                  answer_status="answerable", gold=Gold(answer=f"Answer {n} for {seed}"), evidence=evidence,
                  generator="rules:test", validation=validation, provenance=_prov(seed, "qa"))


def write_project(home: Path, seed: str, n_kept: int, n_dropped: int) -> tuple[list[Record], QASet]:
    folder = home / "projects" / seed
    (folder / "images").mkdir(parents=True, exist_ok=True)
    image = Image.new("RGB", (240, 120), "white")
    ImageDraw.Draw(image).text((10, 50), f"page 3 of {seed}", fill="black")
    image.save(folder / "images" / "page3.png")
    records = _records(seed)
    (folder / "records.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in records), encoding="utf-8")
    ids = [r.id for r in records]
    kept = [_item(seed, n, [ids[n % 2], ids[3]], "pass" if n % 2 else "fix") for n in range(n_kept)]
    dropped = [_item(seed, 100 + n, [ids[1]], "drop") for n in range(n_dropped)]
    qa = QASet(seed_id=seed, provenance=_prov(seed, "qa"), items=kept, dropped=dropped)
    envelope = {"model": "mmeb_assets.schema.qa.QASet", "data": qa.model_dump(mode="json")}
    (folder / "qa_validated.json").write_text(json.dumps(envelope, indent=1), encoding="utf-8")
    return records, qa


def build_home(home: Path) -> dict[str, QASet]:
    """alpha: 3 kept + 2 dropped; beta: 2 kept + 1 dropped (5 accepted, 3 rejected in all)."""
    return {"alpha": write_project(home, "alpha", 3, 2)[1], "beta": write_project(home, "beta", 2, 1)[1]}


def j(annotator: str, item: str, c1: str = "yes", c2: str = "yes", c3: str = "absent") -> Judgment:
    return Judgment(annotator, item, c1, c2, c3)
