"""Errors of the retrieval stage: `EmbedderUnavailable` lives in `mmeb_resources.embedder_errors`
(raised by the embedder resource; mmeb_resources imports nothing from mmeb_assets)."""
from mmeb_resources.embedder_errors import EmbedderUnavailable

__all__ = ["EmbedderUnavailable"]
