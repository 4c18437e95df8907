"""The whole graph as `make demo` runs it: every stage on the demo seeds, offline, in one instance.

Reads back what a user would open: records with their PDFs, slides and PNGs, the questions, the
index, the report, the lineage of one record.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from PIL import Image

from demo_home import REPO, demo_env
from mmeb_assets.manifests import load_manifest
from mmeb_assets.schema import TASKS, QAItem, Record

pytestmark = pytest.mark.slow
DEMO_SEEDS = load_manifest("demo").ids


def _records(home, seed) -> list[Record]:
    lines = (home / "projects" / seed / "records.jsonl").read_text().splitlines()
    return [Record.model_validate_json(line) for line in lines if line.strip()]


def _questions(home, seed) -> list[QAItem]:
    lines = (home / "projects" / seed / "questions.jsonl").read_text().splitlines()
    return [QAItem.model_validate_json(line) for line in lines if line.strip()]


def test_every_seed_has_records_in_the_papers_range_with_real_visual_files(demo_home):
    for seed in DEMO_SEEDS:
        records = _records(demo_home, seed)
        assert 200 <= len(records) <= 275, (seed, len(records))
        sources = {r.source for r in records}
        assert {"slack", "email", "notion", "pdf_page", "slide", "image"} <= sources, sources
        visual = [r for r in records if r.modality == "visual"]
        for record in visual[:: max(1, len(visual) // 8)]:
            with Image.open(demo_home / "projects" / seed / record.image_path) as image:
                assert image.width > 100 and image.height > 100


def test_every_seed_has_validated_questions_of_all_eight_tasks(demo_home):
    all_ids = set()
    for seed in DEMO_SEEDS:
        questions = _questions(demo_home, seed)
        record_ids = {r.id for r in _records(demo_home, seed)}
        assert {q.task for q in questions} == set(TASKS)
        for q in questions:
            assert q.validation is not None and q.validation.decision in {"pass", "fix"}
            assert set(q.evidence) <= record_ids
            assert q.answer_status == "unanswerable" or q.evidence
        all_ids |= {q.id for q in questions}
    merged = [json.loads(line) for line in (demo_home / "benchmark" / "questions.jsonl").read_text().splitlines()]
    assert {m["id"] for m in merged} == all_ids


def test_retrieval_and_evaluation_reports_exist(demo_home):
    reports = demo_home / "evaluation" / "reports"
    assert any(reports.glob("*.md")) and any(reports.glob("*.csv")) and any(reports.glob("*.png"))
    for png in reports.glob("*.png"):
        with Image.open(png) as image:
            assert image.width > 200
    proc = subprocess.run([sys.executable, "-m", "mmeb_assets.cli", "report"], cwd=REPO, env=demo_env(demo_home),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Recall@" in proc.stdout and "Extraction" in proc.stdout


def test_lineage_of_a_cited_record(demo_home):
    seed = DEMO_SEEDS[0]
    question = next(q for q in _questions(demo_home, seed) if q.evidence)
    record_id = question.evidence[0]
    proc = subprocess.run([sys.executable, "-m", "mmeb_assets.cli", "lineage", record_id], cwd=REPO,
                          env=demo_env(demo_home), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"Record `{record_id}`" in proc.stdout and question.id in proc.stdout
    assert "Events it realizes" in proc.stdout
    rows = [json.loads(line) for line in (demo_home / "benchmark" / "record_lineage.jsonl").read_text().splitlines()]
    row = next(r for r in rows if r["record_id"] == record_id)
    assert question.id in row["cited_by"] and row["events"] and row["versions"][-1:] != []
    assert len(rows) == sum(len(_records(demo_home, seed)) for seed in DEMO_SEEDS)
