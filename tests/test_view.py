"""The results browser's site, built from a small hand-written build (tests/view_fixture.py): what it
writes, that its data equals the report's, that nothing in it can run data as code, the seed page of a
question, the Dagster asset and the CLI. The browser itself: tests/test_view_browser.py."""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from mmeb_assets.view.site import SITE_FILES, STATIC, js_data

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def data_of(site: Path, relative: str):
    text = (site / relative).read_text(encoding="utf-8")
    match = re.fullmatch(r'MMEB\.put\(("[^"]*"),(.*)\);\n', text, flags=re.S)
    assert match, f"{relative} is not one MMEB.put(key, data) call"
    return json.loads(match.group(2))


def test_the_site_has_its_shell_a_board_and_one_file_per_question(view_site):
    home = view_site.parent / "home"
    for name in SITE_FILES:
        assert (view_site / name).is_file()
    questions = (home / "benchmark" / "questions.jsonl").read_text().splitlines()
    index = data_of(view_site, "data/index.js")
    assert [row[0] for row in index] == [json.loads(q)["id"] for q in questions]
    assert len(list((view_site / "data" / "q").rglob("*.js"))) == len(questions)
    board = data_of(view_site, "data/board.js")
    assert board["n_questions"] == len(questions) and len(board["runs"]) == 9  # 4 models x 2 k + the submitted one


