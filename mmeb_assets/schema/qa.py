"""Questions, gold evidence, and their staged validation."""
from __future__ import annotations

from datetime import datetime
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


class Derivation(BaseModel):
    """How the gold follows from the records: what the deterministic validators re-check (optional)."""

    kind: str = Field(description="lookup | difference | ratio | percent_change | rank | budget_choice | "
                                  "claim_check | quote_check | author | version_at | version_before | version_latest | "
                                  "version_sequence | corrected_value | stale_sources | absent_premise | free")
    operands: list[str] = Field(default=[], description="exact value strings read from the cited records")
    result: str = Field(default="", description="the bare value the recipe yields (equals gold.value)")
    fact_key: str = Field(default="", description="plan fact the item is about, e.g. 'run_03:nDCG@10', 'ef_01'")
    premise_values: list[str] = Field(default=[], description="values the question may state (not a leak)")
    absent_terms: list[str] = Field(default=[], description="UNS: the perturbed premise; must occur in no record")
    competing_values: list[str] = Field(default=[], description="other versions of the same fact in the project")
    boundary_time: datetime | None = Field(default=None, description="the time the question names, if any")


class EvidenceStats(BaseModel):
    """Shape of the representative gold evidence set (for the paper's analysis tables)."""

    n_units: int = 0
    source_types: list[str] = []
    modality: Literal["none", "text", "visual", "text+visual"] = "none"
    n_images: int = 0
    span_hours: float = 0.0


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
    boundary: str = Field(default="", description="the time / version / revision boundary the question names")
    derivation: Derivation | None = None
    evidence_stats: EvidenceStats | None = None
    perturbed_from: str | None = Field(default=None, description="UNS: id of the answerable item it perturbs")

    @property
    def category(self) -> str:
        return TASK_CATEGORY[self.task]


class QASet(StageArtifact):
    """`projects/<seed>/questions.jsonl` (kept items) plus dropped items with their reasons."""

    items: list[QAItem]
    dropped: list[QAItem] = []
    n_candidates: int = Field(default=0, description="items generated before validation and the mix")
    unselected: list[str] = Field(default=[], description="ids that passed validation but were left out by the mix")
    target_mix: dict[str, float] = Field(default={}, description="category -> configured share used for the mix")


class Benchmark(BaseModel):
    """The merged question set of all projects (`benchmark/questions.jsonl` and `.parquet`)."""

    items: list[QAItem]
    projects: list[str]
    mix: dict[str, float] = Field(default={}, description="category -> share of items")
    target_mix: dict[str, float] = Field(default={}, description="category -> configured share")
    dropped: dict[str, int] = Field(default={}, description="drop category -> number of dropped items")
