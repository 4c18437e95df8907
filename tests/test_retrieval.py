"""Retrieval: the LanceDB index answers known queries, hybrid search, per-project replacement,
Recall@k by hand, and the corpus -> lance_index -> retrievals graph materialized on fixtures."""
from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import numpy as np
import pytest
from test_retrieval_fixtures import TEXTS, make_item, make_record_set, make_records

from mmeb_assets.partitions import retriever_partitions_def, seed_partitions_def
from mmeb_assets.retrieval.assets import build_corpus, corpus, lance_index, retrievals
from mmeb_assets.retrieval.index import index_records, project_hashes
from mmeb_assets.retrieval.recall import read_overall, recall_by_group, recall_csv, recall_markdown, table7_row
from mmeb_assets.retrieval.search import fts_search, hybrid_search, numpy_topk, rrf_fuse, table_matrix, vector_search
from mmeb_assets.schema.evaluation import RetrievalSet
from mmeb_assets.schema.qa import Benchmark
from mmeb_resources.embedder import MiniLMEmbedder
from mmeb_resources.io_manager import PydanticJsonIOManager
from mmeb_resources.lancedb import LanceDBResource
from mmeb_resources.storage import StorageResource


@pytest.fixture()
def embedder(mmeb_home):
    return MiniLMEmbedder(cache_path=str(mmeb_home / "cache" / "emb.sqlite"))


@pytest.fixture()
def indexed(mmeb_home, embedder):
    """Both fixture projects indexed in one table; returns (lancedb resource, table)."""
    db = LanceDBResource()
    for project in TEXTS:
        index_records(db.connect(), db.table_name("minilm"), project, make_records(project, mmeb_home),
                      mmeb_home / "projects", embedder)
    return db, db.open_table("minilm")


def _top_ids(hits, n=1):
    return [rid for rid, _ in hits[:n]]


def test_index_holds_metadata_and_default_uri(mmeb_home, indexed):
    db, table = indexed
    assert db.resolved_uri() == str(mmeb_home / "lance")
    assert table.count_rows() == sum(len(v) for v in TEXTS.values())
    row = table.search().where("id = 'aurora-retrieval-pdf_page-8'").limit(1).to_list()[0]
    assert (row["project"], row["source"], row["modality"]) == ("aurora-retrieval", "pdf_page", "visual")
    assert row["image_path"] == "images/aurora-retrieval-pdf_page-8.png" and row["author"] == "fixture"
    assert row["version"] == 1 and row["timestamp"].startswith("2026-03-02T17:00")
    assert len(row["vector"]) == 384 and abs(np.linalg.norm(row["vector"]) - 1) < 1e-4


def test_exact_phrase_and_semantic_queries_find_the_gold_record(indexed, embedder):
    _, table = indexed
    assert _top_ids(fts_search(table, "lakeside lodge", phrase=True)) == ["aurora-retrieval-email-2"]
    assert fts_search(table, "lodge lakeside", phrase=True) == []  # a phrase, not a bag of words
    questions = {
        "How much money was allocated for compute hardware this quarter?": "aurora-retrieval-slack-1",
        "When will the newly hired engineers join?": "aurora-retrieval-notion-3",
        "By how much did pollution at the port go down?": "harbor-emissions-notion-1",
    }
    hits = vector_search(table, embedder.embed_queries(list(questions)), k=3)
    assert [_top_ids(h)[0] for h in hits] == list(questions.values())
    assert all(len(h) == 3 and h[0][1] >= h[1][1] >= h[2][1] for h in hits)


def test_hybrid_ranks_the_record_with_a_rare_token_first(indexed, embedder):
    _, table = indexed
    question = "which checkpoint did they pick for the ablation run, zorblax7?"
    vector = embedder.embed_queries([question])[0]
    fused = hybrid_search(table, question, vector, k=5)
    assert _top_ids(fused) == ["aurora-retrieval-slack-5"]
    assert _top_ids(fts_search(table, "zorblax7")) == ["aurora-retrieval-slack-5"]
    # the fusion itself: an id ranked 1st and 2nd beats ids ranked 1st in one list only
    assert rrf_fuse([[("a", 9), ("b", 8)], [("b", 5), ("c", 4)]])[0][0] == "b"


