"""Evaluation assets on hand-built inputs: answers / judgments / leaderboard in Dagster, the served-model
path over real HTTP (images, cache), a report equal to a hand computation, and `mmeb report`."""
from __future__ import annotations

import csv
import io
from contextlib import nullcontext, redirect_stdout

import dagster as dg
import pytest
from PIL import Image

from mmeb_assets.evaluation import cli as eval_cli
from mmeb_assets.evaluation.answering import build_answers, llm_for_spec, stratified_sample
from mmeb_assets.evaluation.assets import answers, judgments, leaderboard
from mmeb_assets.evaluation.leaderboard import build_leaderboard
from mmeb_resources.model_registry import ModelSpec, load_registry
from mmeb_assets.evaluation.intervals import accuracy_interval
from mmeb_assets.evaluation.report import Run
from mmeb_assets.provenance import make_provenance
from mmeb_assets.schema.evaluation import AnswerSet, Judgment, JudgmentSet
from mmeb_assets.schema.qa import Benchmark
from mmeb_resources.gpu import GPUResource
from mmeb_resources.io_manager import PydanticJsonIOManager
from mmeb_resources.storage import StorageResource
from openai_test_server import OpenAITestServer
from test_evaluation_fixtures import benchmark, corpus, item, retrieval_set


@dg.asset(name="benchmark")
def benchmark_fixture() -> Benchmark:
    return benchmark()


@dg.asset(name="corpus")
def corpus_fixture():
    return corpus()


@dg.asset(name="retrievals", partitions_def=dg.StaticPartitionsDefinition(["minilm"]))
def retrievals_fixture():
    return retrieval_set()


def resources(home):
    return {"storage": StorageResource(home=str(home)), "io_manager": PydanticJsonIOManager(home=str(home)),
            "gpu": GPUResource()}


ALL = [benchmark_fixture, corpus_fixture, retrievals_fixture, answers, judgments, leaderboard]


@pytest.fixture(autouse=True)
def answers_read_the_fixture_retriever(monkeypatch):
    """The hand-built retrievals are one `minilm` partition; the configured answering retriever is another."""
    monkeypatch.setenv("MMEB_EVAL_RETRIEVER", "minilm")


def test_reader_partitions_and_leaderboard_materialize(mmeb_home):
    res = resources(mmeb_home)
    assert dg.materialize(ALL, resources=res, selection=["benchmark", "corpus"]).success
    assert dg.materialize(ALL, resources=res, selection=["retrievals"], partition_key="minilm").success
    for model in ("reader-latest-mention", "reader-first-mention", "reader-oracle"):
        key = dg.MultiPartitionKey({"model": model, "k": "10"})
        result = dg.materialize(ALL, resources=res, selection=["answers", "judgments"], partition_key=key)
        assert result.success
    from mmeb_resources.io_manager import _load

    latest = _load(mmeb_home / "evaluation" / "reader-latest-mention" / "k10" / "judgments.json")
    oracle = _load(mmeb_home / "evaluation" / "reader-oracle" / "k10" / "answers.json")
    assert isinstance(latest, JudgmentSet) and latest.judge == "rules" and len(latest.judgments) == 6
    assert oracle.evidence == "gold" and oracle.answers[0].record_ids == ["demo-slack-2"]
    assert oracle.recall_at_k == 1.0 and oracle.recall_source == "retrievals"
    board_run = dg.materialize(ALL, resources=res, selection=["leaderboard"])
    assert board_run.success
    board = board_run.output_for_node("leaderboard")
    assert "smollm2-135m@k10" in board.missing
    reports = mmeb_home / "evaluation" / "reports"
    text = (reports / "leaderboard.md").read_text()
    assert "Table 5" in text and "Table 6" in text and "Table 7" in text and "reader-oracle" in text
    for name in ("overall_accuracy.png", "evidence_modality.png", "recall_vs_accuracy.png"):
        with Image.open(reports / name) as png:
            assert png.format == "PNG" and png.size[0] > 100
    rows = list(csv.DictReader(open(reports / "table5.csv")))
    assert {r["model"] for r in rows} == {"reader-latest-mention", "reader-first-mention", "reader-oracle"}
    meta = board_run.asset_materializations_for_node("leaderboard")[0].metadata
    assert "Table 5" in meta["tables"].value


