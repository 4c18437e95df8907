"""The ONNX Runtime MiniLM backend: chosen by configuration, cached under its own key, and (heavy:
exports the model) close to the torch vectors."""
from __future__ import annotations

import numpy as np
import pytest

from mmeb_resources.embedder import EmbedInput, MiniLMEmbedder, make_embedder
from mmeb_resources.embedder_onnx import MiniLMOnnxEmbedder, minilm_for_backend

TEXTS = ["[Slack #eval] Mei — 2026-03-03 10:12\nRecall@10 on HelpDesk-40K is 0.71 after the rerun.",
         "batch size = 64", "The board approved the 2027 budget of 4.2 million.", "",
         "Latency (ms) of the dense bi-encoder: 18; of the late-interaction model: 41. " * 20]


def test_backend_is_chosen_by_config_or_environment(monkeypatch):
    monkeypatch.delenv("MMEB_EMBED_BACKEND", raising=False)
    assert type(make_embedder("minilm", {"kind": "minilm"})) is MiniLMEmbedder
    assert isinstance(make_embedder("minilm", {"kind": "minilm", "backend": "onnx"}), MiniLMOnnxEmbedder)
    monkeypatch.setenv("MMEB_EMBED_BACKEND", "onnx")
    chosen = make_embedder("minilm", {"kind": "minilm"})
    assert isinstance(chosen, MiniLMOnnxEmbedder) and not chosen.int8
    with pytest.raises(ValueError, match="MMEB_EMBED_BACKEND"):
        minilm_for_backend("onnx-int8")  # measured, not offered: Recall@10 moved by more than 0.5 points


def test_each_backend_caches_under_its_own_key():
    keys = {minilm_for_backend(b).model_key() for b in ("torch", "onnx")} | {MiniLMOnnxEmbedder(int8=True).model_key()}
    assert len(keys) == 3


@pytest.mark.heavy
def test_onnx_vectors_match_torch(tmp_path):
    pytest.importorskip("onnx", reason="pip install -e '.[onnx]'")
    inputs = [EmbedInput(text=t) for t in TEXTS]
    torch_vectors = MiniLMEmbedder(use_cache=False).embed(inputs, "")
    fp32 = MiniLMOnnxEmbedder(use_cache=False, onnx_dir=str(tmp_path)).embed(inputs, "")
    int8 = MiniLMOnnxEmbedder(use_cache=False, onnx_dir=str(tmp_path), int8=True).embed(inputs, "")
    assert fp32.shape == torch_vectors.shape == (len(TEXTS), 384)
    assert np.min(np.sum(fp32 * torch_vectors, axis=1)) > 0.999
    assert np.min(np.sum(int8 * torch_vectors, axis=1)) > 0.85
    assert (tmp_path / "model.onnx").exists() and (tmp_path / "model-int8.onnx").exists()
