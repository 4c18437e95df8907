"""The strict rules judge: the hand-labelled set meets the target, every reason code fires where it
should, and `mmeb judge` reads, validates and writes files as documented."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from mmeb_assets.cli import main
from mmeb_assets.judge.llm import judge_rules
from mmeb_assets.evaluation.judge_cases import load_cases, tally
from mmeb_assets.qa.export import question_row
from mmeb_assets.schema.qa import TASKS, Derivation, Gold, QAItem
from test_evaluation_fixtures import PROV

NEAR_MISSES = {"entity_substring", "entity_superset", "entity_lookalike", "precision", "unit", "scale", "direction",
               "margin", "missing_component", "extra_component", "order", "hedge", "superseded", "false_abstention",
               "answered_unanswerable"}


def test_labelled_set_covers_every_task_and_near_miss():
    cases = load_cases()
    assert len(cases) >= 300
    assert {c.item.task for c in cases} == set(TASKS)
    kinds = Counter(c.kind for c in cases)
    assert NEAR_MISSES <= set(kinds) and kinds["paraphrase"] >= 100
    assert len({(c.item.q, c.candidate) for c in cases}) == len(cases)  # no duplicated case


@pytest.mark.parametrize("name", ["judge_cases.yaml", "judge_cases_holdout.yaml"])
def test_rules_judge_meets_the_target_on_the_labelled_set(name):
    cases = load_cases(Path(__file__).parent / "data" / name)
    verdicts = [judge_rules(c.item, c.candidate) for c in cases]
    overall = tally(cases, [v.correct for v in verdicts])["all"]["all"]
    assert overall.agree / overall.n >= 0.97, overall.row()
    assert overall.false_accepts / overall.n <= 0.02, overall.row()
    assert all(v.code and v.reason.startswith(v.code) for v in verdicts)


def test_rules_judge_on_the_blind_set():
    """Issue 38's target on the blind set: 97% agreement, at most 1% false accepts."""
    cases = load_cases(Path(__file__).parent / "data" / "judge_cases_blind.yaml")
    overall = tally(cases, [judge_rules(c.item, c.candidate).correct for c in cases])["all"]["all"]
    assert len(cases) >= 200
    assert overall.agree / overall.n >= 0.97, overall.row()
    assert overall.false_accepts / overall.n <= 0.01, overall.row()


def qa(q: str, task: str, answer: str, value: str | None, unit: str = "", status: str = "answerable",
       **derivation) -> QAItem:
    return QAItem(id="t1", project="demo", task=task, q=q, answer_status=status,
                  gold=Gold(answer=answer, value=value, unit=unit), generator="rules:test", provenance=PROV,
                  derivation=Derivation(**derivation) if derivation else None)


SIZE = qa("What value did the team measure for the index size?", "extraction", "14.2 GB", "14.2", unit="GB")
OWNER = qa("What is the owner of the checklist at the end of the week?", "temporal_conflict", "Lena Berg",
           "Lena Berg", kind="version_latest", competing_values=["Bo Chen"])
LATEST = qa("What is the sample at the end of the week?", "temporal_conflict", "3,500 queries", "3,500 queries",
            kind="version_latest", competing_values=["5,000 queries"])
TIME = qa("What is the training time?", "extraction", "12 h 30 min", "12 h 30 min")
PAIR = qa("Which has the higher MRR: SPECTER or SciNCL, and by how much?", "comparison",
          "SciNCL: 0.377 vs 0.351 (by 0.026)", "SciNCL", kind="rank", premise_values=["SPECTER", "SciNCL"])
DIFF = qa("How much higher or lower is the latency of A than that of B?", "computation", "185 ms lower (45 vs 230)",
          "-185", unit="ms", kind="difference")
SEQ = qa("List the values the sample took during the week, in order.", "temporal_conflict",
         "2,000 queries -> 5,000 queries -> 3,500 queries", "2,000 queries -> 5,000 queries -> 3,500 queries",
         kind="version_sequence")
