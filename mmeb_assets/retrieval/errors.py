"""Errors of the retrieval stage (dependency-free, so the GPU check can import the Qwen3-VL runtime
without dagster or pydantic)."""


class EmbedderUnavailable(RuntimeError):
    """The model cannot be loaded (weights absent, optional package missing); the message says why."""
