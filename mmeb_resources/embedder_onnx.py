"""MiniLM through ONNX Runtime: the same bundled all-MiniLM-L6-v2, exported once to ONNX.

`lance_index` spends most of its time embedding records with MiniLM in torch. This backend exports
the bundled model once (torch.onnx, needs the `onnx` package) to `<MMEB_HOME>/models/minilm-onnx/`,
and runs it with ONNX Runtime: tokenizer from the model's own tokenizer.json, mean pooling over the
attention mask, L2 normalisation, as sentence-transformers does. Chosen by `backend: onnx` in
config/retrievers.yaml or `MMEB_EMBED_BACKEND=onnx`; its vectors are cached under their own model key,
so switching backends never mixes vectors. `bench/bench_embed.py` measures records/s and Recall@10.

Dynamic int8 (`int8=True`) is measured by the bench but not offered as a backend: it was 3.0x torch's
rate, but its vectors fell to cosine 0.895 of fp32 and moved the demo's Recall@10 by +3.4 points, over
the 0.5-point bound a drop-in replacement must keep (fp32 ONNX: cosine 1.0000, Recall@10 unchanged).
"""
from __future__ import annotations

import os
import threading
import uuid
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import PrivateAttr

from mmeb_resources.embedder import EmbedderUnavailable, EmbedInput, MiniLMEmbedder
from mmeb_resources.storage import default_home

BACKENDS = ("torch", "onnx")
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
EXPORT_VERSION = "1"  # bump when the export or quantization recipe changes (new files, new cache key)
_SESSIONS: dict[tuple, Any] = {}
_EXPORT_LOCK = threading.Lock()


def _export_fp32(model_dir: Path, target: Path) -> None:
    """torch.onnx export of the transformer (last hidden state; pooling stays in numpy), written
    under a unique name and renamed, so concurrent workers never read half a file."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    class Encoder(torch.nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.model(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    tokenizer = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
    model = AutoModel.from_pretrained(str(model_dir), local_files_only=True).eval()
    sample = tokenizer(["an example record", "a second, longer example record"], padding=True, return_tensors="pt")
    partial = target.with_name(f".{target.name}.{uuid.uuid4().hex[:8]}.tmp")
    axes = {name: {0: "batch", 1: "tokens"} for name in (*INPUTS, "last_hidden_state")}
    with torch.no_grad():
        torch.onnx.export(Encoder(model), tuple(sample[name] for name in INPUTS), str(partial),
                          input_names=list(INPUTS), output_names=["last_hidden_state"], dynamic_axes=axes,
                          opset_version=17, dynamo=False)
    os.replace(partial, target)


def _quantize(source: Path, target: Path) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    partial = target.with_name(f".{target.name}.{uuid.uuid4().hex[:8]}.tmp")
    quantize_dynamic(str(source), str(partial), weight_type=QuantType.QInt8)
    os.replace(partial, target)


def exported_model(model_dir: Path, int8: bool, folder: Path | None = None) -> Path:
    """The ONNX file for `model_dir`, exported (and quantized) the first time it is asked for."""
    folder = folder or default_home() / "models" / f"minilm-onnx-v{EXPORT_VERSION}"
    folder.mkdir(parents=True, exist_ok=True)
    fp32, int8_path = folder / "model.onnx", folder / "model-int8.onnx"
    with _EXPORT_LOCK:
        if not fp32.exists():
            try:
                _export_fp32(model_dir, fp32)
            except ImportError as exc:
                raise EmbedderUnavailable(f"exporting MiniLM to ONNX needs the onnx package ({exc}): "
                                          "pip install onnx") from exc
        if int8 and not int8_path.exists():
            _quantize(fp32, int8_path)
    return int8_path if int8 else fp32


class MiniLMOnnxEmbedder(MiniLMEmbedder):
    """all-MiniLM-L6-v2 on ONNX Runtime (fp32, or dynamic int8 with `int8`)."""

    int8: bool = False
    onnx_dir: str = ""  # default: <MMEB_HOME>/models/minilm-onnx-v<N>
    threads: int = 0  # ONNX Runtime intra-op threads; 0: OMP_NUM_THREADS, else its default

    _tokenizer: Any = PrivateAttr(default=None)
    _session: Any = PrivateAttr(default=None)

    def model_key(self) -> str:
        return super().model_key().replace("minilm:", f"minilm-onnx{EXPORT_VERSION}-{'int8' if self.int8 else 'fp32'}:", 1)

    def _load(self):
        if self._session is None:
            path = exported_model(self.resolved_path(), self.int8, Path(self.onnx_dir) if self.onnx_dir else None)
            threads = self.threads or int(os.environ.get("OMP_NUM_THREADS") or 0)
            key = (str(path), threads)
            if key not in _SESSIONS:
                import onnxruntime as ort
                from tokenizers import Tokenizer

                options = ort.SessionOptions()
                if threads:
                    options.intra_op_num_threads = threads
                tokenizer = Tokenizer.from_file(str(self.resolved_path() / "tokenizer.json"))
                tokenizer.enable_truncation(self.max_seq_length)
                tokenizer.no_padding()
                _SESSIONS[key] = (ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"]),
                                  tokenizer)
            self._session, self._tokenizer = _SESSIONS[key]
        return self._session

    def dimension(self) -> int:
        return int(self._encode([EmbedInput(text="dimension probe")], "").shape[1])

    def _encode(self, inputs: list[EmbedInput], instruction: str) -> np.ndarray:
        """Length-sorted mini-batches of 16 (as sentence-transformers pads), mean pooled, normalised."""
        session = self._load()
        encodings = self._tokenizer.encode_batch([item.text or " " for item in inputs])
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
        out = np.zeros((len(inputs), 0), dtype=np.float32)
        for start in range(0, len(order), 16):
            chunk = order[start:start + 16]
            width = max(len(encodings[i].ids) for i in chunk)
            feed = {name: np.zeros((len(chunk), width), dtype=np.int64) for name in INPUTS}
            for row, i in enumerate(chunk):
                enc, n = encodings[i], len(encodings[i].ids)
                feed["input_ids"][row, :n], feed["attention_mask"][row, :n] = enc.ids, enc.attention_mask
                feed["token_type_ids"][row, :n] = enc.type_ids
            hidden = session.run(None, feed)[0]
            mask = feed["attention_mask"][..., None].astype(np.float32)
            pooled = (hidden * mask).sum(axis=1) / np.maximum(mask.sum(axis=1), 1e-9)
            if out.shape[1] == 0:
                out = np.zeros((len(inputs), pooled.shape[1]), dtype=np.float32)
            out[chunk] = pooled
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)


def minilm_for_backend(backend: str, **fields) -> MiniLMEmbedder:
    """The MiniLM embedder of one backend (`torch`, `onnx`)."""
    if backend not in BACKENDS:
        raise ValueError(f"MiniLM backend {backend!r}: expected one of {', '.join(BACKENDS)} "
                         "(config/retrievers.yaml `backend`, or MMEB_EMBED_BACKEND)")
    if backend == "torch":
        return MiniLMEmbedder(**fields)
    return MiniLMOnnxEmbedder(**fields)
