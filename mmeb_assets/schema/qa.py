"""Questions, gold evidence, and their staged validation."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from mmeb_assets.schema.common import Provenance, StageArtifact

Task = Literal[
    "extraction", "attribution", "computation", "comparison", "interpretation",
    "cross_source_conflict", "temporal_conflict", "unanswerable",
]
TASKS: tuple[str, ...] = (
    "extraction", "attribution", "computation", "comparison", "interpretation",
    "cross_source_conflict", "temporal_conflict", "unanswerable",
)
TASK_CATEGORY: dict[str, str] = {
    "extraction": "ER", "attribution": "ER", "computation": "ER", "comparison": "ER",
    "interpretation": "ER", "cross_source_conflict": "CR", "temporal_conflict": "CR",
    "unanswerable": "UNS",
}


class SolutionStep(BaseModel):
    step: str
    record_ids: list[str] = []


class Gold(BaseModel):
    answer: str
    value: str | None = Field(default=None, description="the bare value (number string or entity) when one exists")
    unit: str = ""


class StageVerdict(BaseModel):
    stage: Literal["evidence_answering", "candidate_gold", "full_project"]
    verdict: str = Field(description="stage 1: knowable|not_knowable; 2: match|partial|mismatch; 3: pass|fix|drop")
    cause: str = "none"
    answer: str | None = None
    reason: str = ""
    validator: str = Field(default="rules", description="'rules' or the LLM model name")


class Validation(BaseModel):
    decision: Literal["pass", "fix", "drop"]
    category: str = "none"
    stages: list[StageVerdict] = []
    fixes_applied: list[str] = []
    rounds: int = 1


class QAItem(BaseModel):
    id: str
    project: str
    task: Task
    q: str
    answer_status: Literal["answerable", "unanswerable"]
    gold: Gold
    solution: list[SolutionStep] = []
    evidence_paths: list[list[str]] = []
    evidence: list[str] = Field(default=[], description="representative sufficient set of record ids")
    generator: str = Field(description="'rules:<family>' or 'llm:<model>'")
    validation: Validation | None = None
    provenance: Provenance

    @property
    def category(self) -> str:
        return TASK_CATEGORY[self.task]


class QASet(StageArtifact):
    """`projects/<seed>/questions.jsonl` (kept items) plus dropped items with their reasons."""

    items: list[QAItem]
    dropped: list[QAItem] = []


class Benchmark(BaseModel):
    """The merged question set of all projects (`benchmark/questions.jsonl` and `.parquet`)."""

    items: list[QAItem]
    projects: list[str]
    mix: dict[str, float] = Field(default={}, description="category -> share of items")