def test_replacing_one_project_leaves_other_projects_untouched(mmeb_home, indexed, embedder):
    db, table = indexed
    other = table.search().where("project = 'harbor-emissions'").limit(None).to_arrow().sort_by("id")
    texts = list(TEXTS["aurora-retrieval"])
    texts[1] = ("email", "Subject: offsite venue. The retreat moved to the mountain cabin in November.")
    texts = texts[:-1] + [("slack", "#ml Omar: the new evaluation harness is merged.")]
    misses_before = embedder.stats["misses"]
    counts = index_records(db.connect(), db.table_name("minilm"), "aurora-retrieval",
                           make_records("aurora-retrieval", mmeb_home, texts), mmeb_home / "projects", embedder)
    assert embedder.stats["misses"] - misses_before == 2  # only the changed and the new record
    assert (counts["updated"], counts["inserted"], counts["deleted"], counts["embedded"]) == (7, 1, 1, 2)
    table = db.open_table("minilm")
    after = table.search().where("project = 'harbor-emissions'").limit(None).to_arrow().sort_by("id")
    assert after.to_pylist() == other.to_pylist()  # ids, text, metadata and vectors identical
    assert set(project_hashes(table, "aurora-retrieval")) == {f"aurora-retrieval-{s}-{n}" for n, (s, _) in
                                                             enumerate(texts, start=1)}
    assert _top_ids(fts_search(table, "mountain cabin", phrase=True)) == ["aurora-retrieval-email-2"]
    assert fts_search(table, "lakeside lodge", phrase=True) == []
    index_records(db.connect(), db.table_name("minilm"), "aurora-retrieval", [], mmeb_home / "projects", embedder)
    assert db.open_table("minilm").count_rows() == len(TEXTS["harbor-emissions"])


def test_lancedb_search_agrees_with_exact_numpy_topk(indexed, embedder):
    _, table = indexed
    ids, matrix = table_matrix(table)
    queries = embedder.embed_queries(["emissions report deadline", "team retreat", "checkpoint"])
    idx, _ = numpy_topk(matrix, queries, k=5)
    lance = vector_search(table, queries, k=5)
    assert [[ids[i] for i in row] for row in idx] == [_top_ids(h, 5) for h in lance]


def test_recall_at_k_equals_the_hand_count():
    items = [
        make_item("q1", "p", "extraction", "?", ["t1"]),                  # text, found at rank 3
        make_item("q2", "p", "comparison", "?", ["t2", "v1"]),            # mixed, t2 at rank 12, v1 absent
        make_item("q3", "p", "temporal_conflict", "?", ["v2", "v3"]),     # visual, v2 rank 1, v3 rank 60
        make_item("q4", "p", "unanswerable", "?", [], answerable=False),  # excluded
    ]
    filler = [f"x{i}" for i in range(100)]
    ranked = {
        "q1": ["x0", "x1", "t1", *filler][:100],
        "q2": [*filler[:11], "t2", *filler[11:]][:100],
        "q3": ["v2", *filler[:58], "v3", *filler[58:]][:100],
        "q4": filler,
    }
    modality = {"t1": "text", "t2": "text", "v1": "visual", "v2": "visual", "v3": "visual"}
    recall, counts = recall_by_group(items, ranked, modality)
    # by hand: k=10 -> q1 1, q2 0, q3 1/2; k=50 -> 1, 1/2, 1/2; k=100 -> 1, 1/2, 1
    assert recall["10"]["overall"] == pytest.approx((1 + 0 + 0.5) / 3, abs=1e-6)
    assert recall["50"]["overall"] == pytest.approx((1 + 0.5 + 0.5) / 3, abs=1e-6)
    assert recall["100"]["overall"] == pytest.approx((1 + 0.5 + 1) / 3, abs=1e-6)
    assert recall["10"]["modality:text"] == 1.0 and recall["50"]["modality:text+visual"] == 0.5
    assert recall["100"]["modality:visual"] == 1.0 and recall["10"]["category:CR"] == 0.5
    assert counts == {"overall": 3, "category:ER": 2, "category:CR": 1, "task:extraction": 1, "task:comparison": 1,
                      "task:temporal_conflict": 1, "modality:text": 1, "modality:visual": 1,
                      "modality:text+visual": 1, "evidence:1": 1, "evidence:2+": 2}
    md = recall_markdown("minilm", recall, counts)
    assert "| minilm | 50.0 | 66.7 | 83.3 |" in md and "Text + visual" in md
    row = table7_row({"qwen3-vl-2b": {"10": 0.413, "50": 0.57}, "qwen3-vl-8b": {"10": 0.43, "50": 0.596}})
    assert row.splitlines()[0] == "| Retriever | k = 10 · qwen3-vl-2b | k = 10 · qwen3-vl-8b | k = 50 · qwen3-vl-2b | k = 50 · qwen3-vl-8b |"
    assert row.splitlines()[2] == "| Evidence Recall@k | 41.3 | 43.0 | 57.0 | 59.6 |"
    assert read_overall(recall_csv("minilm", recall, counts))["100"] == pytest.approx(recall["100"]["overall"])


