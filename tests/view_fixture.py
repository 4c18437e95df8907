"""A small finished build written by hand for the results-browser tests (no pipeline run): two projects
with a seed PDF each, text and visual records, questions of several tasks, two models and two
diagnostic readers at k=10 and k=50 judged by the real rules judge, two retrievers, the report's own
leaderboard files (build_leaderboard writes table5.csv), the record lineage, and one project whose
records and answers carry hostile text. Holds no tests."""
from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

from mmeb_assets.evaluation.judging import build_judgments
from mmeb_assets.evaluation.leaderboard import build_leaderboard
from mmeb_assets.evaluation.report import Run
from mmeb_assets.retrieval.metrics import ranking_metrics, write_metrics
from mmeb_assets.schema.common import Provenance
from mmeb_assets.schema.evaluation import Answer, AnswerSet, Retrieval
from mmeb_assets.schema.qa import Benchmark, Derivation, Gold, QAItem
from mmeb_assets.schema.records import Corpus, Record

PROV = Provenance(seed_id="fixture", stage="test", generator="rules")
T0 = datetime(2026, 3, 2, 9, 0)
HOSTILE = ('<script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 1; alert(1)">'
           '<a href="javascript:window.__pwned=1">click me</a> javascript:alert(document.domain)')
TABLE = [("System", "Recall@10", "MRR"), ("BM25", "0.628", "0.402"), ("Dense", "0.731", "0.498"),
         ("Aurora", "0.794", "0.556")]


def _envelope(obj) -> str:
    cls = type(obj)
    return json.dumps({"model": f"{cls.__module__}.{cls.__name__}", "data": obj.model_dump(mode="json")}) + "\n"


def _write(path: Path, text: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))


def _seed_pdf(path: Path, title: str) -> list[float]:
    """A one-page seed PDF with a results table; returns the table's bounding box."""
    import pymupdf as fitz

    doc = fitz.open()
    page = doc.new_page()
    page.insert_text((72, 72), title, fontsize=16)
    page.insert_text((72, 110), "Table 1: Retrieval results on HelpDesk-40K.", fontsize=11)
    for r, row in enumerate(TABLE):
        for c, cell in enumerate(row):
            page.insert_text((72 + 130 * c, 140 + 20 * r), cell, fontsize=11)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)
    return [60.0, 100.0, 480.0, 230.0]


def _png(path: Path, label: str) -> None:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (360, 160), "white")
    ImageDraw.Draw(image).text((12, 60), label, fill="black")
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)


def _records(project: str, hostile: bool) -> list[Record]:
    def rec(n, source, text, modality="text", image=None, **extra):
        return Record(id=f"{project}-{source}-{n:03d}", project=project, source=source, modality=modality,
                      timestamp=T0 + timedelta(hours=n), order=n, text=text, image_path=image, provenance=PROV,
                      author="Ana Ruiz", channel="results" if source == "slack" else "", **extra)
    records = [rec(1, "slack", "[Slack #results] Ana Ruiz\nBM25 (R1) finished: Recall@10 0.628, MRR 0.402."),
               rec(2, "slack", "[Slack #results] Bo Chen\nDense (R2): Recall@10 0.731, MRR 0.498."),
               rec(3, "email", "[Email] Subject: Aurora\nAurora (R3) reached Recall@10 0.794 and MRR 0.556.",
                   title="Aurora results"),
               rec(4, "image", "[Image] results table screenshot", "visual", "images/table.png",
                   pixel_text="Aurora 0.794 0.556"),
               rec(5, "pdf_page", "[PDF report p.1] Results", "visual", "pages/report_p1.png", page=1,
                   filename="report.pdf")]
    if hostile:
        records.append(rec(6, "notion", "[Notion] " + HOSTILE, title=HOSTILE))
    return records


