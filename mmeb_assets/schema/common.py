"""Provenance carried by every artifact, and the base class of stage outputs."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Provenance(BaseModel):
    """Where an artifact came from: enough to reproduce it or to tell why it changed.

    No wall-clock time lives here on purpose: the deterministic path must give byte-identical
    files for the same seed and config. Run times are in the Dagster event log.
    """

    model_config = ConfigDict(frozen=True)

    seed_id: str
    stage: str
    generator: str = Field(description="'rules' for the deterministic twin, else the LLM backend")
    model: str = ""
    prompt_hash: str = ""
    code_version: str = ""
    random_seed: int | None = None
    inputs_hash: str = ""
    fallbacks: list[str] = Field(default=[], exclude_if=lambda v: not v,
                                 description="parts made by the rules twin after an LLM failure, with the reason")
    repairs: list[str] = Field(default=[], exclude_if=lambda v: not v,
                               description="items a check repaired or dropped (one defective table, claim, "
                                           "row, event or record), each with the reason")


class StageArtifact(BaseModel):
    """Base of every per-project stage output."""

    model_config = ConfigDict(extra="forbid")

    seed_id: str
    provenance: Provenance