def test_duplicate_record_ids_across_projects_are_rejected(mmeb_home):
    a = make_record_set("aurora-retrieval", mmeb_home)
    b = make_record_set("harbor-emissions", mmeb_home)
    b.records[0] = b.records[0].model_copy(update={"id": a.records[0].id})
    with pytest.raises(ValueError, match="already used by project 'aurora-retrieval'"):
        build_corpus({"aurora-retrieval": a, "harbor-emissions": b})


def _write_upstream(home, io_manager, seeds):
    for seed in seeds:
        record_set = make_record_set(seed, home) if seed in TEXTS else \
            make_record_set("harbor-emissions", home).model_copy(update={"seed_id": seed, "records": []})
        ctx = dg.build_output_context(asset_key=dg.AssetKey("records"), partition_key=seed)
        io_manager.handle_output(ctx, record_set)
    items = [
        make_item("aurora-q1", "aurora-retrieval", "extraction", "Where is the team retreat taking place?",
                  ["aurora-retrieval-email-2"]),
        make_item("aurora-q2", "aurora-retrieval", "extraction", "What recall at 10 does Table 2 report?",
                  ["aurora-retrieval-pdf_page-8"]),
        make_item("harbor-q1", "harbor-emissions", "comparison", "How far did port emissions fall, and when is "
                  "the quarterly report due?", ["harbor-emissions-notion-1", "harbor-emissions-email-2"]),
        make_item("harbor-q2", "harbor-emissions", "unanswerable", "Who painted the lighthouse?", [], False),
    ]
    io_manager.handle_output(dg.build_output_context(asset_key=dg.AssetKey("benchmark")),
                             Benchmark(items=items, projects=list(seeds)))


def test_materialize_corpus_lance_index_retrievals(mmeb_home):
    seeds = seed_partitions_def.get_partition_keys()
    assert "minilm" in retriever_partitions_def.get_partition_keys()
    io_manager = PydanticJsonIOManager()
    _write_upstream(mmeb_home, io_manager, seeds)
    resources = {"io_manager": io_manager, "storage": StorageResource(), "lancedb": LanceDBResource(),
                 "embedder": MiniLMEmbedder(cache_path=str(mmeb_home / "cache" / "emb.sqlite"))}
    graph = [corpus, lance_index, retrievals, dg.AssetSpec("records", partitions_def=seed_partitions_def),
             dg.AssetSpec("benchmark")]
    for seed in seeds:
        result = dg.materialize(graph, selection=["lance_index"], partition_key=seed, resources=resources)
        assert result.success and all(c.passed for c in result.get_asset_check_evaluations())
    assert dg.materialize(graph, selection=["corpus"], resources=resources).success
    result = dg.materialize(graph, selection=["retrievals"], partition_key="minilm", resources=resources)
    assert result.success
    checks = {c.check_name: c.passed for c in result.get_asset_check_evaluations()}
    assert checks == {"covers_benchmark": True, "gold_in_corpus": True}

    envelope = json.loads((mmeb_home / "evaluation" / "retrievals" / "minilm" / "retrievals.json").read_text())
    out = RetrievalSet.model_validate(envelope["data"])
    n_records = sum(len(v) for v in TEXTS.values())
    assert [r.question_id for r in out.retrievals] == ["aurora-q1", "aurora-q2", "harbor-q1", "harbor-q2"]
    assert all(len(r.record_ids) == n_records for r in out.retrievals)  # top-100 capped by corpus size
    assert out.retrievals[0].record_ids[0] == "aurora-retrieval-email-2"
    assert out.recall["100"]["overall"] == 1.0 and out.recall_counts["overall"] == 3
    md = (mmeb_home / "evaluation" / "retrieval" / "minilm" / "recall.md").read_text()
    csv_text = (mmeb_home / "evaluation" / "retrieval" / "minilm" / "recall.csv").read_text()
    assert "| Retriever | k = 10 | k = 50 | k = 100 |" in md and "Visual only" in md
    assert csv_text.splitlines()[0] == "retriever,group,n,recall@10,recall@50,recall@100"
    table7 = (mmeb_home / "evaluation" / "retrieval" / "table7_recall.md").read_text()
    assert "| Retriever | k = 10 · minilm | k = 50 · minilm | k = 100 · minilm |" in table7
    assert f"| Evidence Recall@k | {100 * out.recall['10']['overall']:.1f} |" in table7
    assert table7.split("\n")[4].endswith("| 100.0 |")
    meta = result.asset_materializations_for_node("retrievals")[0].metadata
    assert meta["recall@100"].value == 1.0 and "Evidence Recall@k" in meta["recall_table"].value
    assert meta["reindexed_projects"].value == "none"  # lance_index already built this retriever's rows

    # rerun: nothing is re-embedded and the artifacts are byte-identical
    files = [mmeb_home / "evaluation" / "retrievals" / "minilm" / "retrievals.json",
             mmeb_home / "projects" / seeds[0] / "lance_index.json"]
    before = [f.read_bytes() for f in files]
    again = dg.materialize(graph, selection=["lance_index"], partition_key=seeds[0], resources=resources)
    assert again.asset_materializations_for_node("lance_index")[0].metadata["embedded"].value == 0
    assert dg.materialize(graph, selection=["retrievals"], partition_key="minilm", resources=resources).success
    assert [f.read_bytes() for f in files] == before


