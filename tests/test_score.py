"""`mmeb score`: a user's own system judged and placed beside the built-in ones, on a build's home and
on a benchmark folder; bad rows stop with one line naming the file, the line and the field."""
from __future__ import annotations

import io
import json
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from mmeb_assets.cli import main
from mmeb_assets.qa.export import read_questions_jsonl, write_questions_jsonl
from mmeb_assets.schema.qa import TASKS
from test_evaluation_fixtures import benchmark_items


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def run_score(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["score", *argv])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture()
def folder(tmp_path) -> Path:
    """A benchmark folder as the build's benchmark asset writes it (questions.jsonl only)."""
    write_questions_jsonl(tmp_path / "bench" / "questions.jsonl", benchmark_items())
    return tmp_path / "bench"


def test_gold_answers_score_at_least_97_percent_and_abstentions_the_unanswerable_share(demo_home, tmp_path):
    items = read_questions_jsonl(demo_home / "benchmark" / "questions.jsonl")
    gold = write_jsonl(tmp_path / "gold.jsonl", [{"id": i.id, "answer": i.gold.answer} for i in items])
    code, out, err = run_score("--answers", str(gold), "--name", "gold", "--json", "--home", str(demo_home), "--no-save")
    assert code == 0, err
    result = json.loads(out)
    assert result["n"] == len(items) and result["accuracy"] >= 97.0
    abstain = write_jsonl(tmp_path / "abstain.jsonl",
                          [{"id": i.id, "answer": "Not established in the records."} for i in items])
    code, out, _ = run_score("--answers", str(abstain), "--name", "abstainer", "--json", "--home", str(demo_home),
                             "--no-save")
    share = sum(i.answer_status != "answerable" for i in items) / len(items)
    result = json.loads(out)
    assert result["accuracy"] == pytest.approx(round(100 * share, 1), abs=0.05) and 0 < share < 1
    assert result["by_task"]["unanswerable"] == 100.0 and result["by_task"]["extraction"] == 0.0


def test_the_json_shape_and_the_retrieval_metrics_equal_the_pipeline_s(demo_home, tmp_path):
    items = read_questions_jsonl(demo_home / "benchmark" / "questions.jsonl")
    answers = write_jsonl(tmp_path / "a.jsonl", [{"id": i.id, "answer": i.gold.answer} for i in items[::2]])
    rows = [json.loads(line) for line in
            (demo_home / "evaluation" / "retrieval" / "minilm" / "retrievals.jsonl").read_text().splitlines()]
    retrieved = write_jsonl(tmp_path / "r.jsonl", [{"id": r["question_id"], "retrieved": r["record_ids"]} for r in rows])
    code, out, err = run_score("--answers", str(answers), "--retrieved", str(retrieved), "--name", "mine", "--json",
                               "--home", str(demo_home), "--no-save")
    assert code == 0, err
    result = json.loads(out)
    assert {"name", "n", "accuracy", "by_task", "by_modality", "retrieval"} <= set(result)
    assert result["name"] == "mine" and result["n"] == len(items) and isinstance(result["accuracy"], float)
    assert set(result["by_task"]) == set(TASKS)
    assert set(result["by_modality"]) == {"text:1", "text:2+", "visual:1", "visual:2+", "text+visual:2+"}
    assert len(result["unanswered"]) == len(items) - len(items[::2])  # the others are judged wrong
    stored = json.loads((demo_home / "evaluation" / "retrieval" / "minilm" / "metrics.json").read_text())
    for name in ("recall@10", "recall@50", "recall@100", "ndcg@10", "mrr"):
        assert result["retrieval"][name] == pytest.approx(round(100 * stored[name], 1), abs=0.05)
    code, out, _ = run_score("--answers", str(answers), "--retrieved", str(retrieved), "--name", "mine",
                             "--home", str(demo_home), "--no-save")
    assert code == 0 and "**mine** (submitted)" in out and "reader-latest-mention" in out and "vs mine" in out
    assert "| mine (submitted) |" in out and "| bm25 |" in out and "| hybrid |" in out