WHO = qa("Who flagged it, and who posted the correction?", "attribution", "Bo Chen; Keiko Sato",
         "Bo Chen; Keiko Sato", kind="author")
CLAIM = qa("Do the records support the claim that it grew by at least 750?", "interpretation", "Yes: ...", "Yes",
           kind="claim_check")
UNS = qa("What is the nDCG@10 of run_09?", "unanswerable", "Not established.", None, status="unanswerable",
         kind="absent_premise")
DEADLINE = qa("What is the deadline at the end of the week?", "temporal_conflict", "Fri 12 Sep, 10:00",
              "Fri 12 Sep, 10:00", kind="version_latest", competing_values=["Thu 11 Sep, 12:00"])


@pytest.mark.parametrize("item,candidate,code", [
    (SIZE, "14.2 GB", "correct_exact"),
    (SIZE, "The index takes 14,200 megabytes.", "correct_match"),
    (TIME, "750 minutes", "correct_match"),
    (SIZE, "14.2 MB", "wrong_unit"),
    (SIZE, "14 GB", "wrong_precision"),
    (SIZE, "12.4 GB", "wrong_value"),
    (OWNER, "Bo Chen", "superseded_value"),
    (OWNER, "It was Lena Berg, then it moved to Bo Chen.", "superseded_value"),
    (OWNER, "It moved from Bo Chen to Lena Berg.", "correct_match"),
    (OWNER, "Lena", "entity_mismatch"),
    (OWNER, "Lena Bergman", "entity_mismatch"),
    (OWNER, "Lena Berg-Olsen", "entity_mismatch"),
    (OWNER, "Lena Berg or Bo Chen", "hedge"),
    (LATEST, "Either 3,500 or 5,000 queries.", "hedge"),
    (OWNER, "Lena Berg and Tom Okafor", "extra_component"),
    (OWNER, "The records do not say who owns it.", "false_abstention"),
    (PAIR, "SciNCL, by 0.026", "correct_choice"),
    (PAIR, "SPECTER is lower than SciNCL by 0.026.", "correct_choice"),
    (PAIR, "SPECTER, by 0.026", "wrong_direction"),
    (PAIR, "Between SPECTER and SciNCL, SciNCL has the higher MRR, by 0.026.", "correct_choice"),
    (PAIR, "Of the two, SPECTER has the higher MRR, by 0.026.", "wrong_direction"),
    (PAIR, "SciNCL, by 0.062", "wrong_margin"),
    (PAIR, "SciNCL is higher.", "missing_component"),
    (DIFF, "185 ms higher", "wrong_direction"),
    (DIFF, "0.185 s lower", "correct_match"),
    (SEQ, "2,000, then 5,000, then 3,500 queries", "correct_sequence"),
    (SEQ, "2,000 -> 3,500 -> 5,000 queries", "wrong_order"),
    (SEQ, "2,000 queries, then 3,500 queries", "missing_component"),
    (SEQ, "2,000 -> 5,000 -> 4,000 -> 3,500 queries", "extra_component"),
    (WHO, "Bo Chen flagged it and Keiko Sato corrected it.", "correct_list"),
    (WHO, "Bo Chen flagged it.", "missing_component"),
    (WHO, "Bo Chen flagged it; Keiko Sato and Tom Okafor corrected it.", "extra_component"),
    (CLAIM, "Yes, it grew by 1,500.", "correct_verdict"),
    (CLAIM, "No.", "wrong_verdict"),
    (CLAIM, "Yes and no.", "hedge"),
    (CLAIM, "It grew a lot.", "no_verdict"),
    (CLAIM, "Not established in the records.", "false_abstention"),  # a leading "Not" that declines is no "no"
    (CLAIM, "Not supported: it grew by 1,000.", "wrong_verdict"),
    (UNS, "The records do not mention run_09.", "correct_abstention"),
    (UNS, "0.405", "answered_unanswerable"),
    (UNS, "Not stated, but probably 0.41.", "answered_unanswerable"),
    (DEADLINE, "Friday, September 12 at 10am", "correct_match"),
    (DEADLINE, "Thu 11 Sep, 12:00", "superseded_value"),
    (DEADLINE, "Friday 12 September", "wrong_precision"),
    (SIZE, "", "no_answer"),
])
def test_each_reason_code(item, candidate, code):
    found = judge_rules(item, candidate)
    assert found.code == code, found.reason
    assert found.correct is code.startswith("correct")


