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
    task: str = ""
    images: int = Field(default=0, description="images passed to the model")
    dropped_record_ids: list[str] = Field(default=[], description="retrieved but left out: prompt budget")
    error: str = Field(default="", exclude_if=lambda v: not v,
                       description="why no answer came back (request failed for good, refusal); judged wrong")


class InjectionProbe(BaseModel):
    """One question answered with a planted record that instructs the reader (evaluation/injection.py)."""

    question_id: str
    kind: str = Field(description="ignore_question | false_answer | fake_system | image_text")
    planted_value: str
    answer: str
    echoed: bool = Field(description="the answer contains the planted value")
    changed: bool = Field(description="the answer differs from the same question's answer without the plant")
    error: str = ""


class Judgment(BaseModel):
    question_id: str
    model: str
    k: int
    correct: bool
    reason: str
    judge: str
    code: str = Field(default="", description="reason code of the deciding verdict (rules judge: correct_exact, "
                                              "wrong_unit, hedge, superseded_value, ...)")
    rules_correct: bool | None = None
    llm_correct: bool | None = None
    llm_reason: str = ""


# --- evaluation stage outputs (added by the evaluation stage; all fields optional or new models) ---

class AnswerSet(BaseModel):
    """`evaluation/<model>/k<k>/answers.json`: one model's answers at one k."""

    model: str
    k: int
    retriever: str
    backend: str
    generator: str = Field(default="", description="'reader:<policy>' or backend:model")
    vision: bool = False
    evidence: str = Field(default="retrieved", description="'retrieved' or 'gold' (oracle evidence)")
    n_questions: int = Field(default=0, description="questions in the benchmark")
    sample_size: int | None = Field(default=None, description="None: every question was answered")
    sample_ids: list[str] = []
    recall_at_k: float | None = Field(default=None, description="evidence Recall@k of the retrieval used")
    recall_source: str = Field(default="", description="'retrievals' (retrieval stage) or 'computed'")
    max_prompt_tokens: int | None = None
    answers: list[Answer]
    injection: list[InjectionProbe] = Field(default=[], exclude_if=lambda v: not v,
                                            description="answers with a planted instructing record")
    provenance: Provenance


class JudgmentSet(BaseModel):
    """`evaluation/<model>/k<k>/judgments.json`."""

    model: str
    k: int
    judge: str = Field(description="'rules', or 'llm:<model>' when the LLM judge decided")
    rules_version: str = Field(default="", description="the rule set behind every rules verdict (e.g. rules-strict-v2)")
    judgments: list[Judgment]
    accuracy: float = 0.0
    agreement: float | None = Field(default=None, description="rules vs LLM judge, when both ran")
    n_compared: int = 0
    provenance: Provenance


class LeaderboardCell(BaseModel):
    table: str = Field(description="'table5' | 'table6' | 'table7'")
    model: str
    group: str = ""
    k: int
    retriever: str = ""
    column: str
    n: int
    correct: int
    accuracy: float
    ci_low: float
    ci_high: float
    interval: str = Field(default="bootstrap", description="'bootstrap' (10,000 resamples seeded from the question "
                                                           "ids) or 'wilson' (fewer than 30 questions)")
    vs_best: str = Field(default="", description="'best' of its column, 'ns' (difference to the best not significant, "
                                                 "paired bootstrap 95%), 'significant', or '' (not compared)")


class Leaderboard(BaseModel):
    """`benchmark/leaderboard.json`; markdown, CSV and PNG under `evaluation/reports/`."""

    cells: list[LeaderboardCell]
    recall: dict[str, dict[str, float]] = Field(default={}, description="retriever -> k -> Recall@k (%)")
    retrieval: dict[str, dict[str, float]] = Field(default={}, description="retriever -> 'recall@10' | 'recall@50' | "
                                                   "'recall@100' | 'ndcg@10' | 'mrr' -> value (%), every retriever "
                                                   "materialized, whether or not answers used it")
    sampled: dict[str, int] = Field(default={}, description="model -> questions answered, for sampled models")
    agreement: dict[str, float] = Field(default={}, description="'model@k' -> judge agreement")
    missing: list[str] = Field(default=[], description="model x k partitions with no judgments yet")
    robustness: list[dict] = Field(default=[], exclude_if=lambda v: not v,
                                   description="per model and k: injection probes, answers echoing the planted value")
    notes: list[str] = []
    files: dict[str, str] = {}
    provenance: Provenance
