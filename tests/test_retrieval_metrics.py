"""nDCG@10, MRR and Recall@k of every retriever, recomputed with ranx on a built benchmark; the BM25 and
hybrid partitions; the answering retriever is the best measured and the answers name it."""
from __future__ import annotations

import json
import math

import pytest

from mmeb_assets.retrieval.metrics import ndcg_at, ranking_metrics, reciprocal_rank
from test_evaluation_fixtures import item

ranx = pytest.importorskip("ranx", reason="ranx is in the dev extra")
METRICS = ("recall@10", "recall@50", "recall@100", "ndcg@10", "mrr")


def ranx_metrics(items, retrieved: dict[str, list[str]]) -> dict[str, float]:
    scored = [i for i in items if i.answer_status == "answerable" and i.evidence]
    qrels = ranx.Qrels({i.id: {rid: 1 for rid in i.evidence} for i in scored})
    run = ranx.Run({i.id: {rid: 1.0 / rank for rank, rid in enumerate(retrieved.get(i.id, []), start=1)} or
                    {"-none-": 0.0} for i in scored})
    return ranx.evaluate(qrels, run, list(METRICS), make_comparable=True)


def test_the_hand_definitions():
    assert ndcg_at(["a"], ["x", "a"]) == pytest.approx(1 / math.log2(3))
    assert ndcg_at(["a", "b"], ["a", "b", "x"]) == pytest.approx(1.0)
    assert ndcg_at(["a"], ["x"] * 10 + ["a"]) == 0.0
    assert reciprocal_rank(["b"], ["a", "b"]) == 0.5 and reciprocal_rank(["z"], ["a"]) == 0.0


def test_the_metrics_equal_ranx_on_hand_rankings():
    items = [item("q1", "extraction", "?", "x", "x", ["a", "b"]), item("q2", "extraction", "?", "x", "x", ["c"]),
             item("q3", "unanswerable", "?", "x", None, [], status="unanswerable")]
    retrieved = {"q1": ["x", "b", "y", "a"] + [f"z{i}" for i in range(60)], "q2": [f"z{i}" for i in range(30)] + ["c"]}
    ours, theirs = ranking_metrics(items, retrieved), ranx_metrics(items, retrieved)
    assert ours["n"] == 2
    for name in METRICS:
        assert ours[name] == pytest.approx(theirs[name], abs=1e-6), name


def test_every_retriever_of_the_demo_matches_ranx_and_the_report_shows_them(demo_home):
    from mmeb_assets.qa.export import read_questions_jsonl

    items = read_questions_jsonl(demo_home / "benchmark" / "questions.jsonl")
    root = demo_home / "evaluation" / "retrieval"
    measured = {}
    for retriever in ("minilm", "bm25", "hybrid"):
        rows = [json.loads(line) for line in (root / retriever / "retrievals.jsonl").read_text().splitlines()]
        retrieved = {row["question_id"]: row["record_ids"] for row in rows}
        stored = json.loads((root / retriever / "metrics.json").read_text())
        theirs = ranx_metrics(items, retrieved)
        for name in METRICS:
            assert stored[name] == pytest.approx(theirs[name], abs=1e-5), (retriever, name)
        measured[retriever] = stored
    report = (demo_home / "evaluation" / "reports" / "leaderboard.md").read_text()
    table = report.split("retrieval: evidence Recall@k, nDCG@10 and MRR")[1].split("###")[0]
    assert "| Retriever | Recall@10 | Recall@50 | Recall@100 | nDCG@10 | MRR |" in table
    for retriever, metrics in measured.items():
        cells = [f"{100 * metrics[name]:.1f}" for name in METRICS]
        assert f"| {retriever} | " + " | ".join(cells) + " |" in table


def test_the_answers_read_the_best_retriever_and_say_so(demo_home):
    from mmeb_assets.retrieval.config import load_retrievers

    root = demo_home / "evaluation" / "retrieval"
    recall = {name: json.loads((root / name / "metrics.json").read_text())["recall@10"]
              for name in ("minilm", "bm25", "hybrid")}
    assert load_retrievers().answering == "best"
    answering = max(sorted(recall), key=recall.get)
    from mmeb_resources.io_manager import _load

    answers = _load(demo_home / "evaluation" / "reader-latest-mention" / "k10" / "answers.json")
    assert answers.retriever == answering and answers.recall_at_k == pytest.approx(recall[answering], abs=1e-6)


