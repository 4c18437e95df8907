"""Rendered records: the retrieval units of the workspace."""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from mmeb_assets.schema.common import Provenance, StageArtifact

Source = Literal["slack", "email", "notion", "meeting", "txt", "log", "pdf_page", "slide", "image"]
VISUAL_SOURCES: frozenset[str] = frozenset({"pdf_page", "slide", "image"})


class Record(BaseModel):
    """One retrieval unit. Visual records carry both stored text and an image."""

    id: str = Field(description="globally unique: '<seed>-<source>-<n>'")
    project: str
    source: Source
    modality: Literal["text", "visual"]
    timestamp: datetime
    order: int = Field(description="stored order within the project; breaks timestamp ties")
    author: str = ""
    channel: str = ""
    recipients: list[str] = []
    title: str = ""
    filename: str = ""
    page: int | None = None
    text: str = Field(description="stored text, starting with its source header; for a visual record only "
                                  "header, title and a caption-level description, never a value it depicts")
    pixel_text: str = Field(default="", description="visual records: the text drawn in the image (what a "
                                                     "reader of the pixels sees); not indexed, not shown to "
                                                     "text-only readers")
    image_path: str | None = Field(default=None, description="relative to projects/<seed>/")
    doc_id: str = Field(default="", description="DocumentPlan id for pages, slides and images")
    version: int = 1
    supersedes: str | None = Field(default=None, description="id of the record this one revises")
    event_ids: list[str] = []
    access: list[str] = Field(default=[], description="person ids who can see the record")
    provenance: Provenance
    doc_key: str = Field(default="", description="version slot shared by all versions, e.g. 'report:p3'")
    reply_to: str = Field(default="", description="event id a conversational reply reacts to")


class VersionEdge(BaseModel):
    older: str
    newer: str
    doc_key: str


class RecordSet(StageArtifact):
    """`projects/<seed>/records.jsonl` plus this summary."""

    records: list[Record]
    version_graph: list[VersionEdge]

    def by_id(self) -> dict[str, Record]:
        return {r.id: r for r in self.records}


class Corpus(BaseModel):
    """Every project's records: the shared retrieval workspace."""

    records: list[Record]
    projects: list[str]