def hand_run(model: str, k: int, outcomes: dict[str, bool], group: str = "offline", recall: float = 0.5) -> Run:
    prov = make_provenance("benchmark", "evaluation", "rules")
    answer_set = AnswerSet(model=model, k=k, retriever="minilm", backend="reader", n_questions=6, recall_at_k=recall,
                           answers=[], provenance=prov)
    js = [Judgment(question_id=q, model=model, k=k, correct=c, reason="", judge="rules") for q, c in outcomes.items()]
    return Run(answers=answer_set, judgments=JudgmentSet(model=model, k=k, judge="rules", judgments=js,
                                                          provenance=prov), group=group)


def test_report_equals_the_hand_computation(tmp_path):
    # q1 temporal (text, 1), q2 extraction (visual, 1), q3 attribution (text, 1), q4 unanswerable,
    # q5 computation (text, 2), q6 comparison (text+visual, 2)
    a = hand_run("model-a", 10, {"q1": True, "q2": False, "q3": True, "q4": True, "q5": False, "q6": True})
    b = hand_run("model-a", 50, {"q1": True, "q2": True, "q3": True, "q4": False, "q5": True, "q6": True},
                 recall=0.75)
    board, markdown = build_leaderboard([a, b], benchmark(), corpus(), tmp_path)
    cell = {(c.table, c.k, c.column): c for c in board.cells}
    assert cell[("table5", 10, "overall")].accuracy == round(100 * 4 / 6, 1) == 66.7
    assert cell[("table5", 50, "overall")].accuracy == 83.3
    assert cell[("table5", 10, "extraction")].accuracy == 0.0 and cell[("table5", 10, "extraction")].n == 1
    assert cell[("table5", 10, "unanswerable")].accuracy == 100.0
    assert cell[("table5", 10, "interpretation")].n == 0
    assert (cell[("table6", 10, "text:1")].n, cell[("table6", 10, "text:1")].correct) == (2, 2)
    assert (cell[("table6", 10, "visual:1")].n, cell[("table6", 10, "visual:1")].accuracy) == (1, 0.0)
    assert (cell[("table6", 10, "text:2+")].n, cell[("table6", 10, "text:2+")].accuracy) == (1, 0.0)
    assert (cell[("table6", 10, "text+visual:2+")].n, cell[("table6", 10, "text+visual:2+")].accuracy) == (1, 100.0)
    assert cell[("table7", 50, "minilm@50")].accuracy == 83.3
    assert board.recall == {"minilm": {"10": 50.0, "50": 75.0}}
    overall = cell[("table5", 10, "overall")]
    assert overall.ci_low <= overall.accuracy <= overall.ci_high and 0 <= overall.ci_low and overall.ci_high <= 100
    assert accuracy_interval({f"q{i}": True for i in range(5)})[1] == 100.0
    assert accuracy_interval({f"q{i}": i % 2 == 0 for i in range(100)})[0] < 50
    assert "| # questions | 1 | 1 | 1 | 1 | 0 | 0 | 1 | 1 | 6 |" in markdown
    assert "66.7 (" in markdown and "| Evidence Recall@k | 50.0 | 75.0 |" in markdown


def test_served_model_answers_with_images_and_the_rerun_makes_no_request(mmeb_home):
    image = mmeb_home / "projects" / "demo" / "pages" / "report-p2.png"
    image.parent.mkdir(parents=True)
    Image.new("RGB", (8, 8), "white").save(image)
    from mmeb_assets.evaluation.prompting import project_image_loader

    loader = project_image_loader(lambda seed: mmeb_home / "projects" / seed)
    with OpenAITestServer(lambda p: "0.412") as server:
        spec = ModelSpec(name="served-vl", backend="openai", model="test-model", endpoint=server.base_url,
                         vision=True, max_tokens=64)
        factory = lambda: nullcontext(llm_for_spec(spec, mmeb_home))  # noqa: E731
        first, llm = build_answers(spec, 10, benchmark(), retrieval_set(), corpus(), llm_factory=factory,
                                   image_loader=loader)
        assert len(server.requests) == 6 + 4   # the questions, then the 4 injection probes
        body = server.requests[0]
        assert body["max_tokens"] == 64 and body["temperature"] == 0
        parts = body["messages"][1]["content"]
        assert any(p["type"] == "image_url" for p in parts) and "\nQuestion:" in parts[-1]["text"]
        again, llm2 = build_answers(spec, 10, benchmark(), retrieval_set(), corpus(), llm_factory=factory,
                                    image_loader=loader)
        assert len(server.requests) == 10, "unchanged inputs must be answered from the cache"
    assert again.model_dump() == first.model_dump()
    assert all(a.images == 1 and not a.text_only for a in first.answers)
    assert first.answers[0].prompt_tokens == 10 and llm2.usage("evaluation.answers").cache_hits == 6