def test_bm25_and_hybrid_partitions_materialize_and_hybrid_fuses_the_other_two(mmeb_home):
    import dagster as dg

    from mmeb_assets.partitions import retriever_partitions_def, seed_partitions_def
    from mmeb_assets.retrieval.assets import corpus, lance_index, retrievals
    from mmeb_assets.retrieval.search import rrf_fuse
    from mmeb_assets.schema.evaluation import RetrievalSet
    from mmeb_resources.embedder import MiniLMEmbedder
    from mmeb_resources.io_manager import PydanticJsonIOManager
    from mmeb_resources.lancedb import LanceDBResource
    from mmeb_resources.storage import StorageResource
    from test_retrieval import _write_upstream

    assert {"minilm", "bm25", "hybrid"} <= set(retriever_partitions_def.get_partition_keys())
    seeds = seed_partitions_def.get_partition_keys()
    io_manager = PydanticJsonIOManager()
    _write_upstream(mmeb_home, io_manager, seeds)
    resources = {"io_manager": io_manager, "storage": StorageResource(), "lancedb": LanceDBResource(),
                 "embedder": MiniLMEmbedder(cache_path=str(mmeb_home / "cache" / "emb.sqlite"))}
    graph = [corpus, lance_index, retrievals, dg.AssetSpec("records", partitions_def=seed_partitions_def),
             dg.AssetSpec("benchmark")]
    for seed in seeds:
        assert dg.materialize(graph, selection=["lance_index"], partition_key=seed, resources=resources).success
    assert dg.materialize(graph, selection=["corpus"], resources=resources).success
    ranked = {}
    for name in ("minilm", "bm25", "hybrid"):
        result = dg.materialize(graph, selection=["retrievals"], partition_key=name, resources=resources)
        assert result.success and all(c.passed for c in result.get_asset_check_evaluations())
        envelope = json.loads((mmeb_home / "evaluation" / "retrievals" / name / "retrievals.json").read_text())
        out = RetrievalSet.model_validate(envelope["data"])
        assert out.retriever == name
        ranked[name] = {r.question_id: list(zip(r.record_ids, r.scores)) for r in out.retrievals}
        metrics = json.loads((mmeb_home / "evaluation" / "retrieval" / name / "metrics.json").read_text())
        assert set(METRICS) <= set(metrics) and metrics["n"] == 3
        meta = result.asset_materializations_for_node("retrievals")[0].metadata
        assert meta["ndcg@10"].value == metrics["ndcg@10"] and meta["mrr"].value == metrics["mrr"]
    assert ranked["bm25"]["aurora-q1"][0][0] == "aurora-retrieval-email-2"  # "team retreat" is in that e-mail
    assert ranked["bm25"]["harbor-q2"] == [] and ranked["hybrid"]["harbor-q2"]  # no word in common: dense only
    for qid, fused in ranked["hybrid"].items():
        expected = rrf_fuse([ranked["minilm"][qid], ranked["bm25"][qid]], k=100)
        assert [rid for rid, _ in fused] == [rid for rid, _ in expected]


def test_answering_best_reads_the_retriever_this_build_measures_best():
    from mmeb_assets.evaluation.answering import best_retrieval
    from mmeb_assets.schema.evaluation import RetrievalSet

    def measured(name, recall):
        return RetrievalSet(retriever=name, retrievals=[], recall={"10": {"overall": recall}})

    sets = {"bm25": measured("bm25", 71.08), "hybrid": measured("hybrid", 71.32), "minilm": measured("minilm", 60.0)}
    assert best_retrieval(sets).retriever == "hybrid"
    sets["bm25"] = measured("bm25", 71.32)
    assert best_retrieval(sets).retriever == "bm25"  # a tie: the first name, so a rebuild picks the same one


def test_an_answering_retriever_that_is_neither_best_nor_configured_names_the_file(tmp_path, monkeypatch):
    from mmeb_resources.retrievers_config import load_retrievers

    file = tmp_path / "retrievers.yaml"
    file.write_text("default: minilm\nanswering: bm52\nretrievers:\n  minilm: {kind: minilm}\n")
    monkeypatch.setenv("MMEB_RETRIEVERS_CONFIG", str(file))
    with pytest.raises(ValueError, match=r"retrievers.yaml: answering 'bm52'"):
        load_retrievers()