def _items(project: str, records: list[Record], hostile: bool) -> list[QAItem]:
    ids = [r.id for r in records]
    specs = [("extraction", "What Recall@10 did BM25 (R1) reach?", "0.628", [ids[0]], "run_01:Recall@10"),
             ("extraction", "What MRR did Dense (R2) reach?", "0.498", [ids[1]], "run_02:MRR"),
             ("extraction", "What Recall@10 did Aurora (R3) reach in the screenshot?", "0.794", [ids[3]],
              "run_03:Recall@10"),
             ("computation", "By how much does Aurora's MRR exceed BM25's?", "0.154", [ids[0], ids[2]],
              "run_03|run_01:MRR"),
             ("comparison", "Which system has the higher MRR, Dense or Aurora?", "Aurora", [ids[1], ids[4]],
              "pair:run_02|run_03:MRR"),
             ("attribution", "Who posted the BM25 result?", "Ana Ruiz", [ids[0]], "ev_0001"),
             ("unanswerable", "What is the nDCG@10 of Aurora on the test split?", "Not established: no record "
              "gives it.", [], "run_03:nDCG@10")]
    if hostile:
        specs.append(("interpretation", "Is the page " + HOSTILE + " right?", "No", [ids[5]], ""))
    items = []
    for n, (task, q, answer, evidence, key) in enumerate(specs, start=1):
        status = "unanswerable" if task == "unanswerable" else "answerable"
        value = None if status == "unanswerable" else answer
        items.append(QAItem(id=f"{project}-q{n:02d}", project=project, task=task, q=q, answer_status=status,
                            gold=Gold(answer=answer, value=value), evidence=evidence,
                            generator=f"rules:{task}.fixture", provenance=PROV,
                            derivation=Derivation(kind="lookup", fact_key=key, operands=[value] if value else [])))
    return items


def _project(home: Path, project: str, hostile: bool) -> tuple[list[Record], list[QAItem]]:
    folder = home / "projects" / project
    bbox = _seed_pdf(home / "seeds" / f"{project}.pdf", f"{project.title()}: a seed paper")
    document = {"seed_id": project, "title": f"{project.title()}: a seed paper", "path": f"seeds/{project}.pdf",
                "n_pages": 1, "tables": [{"id": "table_1", "page": 1, "bbox": bbox, "caption": "Table 1",
                                          "header": list(TABLE[0]), "rows": [list(r) for r in TABLE[1:]]}]}
    _write(folder / "seed_document.json", json.dumps({"model": "dict", "data": document}))
    items = [{"id": f"run_0{i}", "table_id": "table_1", "row_index": i - 1,
              "values": dict(zip(TABLE[0][1:], TABLE[i][1:]))} for i in (1, 2, 3)]
    events = [{"id": "ev_0001", "kind": "result_posted", "actor": "Ana Ruiz", "time": T0.isoformat(),
               "where": "results", "summary": "posts the BM25 run"}]
    _write(folder / "event_plan.json", json.dumps({"data": {"items": items, "errors": [], "events": events}}))
    records = _records(project, hostile)
    records[0] = records[0].model_copy(update={"event_ids": ["ev_0001"]})
    _png(folder / "images" / "table.png", "Aurora 0.794 0.556")
    _png(folder / "pages" / "report_p1.png", "report page 1")
    _write(folder / "records.jsonl", "".join(r.model_dump_json() + "\n" for r in records))
    return records, _items(project, records, hostile)