def test_sampling_is_fixed_stratified_and_recorded():
    items = [item(f"x{i}", task, "Q?", "a", "a", []) for i, task in
             enumerate(["extraction"] * 6 + ["unanswerable"] * 3 + ["computation"] * 3)]
    bench = Benchmark(items=items, projects=["demo"])
    sample = stratified_sample(bench.items, 6)
    assert len(sample) == 6
    assert {i.id for i in stratified_sample(list(reversed(bench.items)), 6)} == {i.id for i in sample}
    assert {i.task for i in sample} == {"extraction", "unanswerable", "computation"}
    assert [i.id for i in stratified_sample(bench.items, 6)] == [i.id for i in sample]
    spec = load_registry().get("smollm2-135m")
    assert spec.sample_size and spec.max_prompt_tokens and not spec.vision and spec.backend == "transformers"


def test_mmeb_report_prints_the_tables(tmp_path, monkeypatch):
    a = hand_run("model-a", 10, {"q1": True, "q2": False, "q3": True, "q4": True, "q5": False, "q6": True})
    build_leaderboard([a], benchmark(), corpus(), tmp_path / "evaluation" / "reports")
    monkeypatch.setenv("MMEB_HOME", str(tmp_path))
    import argparse

    parser = argparse.ArgumentParser()
    eval_cli.register(parser.add_subparsers(dest="command"))
    out = io.StringIO()
    with redirect_stdout(out):
        args = parser.parse_args(["report", "--table", "5"])
        assert args.func(args) == 0
    assert "Table 5" in out.getvalue() and "Table 6" not in out.getvalue() and "model-a" in out.getvalue()
    out = io.StringIO()
    with redirect_stdout(out):
        args = parser.parse_args(["report", "--csv", "7"])
        assert args.func(args) == 0
    assert out.getvalue().startswith("table,model")
    monkeypatch.setenv("MMEB_HOME", str(tmp_path / "empty"))
    with redirect_stdout(io.StringIO()):
        args = parser.parse_args(["report"])
        assert args.func(args) == 1


def test_answers_read_the_configured_retriever_of_all_retriever_partitions():
    from mmeb_assets.evaluation.assets import _one_retrieval
    from mmeb_assets.schema.evaluation import RetrievalSet

    mapping = answers.get_partition_mapping(dg.AssetKey("retrievals"))
    assert isinstance(mapping, dg.AllPartitionMapping)
    active = load_registry().active_retriever
    chosen = RetrievalSet(retriever=active, retrievals=[])
    other = RetrievalSet(retriever="qwen3-vl-8b", retrievals=[])
    assert _one_retrieval({"qwen3-vl-8b": other, active: chosen}) is chosen
    with pytest.raises(ValueError, match=active):
        _one_retrieval({"qwen3-vl-8b": other})


def test_llm_judge_runs_next_to_the_rules_and_agreement_is_reported(mmeb_home, monkeypatch):
    verdicts = {"0.412": True}

    def grader(payload):
        import json

        fields = json.loads(payload["messages"][1]["content"])
        ok = verdicts.get(fields["candidate_answer"].strip(), False)
        return json.dumps({"correct": ok, "reason": "compared with the reference"})

    res = resources(mmeb_home)
    assert dg.materialize(ALL, resources=res, selection=["benchmark", "corpus"]).success
    assert dg.materialize(ALL, resources=res, selection=["retrievals"], partition_key="minilm").success
    key = dg.MultiPartitionKey({"model": "reader-latest-mention", "k": "10"})
    with OpenAITestServer(grader) as server:
        monkeypatch.setenv("MMEB_GPT56_LUNA_URL", server.base_url)
        result = dg.materialize(ALL, resources=res, selection=["answers", "judgments"], partition_key=key)
        sent = len(server.requests)
        again = dg.materialize(ALL, resources=res, selection=["judgments"], partition_key=key)
        assert len(server.requests) == sent, "judgments are cached: an unchanged rerun asks nothing"
    assert result.success and again.success and sent == 6
    judged = result.output_for_node("judgments")
    assert judged.judge == "llm:gpt-5.6-luna" and judged.n_compared == 6
    rules = [j.rules_correct for j in judged.judgments]
    llm = [j.llm_correct for j in judged.judgments]
    assert judged.agreement == sum(a == b for a, b in zip(rules, llm)) / 6
    assert [j.correct for j in judged.judgments] == llm