def test_it_works_on_a_benchmark_folder(folder, tmp_path):
    answers = write_jsonl(tmp_path / "a.jsonl", [{"id": "q1", "answer": "0.412"}, {"id": "q3", "answer": "Bo Chen"},
                                                  {"id": "q4", "answer": "Not established in the records."}])
    code, out, err = run_score("--answers", str(answers), "--name", "tiny", "--json", "--home", str(folder))
    assert code == 0, err
    result = json.loads(out)
    assert result["n"] == 6 and result["accuracy"] == 50.0 and result["retrieval"] is None  # q1, q3; q4 declined
    assert result["by_task"]["interpretation"] is None  # no question of that task
    code, out, _ = run_score("--answers", str(answers), "--name", "tiny", "--home", str(folder))
    assert code == 0 and "**tiny** (submitted)" in out and "q2" in out  # unanswered questions are listed


@pytest.mark.parametrize("rows, field, line", [
    (['{"id": "q1", "answer": "0.412"}', '{"id": "q99", "answer": "x"}'], "field 'id': unknown question id 'q99'", 2),
    (['{"id": "q1", "answer": "0.412"', ], "not a JSON object", 1),
    (['{"id": "q1"}'], "field 'answer': missing", 1),
    (['{"id": "q1", "answer": 0.412}'], "field 'answer': expected a string", 1),
    (['', '{"answer": "x"}'], "field 'id': missing", 2),
    (['{"id": "q1", "answer": "a"}', '{"id": "q1", "answer": "b"}'], "field 'id': 'q1' again (first on line 1)", 2),
])
def test_a_bad_answer_row_stops_with_one_line_naming_file_line_and_field(folder, tmp_path, rows, field, line):
    path = tmp_path / "a.jsonl"
    path.write_text("\n".join(rows) + "\n")
    code, out, err = run_score("--answers", str(path), "--name", "x", "--home", str(folder))
    assert code == 2 and out == ""
    assert err.strip() == f"mmeb score: {path}:{line}: {field}" or (field in err and f"{path}:{line}:" in err)
    assert len(err.strip().splitlines()) == 1


def test_a_bad_retrieved_row_is_named(folder, tmp_path):
    answers = write_jsonl(tmp_path / "a.jsonl", [{"id": "q1", "answer": "0.412"}])
    retrieved = write_jsonl(tmp_path / "r.jsonl", [{"id": "q1", "retrieved": ["demo-slack-2"]},
                                                   {"id": "q2", "retrieved": "demo-slack-2"}])
    code, _, err = run_score("--answers", str(answers), "--retrieved", str(retrieved), "--name", "x",
                             "--home", str(folder))
    assert code == 2 and err.strip() == f"mmeb score: {retrieved}:2: field 'retrieved': expected a list of record id strings"


def test_a_folder_without_questions_is_named(tmp_path):
    shutil.rmtree(tmp_path / "none", ignore_errors=True)
    answers = write_jsonl(tmp_path / "a.jsonl", [])
    code, _, err = run_score("--answers", str(answers), "--name", "x", "--home", str(tmp_path / "none"))
    assert code == 2 and "no questions.jsonl" in err


def test_a_built_in_models_name_is_refused_in_one_line(folder, tmp_path):
    answers = write_jsonl(tmp_path / "a.jsonl", [{"id": "q1", "answer": "0.412"}])
    code, out, err = run_score("--answers", str(answers), "--name", "reader-oracle", "--home", str(folder))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "'reader-oracle' is a built-in model's name" in err and "models.yaml" in err


def test_a_name_kept_before_is_refused_unless_replaced(tmp_path):
    home = tmp_path / "home"
    write_questions_jsonl(home / "benchmark" / "questions.jsonl", benchmark_items())
    (home / "evaluation").mkdir()  # a build's home: its benchmark and its evaluation
    answers = write_jsonl(tmp_path / "a.jsonl", [{"id": "q1", "answer": "0.412"}])
    code, _, err = run_score("--answers", str(answers), "--name", "my rag", "--home", str(home))
    assert code == 0, err
    assert (home / "submitted" / "my_rag" / "answers.json").is_file()
    code, out, err = run_score("--answers", str(answers), "--name", "my rag", "--home", str(home))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "--replace" in err
    code, _, err = run_score("--answers", str(answers), "--name", "my rag", "--home", str(home), "--replace")
    assert code == 0, err


