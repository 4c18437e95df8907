"""Retrieval results, answers and judgments."""
from __future__ import annotations

from pydantic import BaseModel, Field

from mmeb_assets.schema.common import Provenance


class Retrieval(BaseModel):
    question_id: str
    record_ids: list[str] = Field(description="top-100, best first")
    scores: list[float] = []


class RetrievalSet(BaseModel):
    retriever: str
    retrievals: list[Retrieval]
    recall: dict[str, dict[str, float]] = Field(default={}, description="k -> group -> Recall@k")
    recall_counts: dict[str, int] = Field(default={}, description="group -> answerable questions in the group")
    provenance: Provenance | None = None


class Answer(BaseModel):
    question_id: str
    model: str
    k: int
    answer: str
    record_ids: list[str] = []
    text_only: bool = Field(default=True, description="True when images were not passed to the model")
    prompt_tokens: int = 0
    completion_tokens: int = 0


class Judgment(BaseModel):
    question_id: str
    model: str
    k: int
    correct: bool
    reason: str
    judge: str
