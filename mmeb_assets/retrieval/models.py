"""Outputs of the retrieval stage that stay inside it (the cross-stage ones live in schema/)."""
from __future__ import annotations

from pydantic import BaseModel

from mmeb_assets.schema.common import Provenance


class IndexUpdate(BaseModel):
    """One project's rows in the shared table after a `lance_index` materialization.

    Deterministic (same records + embedder => same file); what the run did (rows inserted, updated,
    deleted, embedded, served from cache) is in the materialization metadata.
    """

    seed_id: str
    retriever: str
    model_key: str
    table: str
    project_rows: int
    dimension: int = 0
    rows_hash: str = ""
    provenance: Provenance