def test_every_table5_cell_equals_the_report_csv(view_site):
    home = view_site.parent / "home"
    board = data_of(view_site, "data/board.js")
    cells = {(c["m"], c["k"], c["c"]): c for c in board["cells"] if c["t"] == "table5"}
    with (home / "evaluation" / "reports" / "table5.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert rows
    for row in rows:
        cell = cells[(row["model"], int(row["k"]), row["column"])]
        assert (cell["acc"], cell["lo"], cell["hi"], cell["n"]) == \
            (float(row["accuracy"]), float(row["ci_low"]), float(row["ci_high"]), int(row["n"]))


def test_a_system_scored_with_mmeb_score_is_a_run_with_cells_answers_and_a_retriever(view_site):
    board = data_of(view_site, "data/board.js")
    mine = [r for r in board["runs"] if r["model"] == "my-rag"]
    assert len(mine) == 1 and mine[0]["submitted"] and mine[0]["group"] == "submitted"
    assert {c["t"] for c in board["cells"] if c["m"] == "my-rag"} == {"table5", "table6", "table7"}
    assert "my-rag (submitted)" in board["retrievers"]
    question = data_of(view_site, "data/q/0/0.js")
    assert any(a["model"] == "my-rag" for a in question["answers"])
    assert any(r["retriever"] == "my-rag (submitted)" and r["metrics"]["mrr"] == 1.0 for r in question["retrieval"])


def test_the_paired_test_is_the_report_s(view_site):
    from mmeb_assets.evaluation.intervals import paired_difference
    from mmeb_assets.schema.evaluation import JudgmentSet

    home = view_site.parent / "home"
    outcomes = {}
    for model in ("model-a", "model-b"):
        envelope = json.loads((home / "evaluation" / model / "k10" / "judgments.json").read_text())
        outcomes[model] = {j.question_id: j.correct for j in JudgmentSet.model_validate(envelope["data"]).judgments}
    pairs = data_of(view_site, "data/pairs.js")
    assert pairs["model-a@10|model-b@10"] == list(paired_difference(outcomes["model-a"], outcomes["model-b"]))


def test_a_table_value_gets_its_seed_page_boxed_and_a_world_only_fact_says_why_not(view_site):
    index = [row[0] for row in data_of(view_site, "data/index.js")]
    lookup = data_of(view_site, f"data/q/0/{index.index('aurora-q01')}.js")
    seed = lookup["seed"]
    assert seed["page"] == 1 and seed["boxed"] and seed["quote"] == "0.628" and "row 'BM25'" in seed["what"]
    assert (view_site / seed["png"]).stat().st_size > 1000
    who = data_of(view_site, f"data/q/0/{index.index('aurora-q06')}.js")
    assert "png" not in who["seed"] and "world-only" in who["seed"]["why"]


def test_question_health_lists_what_every_model_misses_and_what_a_reader_gets(view_site):
    board = data_of(view_site, "data/board.js")
    index = data_of(view_site, "data/index.js")
    missed = {index[e["i"]][0] for e in board["health"]["missed"]}
    beaten = {index[e["i"]][0] for e in board["health"]["beaten"]}
    assert missed and beaten <= missed
    assert all(e["readers"] for e in board["health"]["beaten"])
    assert board["health"]["rejected"] == []  # every fixture gold passes the judge


def test_no_code_path_turns_data_into_markup():
    """The static app renders data with textContent / createTextNode only, and loads nothing remote."""
    for path in STATIC.iterdir():
        text = path.read_text(encoding="utf-8")
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
            assert sink not in text, f"{path.name} uses {sink}"
        assert not re.search(r"(src|href)=\"(https?:)?//", text), f"{path.name} references a remote URL"


def test_a_data_file_cannot_close_a_script_tag():
    text = js_data("q:1", {"text": "</script><script>alert(1)</script>\u2028"})
    assert "</" not in text and "\u2028" not in text
    assert json.loads(text[len('MMEB.put("q:1",'):-3]) == {"text": "</script><script>alert(1)</script>\u2028"}


def test_the_asset_writes_the_site_with_metadata(tmp_path):
    import dagster as dg

    from mmeb_assets.view.assets import results_view
    from mmeb_resources.storage import StorageResource
    from view_fixture import build_view_fixture

    home = build_view_fixture(tmp_path / "home")
    result = dg.materialize([results_view], resources={"storage": StorageResource(home=str(home))},
                            instance=dg.DagsterInstance.ephemeral())
    assert result.success
    metadata = result.asset_materializations_for_node("results_view")[0].metadata
    assert metadata["questions"].value == 15 and "Results browser" in metadata["preview"].value
    assert (home / "view" / "index.html").is_file()


def test_the_view_is_downstream_of_the_leaderboard_and_the_lineage():
    from mmeb_assets.view.assets import results_view

    assert {key.to_user_string() for key in results_view.dependency_keys} == {"leaderboard", "record_lineage"}


def test_mmeb_view_on_a_home_without_results_says_so_in_one_line(tmp_path, capsys):
    from mmeb_assets.cli import main

    assert main(["view", "--home", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("mmeb view:")


def check_demo_site(home: Path) -> None:
    """The demo build wrote the site (the `results_view` asset) and said where; its Table 5 is the report's."""
    board = data_of(home / "view", "data/board.js")
    cells = {(c["m"], c["k"], c["c"]): c for c in board["cells"] if c["t"] == "table5"}
    with (home / "evaluation" / "reports" / "table5.csv").open() as handle:
        for row in csv.DictReader(handle):
            cell = cells[(row["model"], int(row["k"]), row["column"])]
            assert (cell["acc"], cell["lo"], cell["hi"]) == \
                (float(row["accuracy"]), float(row["ci_low"]), float(row["ci_high"]))
    questions = (home / "benchmark" / "questions.jsonl").read_text().splitlines()
    assert len(list((home / "view" / "data" / "q").rglob("*.js"))) == len(questions)


def test_the_demo_build_writes_the_site_and_prints_where_it_is(demo_home):
    check_demo_site(demo_home)
    assert f"results:    {(demo_home / 'view' / 'index.html').as_uri()}" in (demo_home / "demo.log").read_text()


def test_two_writes_of_the_same_build_are_byte_identical(view_site, tmp_path):
    """Issue 53: the site carried the wall-clock time it was written, so two builds of the same inputs
    differed in data/board.js. Written again from the same home, every file is the same."""
    from mmeb_assets.view.load import load_build
    from mmeb_assets.view.site import write_site

    again = tmp_path / "site"
    write_site(load_build(view_site.parent / "home"), again)
    files = sorted(p.relative_to(view_site) for p in view_site.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    differ = [str(f) for f in files if (view_site / f).read_bytes() != (again / f).read_bytes()]
    assert differ == []
    assert data_of(again, "data/board.js")["generated"].startswith("from leaderboard ")