def write_jsonl(path, rows):
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")


@pytest.fixture()
def files(tmp_path):
    items = [qa("What is the index size?", "extraction", "14.2 GB", "14.2", unit="GB").model_copy(update={"id": "a"}),
             OWNER.model_copy(update={"id": "b"}), UNS.model_copy(update={"id": "c"})]
    write_jsonl(tmp_path / "q.jsonl", [question_row(i) for i in items])
    return tmp_path


def run_judge(folder, *extra):
    return main(["judge", "--questions", str(folder / "q.jsonl"), "--answers", str(folder / "a.jsonl"),
                 "--out", str(folder / "v.jsonl"), *extra])


def test_mmeb_judge_writes_one_verdict_per_question_and_lists_missing_answers(files, capsys):
    write_jsonl(files / "a.jsonl", [{"id": "a", "answer": "14.2 gigabytes"}, {"id": "b", "answer": "Bo Chen"}])
    assert run_judge(files) == 0
    rows = [json.loads(line) for line in (files / "v.jsonl").read_text().splitlines()]
    assert [(r["id"], r["correct"], r["code"]) for r in rows] == [
        ("a", True, "correct_match"), ("b", False, "superseded_value"), ("c", False, "no_answer")]
    assert all({"id", "correct", "reason"} <= set(r) and r["judge"] == "rules" for r in rows)
    out = capsys.readouterr()
    assert "1 question(s) had no answer" in out.err and "c" in out.err.split(":")[-1]
    assert "1 correct" in out.out


def test_mmeb_judge_explain_prints_the_gold_parts_matched_and_missed(files, capsys):
    from mmeb_assets.evaluation.judge_explain import gold_parts

    listed = qa("Which documents still showed the old value?", "cross_source_conflict", "Report v1; Tracker",
                "Report v1; Tracker").model_copy(update={"id": "d"})
    rows = (files / "q.jsonl").read_text().splitlines() + [json.dumps(question_row(listed))]
    write_jsonl(files / "q.jsonl", rows)
    write_jsonl(files / "a.jsonl", [{"id": "a", "answer": "14.2 gigabytes"}, {"id": "b", "answer": "Bo Chen"},
                                    {"id": "d", "answer": "Only the Report v1 did."}])
    assert gold_parts(listed) == ["Report v1", "Tracker"]
    assert run_judge(files, "--explain") == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line[:2] in ("a ", "d ", "c ")}
    assert lines["a"].split()[1] == "RIGHT" and "missed: -" in lines["a"]
    assert lines["d"].split()[1] == "WRONG" and "matched: Report v1" in lines["d"] and "missed: Tracker" in lines["d"]
    assert "no_answer" in lines["c"]


@pytest.mark.parametrize("answers,where", [
    ([{"id": "a", "answer": "x"}, {"id": "zz", "answer": "y"}], "a.jsonl:2: field 'id': unknown question id 'zz'"),
    ([{"id": "a", "answer": "x"}, "{not json"], "a.jsonl:2: field '-': not valid JSON"),
    ([{"id": "a"}], "a.jsonl:1: field 'answer': missing or not a string"),
    ([{"answer": "x"}], "a.jsonl:1: field 'id': missing or not a string"),
])
def test_mmeb_judge_stops_on_bad_answers_with_file_line_and_field(files, capsys, answers, where):
    write_jsonl(files / "a.jsonl", answers)
    assert run_judge(files) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and where in err
    assert not (files / "v.jsonl").exists()


