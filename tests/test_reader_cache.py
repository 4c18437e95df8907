"""Reader answers kept between builds (evaluation/reader_cache.py): the cached answer is the one the
reader gives, and a changed question, record, record order or reader code is read again."""
from __future__ import annotations

from test_retrieval_fixtures import make_item, make_records

from mmeb_assets.evaluation.reader_cache import ReaderAnswerCache, reader_texts
from mmeb_assets.judge.readers import read_answer


def _reader(calls):
    def read(item, ctx):
        calls.append(item.id)
        return read_answer(item.q, ctx, "latest")
    return read


def test_cached_answers_are_the_readers_and_only_changes_are_read_again(mmeb_home):
    records = make_records("aurora-retrieval", mmeb_home)
    items = [make_item("q1", "aurora-retrieval", "extraction", "What was the GPU cluster budget for Q3 raised to?", []),
             make_item("q2", "aurora-retrieval", "extraction", "Which checkpoint is used for the ablation run?", [])]
    contexts = [records[:4], records[4:]]
    cache, calls = ReaderAnswerCache(mmeb_home / "cache" / "reader_answers.sqlite"), []
    fresh, _ = reader_texts("latest", items, contexts, _reader([]), None)
    first, read = reader_texts("latest", items, contexts, _reader(calls), cache)
    again, read_again = reader_texts("latest", items, contexts, _reader(calls), cache)
    assert first == again == fresh and fresh[0] == "48,000" and read == 2 and read_again == 0

    changed = records[0].model_copy(update={"text": records[0].text.replace("48,000", "52,000")})
    texts, read = reader_texts("latest", items, [[changed, *records[1:4]], records[4:]], _reader(calls), cache)
    assert texts[0] == "52,000" and read == 1 and calls[-1] == "q1"  # a changed record: read again
    _, read = reader_texts("latest", items, [records[:4], records[4:][::-1]], _reader(calls), cache)
    assert read == 1 and calls[-1] == "q2"  # the same records in another order: read again
    _, read = reader_texts("first", items, contexts, _reader(calls), cache)
    assert read == 2  # another policy
    cache.code = "another reader"
    _, read = reader_texts("latest", items, contexts, _reader(calls), cache)
    assert read == 2  # the reader's code changed: nothing is served from before
