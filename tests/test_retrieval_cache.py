"""The ranked-list cache of `retrievals` (retrieval/hits_cache.py): a cached list is the list a fresh
search gives, and a change to the index's rows, the query text or the ranker's settings is never
answered from the cache."""
from __future__ import annotations

import pytest
from test_retrieval_fixtures import TEXTS, make_item, make_records

from mmeb_assets.retrieval.hits_cache import HitsCache, cached_hits, index_version
from mmeb_assets.retrieval.index import index_records
from mmeb_assets.retrieval.rankers import bm25_hits, rank_questions
from mmeb_assets.schema.records import Corpus
from mmeb_resources.embedder import MiniLMEmbedder
from mmeb_resources.lancedb import LanceDBResource

QUESTIONS = ["Where is the team retreat taking place?", "Which checkpoint is used for the ablation run?",
             "How far did port emissions fall?"]


@pytest.fixture()
def embedder(mmeb_home):
    return MiniLMEmbedder(cache_path=str(mmeb_home / "cache" / "emb.sqlite"))


def _index(mmeb_home, embedder, project: str, texts=None):
    db = LanceDBResource()
    index_records(db.connect(), db.table_name("minilm"), project, make_records(project, mmeb_home, texts),
                  mmeb_home / "projects", embedder)
    return db


@pytest.fixture()
def indexed(mmeb_home, embedder):
    for project in TEXTS:
        db = _index(mmeb_home, embedder, project)
    return db


def _corpus(mmeb_home) -> Corpus:
    records = [r for project in TEXTS for r in make_records(project, mmeb_home)]
    return Corpus(records=records, projects=sorted(TEXTS))


def _items(questions=QUESTIONS):
    return [make_item(f"q{n}", "aurora-retrieval", "extraction", q, []) for n, q in enumerate(questions)]


@pytest.mark.parametrize("retriever", ["bm25", "minilm", "hybrid"])
def test_a_cached_ranking_is_the_fresh_one_and_searches_nothing(mmeb_home, indexed, embedder, retriever):
    cache = HitsCache(mmeb_home / "cache" / "retrievals.sqlite")
    corpus, items = _corpus(mmeb_home), _items()
    def rank(cache=None):
        return rank_questions(retriever, items, corpus, embedder, indexed, sync=lambda model: [], cache=cache)

    fresh, first, again = rank(), rank(cache), rank(cache)
    assert first.hits == fresh.hits == again.hits
    assert first.searched > 0 and again.searched == 0


def test_a_changed_record_text_is_searched_again_not_served_stale(mmeb_home, indexed, embedder):
    cache = HitsCache(mmeb_home / "cache" / "retrievals.sqlite")
    corpus = _corpus(mmeb_home)
    table = indexed.open_table("minilm")
    question = "Where is the team retreat taking place?"
    hits, searched = bm25_hits(table, _items([question]), corpus, cache=cache)
    assert searched == 1 and hits[0][0][0] == "aurora-retrieval-email-2"
    # the retreat moves to another record: the email no longer mentions it, the notion page does
    texts = list(TEXTS["aurora-retrieval"])
    texts[1] = ("email", "Subject: offsite venue. The booking was cancelled.")
    texts[2] = ("notion", "Offsite: the team retreat is taking place at the lakeside lodge, in October.")
    _index(mmeb_home, embedder, "aurora-retrieval", texts)
    table = indexed.open_table("minilm")
    from mmeb_assets.retrieval.index import refresh_fts_index

    refresh_fts_index(table)
    hits, searched = bm25_hits(table, _items([question]), corpus, cache=cache)
    assert searched == 1 and hits[0][0][0] == "aurora-retrieval-notion-3"


def test_version_follows_rows_and_settings_not_history(mmeb_home, indexed, embedder):
    table = indexed.open_table("minilm")
    before = index_version(table, "bm25:k=100")
    assert index_version(table, "bm25:k=50") != before
    _index(mmeb_home, embedder, "harbor-emissions")  # the same rows committed again: a new table version
    assert index_version(indexed.open_table("minilm"), "bm25:k=100") == before
    texts = list(TEXTS["harbor-emissions"])
    texts[0] = ("notion", texts[0][1].replace("12 percent", "13 percent"))
    _index(mmeb_home, embedder, "harbor-emissions", texts)
    assert index_version(indexed.open_table("minilm"), "bm25:k=100") != before


def test_only_unseen_query_texts_are_searched(tmp_path):
    cache = HitsCache(tmp_path / "hits.sqlite")
    calls = []

    def search(queries):
        calls.append(list(queries))
        return [[(f"r-{q}", 1.5)] for q in queries]

    hits, searched = cached_hits(cache, "r", lambda: "v1", ["a", "b", "a"], search)
    assert hits == [[("r-a", 1.5)], [("r-b", 1.5)], [("r-a", 1.5)]] and searched == 2
    hits, searched = cached_hits(cache, "r", lambda: "v1", ["b", "c"], search)
    assert hits == [[("r-b", 1.5)], [("r-c", 1.5)]] and searched == 1 and calls[-1] == ["c"]
    _, searched = cached_hits(cache, "r", lambda: "v2", ["b"], search)  # another index version
    assert searched == 1
    _, searched = cached_hits(cache, "other", lambda: "v1", ["b"], search)  # another ranker
    assert searched == 1
    assert cached_hits(None, "r", lambda: "v1", ["b"], search)[1] == 1  # no cache: always searched


def test_bm25_filters_projects_only_when_the_table_holds_others(mmeb_home, indexed):
    from mmeb_assets.retrieval.rankers import fts_filter

    table = indexed.open_table("minilm")
    everything = _corpus(mmeb_home)
    assert fts_filter(table, everything) is None  # the filter would pass every row
    aurora = Corpus(records=[r for r in everything.records if r.project == "aurora-retrieval"],
                    projects=["aurora-retrieval"])
    assert fts_filter(table, aurora) == "project IN ('aurora-retrieval')"
    question = "When is the quarterly emissions report due at the harbor?"
    both, _ = bm25_hits(table, _items([question]), everything)
    only, _ = bm25_hits(table, _items([question]), aurora)
    assert both[0][0][0].startswith("harbor-emissions")
    assert only[0] and all(rid.startswith("aurora-retrieval") for rid, _ in only[0])


def test_one_filler_at_a_time_the_other_reads_its_lists(tmp_path):
    import threading
    import time

    calls, started = [], threading.Event()

    def slow_search(queries):
        calls.append(list(queries))
        started.set()
        time.sleep(0.3)
        return [[(f"r-{q}", 1.0)] for q in queries]

    results = {}

    def fill(name):
        results[name] = cached_hits(HitsCache(tmp_path / "hits.sqlite"), "dense", lambda: "v1", ["a", "b"],
                                    slow_search)

    first = threading.Thread(target=fill, args=("first",))
    first.start()
    started.wait(5)
    second = threading.Thread(target=fill, args=("second",))
    second.start()
    first.join()
    second.join()
    assert calls == [["a", "b"]]  # the second waited for the first, then searched nothing
    assert results["first"][0] == results["second"][0] and results["second"][1] == 0