def _answers(model: str, k: int, items: list[QAItem], backend: str) -> AnswerSet:
    """Deterministic answers: the model is right on every other question, the readers on the lookups."""
    rows = []
    for n, item in enumerate(items):
        if backend == "reader":
            text = item.gold.answer if item.task == "extraction" and (k == 50 or n % 3) else "unknown"
        elif "hostile" in item.id and n % 2 == 0:
            text = HOSTILE
        else:
            right = (n + k // 10) % 2 == 0 if model == "model-a" else n % 3 != 0
            text = item.gold.answer if right else "0.111"
        rows.append(Answer(question_id=item.id, model=model, k=k, answer=text, task=item.task))
    return AnswerSet(model=model, k=k, retriever="minilm", backend=backend, answers=rows, n_questions=len(items),
                     evidence="gold" if model == "reader-oracle" else "retrieved", provenance=PROV)


def build_view_fixture(home: Path) -> Path:
    """Write the whole fixture build under `home`; returns it."""
    records, items = [], []
    for project, hostile in (("aurora", False), ("hostile", True)):
        r, i = _project(home, project, hostile)
        records += r
        items += i
    benchmark = Benchmark(items=items, projects=["aurora", "hostile"])
    corpus = Corpus(records=records, projects=["aurora", "hostile"])
    _write(home / "benchmark" / "questions.jsonl", "".join(i.model_dump_json() + "\n" for i in items))
    _write(home / "benchmark" / "corpus.json", _envelope(corpus))
    for retriever, shift in (("minilm", 0), ("bm25", 2)):
        ids = [r.id for r in records]
        ranked = {i.id: ids[shift:] + ids[:shift] for i in items}
        rows = [Retrieval(question_id=q, record_ids=r, scores=[round(1 - n / 20, 3) for n in range(len(r))])
                for q, r in ranked.items()]
        folder = home / "evaluation" / "retrieval" / retriever
        _write(folder / "retrievals.jsonl", "".join(r.model_dump_json() + "\n" for r in rows))
        write_metrics(folder, retriever, ranking_metrics(items, ranked))
    runs = []
    for model, backend, group in (("model-a", "openai", "proprietary"), ("model-b", "vllm-server", "open-source"),
                                  ("reader-latest-mention", "reader", "diagnostic"),
                                  ("reader-oracle", "reader", "diagnostic")):
        for k in (10, 50):
            answers = _answers(model, k, items, backend)
            judgments = build_judgments(answers, benchmark)
            folder = home / "evaluation" / model / f"k{k}"
            _write(folder / "answers.json", _envelope(answers))
            _write(folder / "judgments.json", _envelope(judgments))
            runs.append(Run(answers=answers, judgments=judgments, group=group))
    from mmeb_assets.evaluation.leaderboard import retrieval_metrics

    board, _ = build_leaderboard(runs, benchmark, corpus, home / "evaluation" / "reports", [],
                                 retrieval_metrics(home))
    _write(home / "benchmark" / "leaderboard.json", _envelope(board))
    cited: dict[str, list[str]] = {}
    for item in items:
        for rid in item.evidence:
            cited.setdefault(rid, []).append(item.id)
    rows = [{"record_id": r.id, "project": r.project, "source": r.source, "events": r.event_ids,
             "source_facts": ["run_01 (baseline, 'BM25 (R1)') from table_1 row 0"] if r.event_ids else [],
             "versions": [r.id], "cited_by": cited.get(r.id, []), "retrieved_in": 0} for r in records]
    _write(home / "benchmark" / "record_lineage.jsonl", "".join(json.dumps(row) + "\n" for row in rows))
    return home


def submit_own_system(home: Path, name: str = "my-rag") -> None:
    """Score a user's own system on the fixture with `mmeb score` (which keeps it for the view): right on
    the extraction questions, with its own retrieval (gold first)."""
    import contextlib
    import io

    from mmeb_assets.cli import main

    items = [QAItem.model_validate_json(line) for line in
             (home / "benchmark" / "questions.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    answers, retrieved = home / "submitted_answers.jsonl", home / "submitted_retrieved.jsonl"
    answers.write_text("".join(json.dumps({"id": i.id, "answer": i.gold.answer if i.task == "extraction" else "no idea"})
                               + "\n" for i in items), encoding="utf-8")
    retrieved.write_text("".join(json.dumps({"id": i.id, "retrieved": i.evidence}) + "\n" for i in items),
                         encoding="utf-8")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(["score", "--answers", str(answers), "--retrieved", str(retrieved), "--name", name,
                     "--home", str(home)])
    assert code == 0, f"mmeb score failed ({code})"


def build_view_site(root: Path) -> Path:
    """The fixture build, a submitted system, and its site written by `mmeb view`; returns the site folder."""
    import contextlib
    import io

    from mmeb_assets.cli import main

    home = build_view_fixture(root / "home")
    submit_own_system(home)
    with contextlib.redirect_stdout(io.StringIO()) as out:
        code = main(["view", "--home", str(home), "--out", str(root / "site")])
    assert code == 0, out.getvalue()
    return root / "site"
