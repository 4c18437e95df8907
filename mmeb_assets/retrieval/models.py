"""Outputs of the retrieval stage that stay inside it (the cross-stage ones live in schema/)."""
from __future__ import annotations

from pydantic import BaseModel

from mmeb_assets.schema.common import Provenance


class IndexUpdate(BaseModel):
    """What one `lance_index` materialization did to the shared table for its project."""

    seed_id: str
    retriever: str
    model_key: str
    table: str
    project_rows: int
    total_rows: int
    inserted: int = 0
    updated: int = 0
    deleted: int = 0
    embedded: int = 0
    cached: int = 0
    provenance: Provenance