def test_a_kept_system_s_rows_join_the_report_and_its_csv_files(tmp_path):
    """`mmeb score` (kept by default) rewrites the report from the stored runs: the built-in rows stay as
    they were, the submitted system's rows appear in leaderboard.md, table5.csv, table6.csv and
    leaderboard.json, and its retrieval in Table 7a; scoring it again with --replace leaves one row."""
    import csv

    from view_fixture import build_view_fixture, submit_own_system

    home = build_view_fixture(tmp_path / "home")
    reports = home / "evaluation" / "reports"
    before = (reports / "table5.csv").read_text(encoding="utf-8")
    submit_own_system(home, "my rag")
    report = (reports / "leaderboard.md").read_text(encoding="utf-8")
    assert "*Submitted systems (mmeb score; own retrieval)*" in report
    rows5 = [line for line in report.splitlines() if line.startswith("| my rag |")]
    assert len(rows5) == 2 + 1  # one per Table 5 (k = 10, 50) and one in Table 6
    assert "| my rag (submitted) |" in report  # Table 7a: its own retrieval's metrics
    assert "Submitted systems (scored with `mmeb score`" in report
    table5 = list(csv.DictReader(io.StringIO((reports / "table5.csv").read_text(encoding="utf-8"))))
    own = [row for row in table5 if row["model"] == "my rag"]
    assert {row["group"] for row in own} == {"submitted"} and {row["k"] for row in own} == {"0"}
    assert {row["column"] for row in own} == set(TASKS) | {"overall"}
    by_column = {row["column"]: row for row in own}
    items = read_questions_jsonl(home / "benchmark" / "questions.jsonl")
    right = sum(1 for i in items if i.task == "extraction")  # submit_own_system answers extraction right only
    assert int(by_column["extraction"]["correct"]) == int(by_column["extraction"]["n"]) == right > 0
    assert int(by_column["overall"]["n"]) == len(items)
    assert all(row["vs_best"] == "" for row in own)  # not compared for the best
    old_rows = list(csv.DictReader(io.StringIO(before)))
    assert [row for row in table5 if row["group"] != "submitted"] == old_rows  # the built-in rows unchanged
    table6 = (reports / "table6.csv").read_text(encoding="utf-8")
    assert table6.count("my rag,submitted,0,") == 5
    board = json.loads((home / "benchmark" / "leaderboard.json").read_text(encoding="utf-8"))["data"]
    assert {c["model"] for c in board["cells"] if c["group"] == "submitted"} == {"my rag"}
    assert "my rag (submitted)" in board["retrieval"] and "minilm" in board["retrieval"]
    answers = write_jsonl(tmp_path / "again.jsonl", [{"id": i.id, "answer": i.gold.answer} for i in items])
    code, _, err = run_score("--answers", str(answers), "--name", "my rag", "--home", str(home), "--replace")
    assert code == 0 and str(reports / "leaderboard.md") in err
    table5 = list(csv.DictReader(io.StringIO((reports / "table5.csv").read_text(encoding="utf-8"))))
    overall = [row for row in table5 if row["model"] == "my rag" and row["column"] == "overall"]
    assert len(overall) == 1 and int(overall[0]["correct"]) >= right
    board = json.loads((home / "benchmark" / "leaderboard.json").read_text(encoding="utf-8"))["data"]
    assert "my rag (submitted)" not in board["retrieval"]  # scored again without --retrieved


def test_the_leaderboard_of_a_rebuild_keeps_the_submitted_rows(tmp_path):
    """The leaderboard asset reads the kept systems too, so rebuilding the report does not drop them."""
    from mmeb_assets.evaluation.leaderboard import build_leaderboard, load_runs
    from mmeb_assets.evaluation.submitted import submitted_runs
    from view_fixture import build_view_fixture, submit_own_system

    home = build_view_fixture(tmp_path / "home")
    submit_own_system(home, "mine")
    files = __import__("mmeb_assets.evaluation.submission", fromlist=["x"]).locate_benchmark(home)
    runs, _ = load_runs(home, [("model-a", 10)])
    board, markdown = build_leaderboard(runs + submitted_runs(home, set(files.items)), files.benchmark, files.corpus,
                                        tmp_path / "reports")
    assert "| mine |" in markdown and "| model-a |" in markdown
    assert {c.group for c in board.cells if c.model == "mine"} == {"submitted"}
