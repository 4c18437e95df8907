"""Errors of the embedders (dependency-free, so the GPU check can import the Qwen3-VL runtime
without dagster or pydantic); `mmeb_assets.retrieval.errors` re-exports them."""


class EmbedderUnavailable(RuntimeError):
    """The model cannot be loaded (weights absent, optional package missing); the message says why."""