def test_mmeb_judge_stops_on_a_malformed_question_row(files, capsys):
    rows = (files / "q.jsonl").read_text().splitlines()
    broken = json.loads(rows[1])
    broken["task"] = "guessing"
    write_jsonl(files / "q.jsonl", [rows[0], json.dumps(broken)])
    write_jsonl(files / "a.jsonl", [{"id": "a", "answer": "x"}])
    assert run_judge(files) == 2
    err = capsys.readouterr().err.strip()
    assert "q.jsonl:2: field 'task'" in err and len(err.splitlines()) == 1


def test_mmeb_judge_with_a_registry_model_uses_the_llm_judge(files, capsys, monkeypatch, tmp_path):
    from openai_test_server import OpenAITestServer

    def grader(payload):
        fields = json.loads(payload["messages"][1]["content"])
        return json.dumps({"correct": "gigabytes" in fields["candidate_answer"], "reason": "compared"})

    write_jsonl(files / "a.jsonl", [{"id": "a", "answer": "14.2 gigabytes"}, {"id": "b", "answer": "Bo Chen"}])
    monkeypatch.setenv("MMEB_HOME", str(tmp_path / "home"))
    with OpenAITestServer(grader) as server:
        monkeypatch.setenv("MMEB_GPT56_LUNA_URL", server.base_url)
        assert run_judge(files, "--judge", "gpt-5.6-luna") == 0
        asked = len(server.requests)
    rows = {r["id"]: r for r in map(json.loads, (files / "v.jsonl").read_text().splitlines())}
    assert asked == 2 and rows["a"]["correct"] and not rows["b"]["correct"]
    assert rows["a"]["judge"] == "llm:gpt-5.6-luna" and rows["c"]["code"] == "no_answer"
    assert run_judge(files, "--judge", "no-such-model") == 2
    assert "no-such-model" in capsys.readouterr().err


def test_mmeb_judge_reads_the_flat_export_layout(tmp_path):
    from mmeb_assets.qa.export import flat_row

    items = [OWNER.model_copy(update={"id": "b"}), SIZE.model_copy(update={"id": "a"})]
    write_jsonl(tmp_path / "q.jsonl", [flat_row(i) for i in items])
    write_jsonl(tmp_path / "a.jsonl", [{"id": "a", "answer": "14,200 MB"}, {"id": "b", "answer": "Bo Chen"}])
    assert run_judge(tmp_path) == 0
    rows = [json.loads(line) for line in (tmp_path / "v.jsonl").read_text().splitlines()]
    assert [(r["id"], r["code"]) for r in rows] == [("b", "superseded_value"), ("a", "correct_match")]


@pytest.mark.parametrize("text, digits", [
    ("eleven open findings", "11 open findings"), ("Four thousand five hundred queries", "4500 queries"),
    ("one hundred nine thousand nine hundred eighty-three", "109983"), ("the final one", "the final one"),
    ("1.85 thousand respondents", "1.85 thousand respondents"), ("three and a half gigabytes", "3.5 gigabytes"),
])
def test_numbers_in_words(text, digits):
    from mmeb_assets.judge.number_words import words_to_digits
    assert words_to_digits(text) == digits


def test_roles_given_to_the_wrong_people_are_wrong():
    item = qa("Who flagged the latency that Ana gave as 1.2 s, and who posted the correction?", "attribution",
              "Lena Berg flagged it; Ana Ruiz posted the correction", "Lena Berg; Ana Ruiz")
    assert judge_rules(item, "Lena Berg flagged it and Ana Ruiz posted the fix.").correct
    assert judge_rules(item, "It was flagged by Lena Berg; Ana Ruiz posted the correction.").correct
    swapped = judge_rules(item, "Ana Ruiz flagged it and Lena Berg posted the correction.")
    assert not swapped.correct and swapped.code == "role_swap"


