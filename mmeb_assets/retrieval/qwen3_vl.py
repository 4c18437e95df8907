"""Qwen3-VL-Embedding runtime: moved to `mmeb_resources.qwen3_vl` (the embedder resource loads it and
mmeb_resources imports nothing from mmeb_assets); this path re-exports it. Importing it pulls torch."""
from mmeb_resources.qwen3_vl import (IMAGE_PAD, LoadedQwen3VL, conversation, embedding_model_class,
                                     image_processor_class, load_qwen3_vl, resolve_weights)

__all__ = ["IMAGE_PAD", "LoadedQwen3VL", "conversation", "embedding_model_class", "image_processor_class",
           "load_qwen3_vl", "resolve_weights"]
