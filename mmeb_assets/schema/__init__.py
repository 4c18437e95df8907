"""Typed records that cross stage boundaries.

Every asset returns one of these models; the IO manager stores it as JSON under the data home, so
the files on disk and the objects downstream stages receive are one and the same contract.
"""
from mmeb_assets.schema.common import Provenance, StageArtifact
from mmeb_assets.schema.source import (
    Claim, ConfigFact, Figure, NumericClaim, PageText, SourceDocument, SourceFacts, Table,
    TextBlock, TextualExtraction, VisualExtraction, VisualFact,
)
from mmeb_assets.schema.workspace import (
    Channel, Customer, Decision, DocumentPlan, Event, EventPlan, EvolvingFact, FactVersion,
    InventedFact, Milestone, Organization, Person, PlanItem, ScriptedError,
)
from mmeb_assets.schema.records import VISUAL_SOURCES, Corpus, Record, RecordSet, VersionEdge
from mmeb_assets.schema.qa import (
    TASK_CATEGORY, TASKS, Benchmark, Derivation, EvidenceStats, Gold, QAItem, QASet, SolutionStep,
    StageVerdict, Validation,
)
from mmeb_assets.schema.evaluation import Answer, Judgment, Retrieval, RetrievalSet

# Written out, not computed from dir(): tools (pyflakes, IDEs) read a literal list as re-exports.
__all__ = [
    "Provenance", "StageArtifact",
    "Claim", "ConfigFact", "Figure", "NumericClaim", "PageText", "SourceDocument", "SourceFacts", "Table",
    "TextBlock", "TextualExtraction", "VisualExtraction", "VisualFact",
    "Channel", "Customer", "Decision", "DocumentPlan", "Event", "EventPlan", "EvolvingFact", "FactVersion",
    "InventedFact", "Milestone", "Organization", "Person", "PlanItem", "ScriptedError",
    "VISUAL_SOURCES", "Corpus", "Record", "RecordSet", "VersionEdge",
    "TASK_CATEGORY", "TASKS", "Benchmark", "Derivation", "EvidenceStats", "Gold", "QAItem", "QASet", "SolutionStep",
    "StageVerdict", "Validation",
    "Answer", "Judgment", "Retrieval", "RetrievalSet",
]