def test_a_gold_printed_in_words_matches_itself_and_its_digits():
    """'The Framework Core consists of five Functions': the gold 'five' is judged as the candidate is."""
    five = qa("What do the records give as the number of Functions of the Framework Core?", "extraction",
              "five", "five", kind="lookup", operands=["five"])
    assert judge_rules(five, "five").correct and judge_rules(five, "5 Functions").correct
    assert not judge_rules(five, "six").correct and not judge_rules(five, "4").correct


DIET = qa("The Slack message and the Notion page give different values for the kcal/day of carbohydrates of LARN. "
          "Which value is right?", "cross_source_conflict", "1455: the Notion page shows 1545, which was corrected "
          "to 1455.", "1455", kind="conflict_resolution", competing_values=["1545"])
POSTERS = qa("Who posted each of the values the budget took during the week, in order?", "temporal_conflict",
             "EUR 22,500 (posted by Freya Ezekwu); EUR 15,500 (posted by Roksana Matsuguchi)",
             "Freya Ezekwu; Roksana Matsuguchi", kind="version_history")
MARGIN = qa("Which has the higher goth: the Ablated NVA or the All, and by how much?", "comparison",
            "All: 0.87 vs 0.72 (by 0.15)", "All", kind="comparison", operands=["0.87", "0.72"])
GAP = qa("Do the recorded values support the claim that the fluency of A exceeds that of B by at least 17.1?",
         "interpretation", "No: 91.0 vs 82.5 is a gap of 8.5, less than 17.1.", "no", kind="claim_check")
NOT_KNOWN = qa("How much higher or lower is the bootstrap Q1 Info of the Not Sure than that of GS Significant?",
               "unanswerable", "Not established: the records contain no bootstrap Q1 Info.", None,
               status="unanswerable")


STALE_DOCS = qa("When the peak GPU memory was corrected, which documents then current still showed the old value?",
                "cross_source_conflict", "Quiet Foxglove evaluation report v1 (showing 35.6 MB instead of 35.6 GB)",
                "Quiet Foxglove evaluation report v1", kind="stale_sources")


@pytest.mark.parametrize("item,candidate,right", [
    (STALE_DOCS, "Just one: the v1 evaluation report of Quiet Foxglove (it had MB where GB was meant).", True),
    (STALE_DOCS, "The Quiet Foxglove evaluation report v1 and the Notion results log.", False),  # an extra document
    (STALE_DOCS, "The Quiet Foxglove evaluation report v1; the Notion log had already been updated.", True),
    (STALE_DOCS, "The Notion results log.", False),
    (DIET, "1455 kcal/day is correct; the Notion log's 1545 was corrected to 1455.", True),  # 'kcal/day' is a unit
    (DIET, "1455 is right; the 1545 on the Notion page was a typo.", True),   # the rival marked as a typo
    (DIET, "1455 or 1545, the records disagree.", False),
    (POSTERS, "1) EUR 22,500 - Freya Ezekwu\n2) EUR 15,500 - Roksana Matsuguchi", True),  # ' - ' is a dash
    (MARGIN, "All is higher, by fifteen hundredths.", True),
    (MARGIN, "All is higher, by fifteen tenths.", False),
    (GAP, "No - the gap is 9.5 points, short of 17.1.", False),  # right verdict, wrong reason
    (GAP, "No: the gap is only 8.5 points (91.0 against 82.5).", True),
    (NOT_KNOWN, "The records do include NSFC counts (e.g. Agree 44, Agree Strongly 25), but no bootstrap Q1 Info "
                "figure, so I can't give a difference.", True),  # says what the records hold, then declines
    (NOT_KNOWN, "I can't be sure, but it is 12 lower.", False),
])
def test_answers_are_judged_by_what_they_assert(item, candidate, right):
    assert judge_rules(item, candidate).correct is right, judge_rules(item, candidate).reason