def test_cli_search_prints_ranked_records(mmeb_home, indexed, capsys, monkeypatch):
    from mmeb_assets.cli import main

    monkeypatch.setenv("DAGSTER_HOME", str(mmeb_home / "dagster"))  # main() sets it; keep it scoped to the test
    assert main(["search", "lakeside lodge", "--mode", "fts", "--phrase", "-k", "3"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "aurora-retrieval-email-2" in first and "lakeside lodge" in first
    assert main(["search", "when do the new engineers start", "-k", "2", "--project", "aurora-retrieval"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all("aurora-retrieval-" in line for line in lines)
    assert main(["recall", "--retriever", "nothing-here"]) == 1


def test_concurrent_project_replacements_all_land(mmeb_home):
    """Partitions run in parallel write the same table: commit conflicts are retried, none is lost."""
    from concurrent.futures import ThreadPoolExecutor

    from mmeb_assets.retrieval.index import record_table, replace_project

    db = LanceDBResource()
    rng = np.random.default_rng(0)

    def write(project: str) -> None:
        for round_ in range(3):
            texts = [("slack", f"{project} round {round_} note {i}") for i in range(20 + round_)]
            records = make_records(project, mmeb_home, texts)
            vectors = rng.standard_normal((len(records), 8)).astype(np.float32)
            replace_project(db.connect(), "records_concurrent", project, record_table(records, vectors, ["h"] * len(records)))

    projects = ["p-one", "p-two", "p-three"]
    write("p-zero")  # the table exists before the parallel writers start
    with ThreadPoolExecutor(max_workers=3) as pool:
        list(pool.map(write, projects))
    table = db.connect().open_table("records_concurrent")
    assert {p: table.count_rows(f"project = '{p}'") for p in ["p-zero", *projects]} == dict.fromkeys(
        ["p-zero", *projects], 22)
    assert len(fts_search(table, "round 2", k=1000, phrase=True)) == 4 * 22


def test_partitions_that_find_the_table_missing_at_once_all_land(mmeb_home):
    """The first writes of a fresh table race: one creates it under a lock, the others merge in."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from mmeb_assets.retrieval.index import record_table, replace_project

    db = LanceDBResource()
    projects = [f"p-{i}" for i in range(4)]
    rows = {}
    for project in projects:
        records = make_records(project, mmeb_home, [("slack", f"{project} note {i}") for i in range(5)])
        vectors = np.random.default_rng(len(rows)).standard_normal((len(records), 8)).astype(np.float32)
        rows[project] = record_table(records, vectors, ["h"] * len(records))
    for round_ in range(3):
        name = f"records_race_{round_}"
        barrier = threading.Barrier(len(projects))

        def write(project: str) -> None:
            barrier.wait()
            replace_project(db.connect(), name, project, rows[project])

        with ThreadPoolExecutor(max_workers=len(projects)) as pool:
            list(pool.map(write, projects))
        table = db.connect().open_table(name)
        assert {p: table.count_rows(f"project = '{p}'") for p in projects} == dict.fromkeys(projects, 5)


def test_a_table_folder_left_by_a_killed_creation_is_replaced(mmeb_home):
    from mmeb_assets.retrieval.index import record_table, replace_project

    db = LanceDBResource()
    (Path(db.resolved_uri()) / "records_torn.lance" / "_versions").mkdir(parents=True)
    records = make_records("p-one", mmeb_home, [("slack", "a note")])
    rows = record_table(records, np.ones((1, 8), dtype=np.float32), ["h"])
    assert replace_project(db.connect(), "records_torn", "p-one", rows)["rows"] == 1
