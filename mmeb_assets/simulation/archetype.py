"""Which kind of fictional company produced the source's content: research lab or analysis firm."""
from __future__ import annotations

import re

from pydantic import BaseModel, Field

from mmeb_assets.schema.source import SourceFacts
from mmeb_assets.schema.workspace import Archetype

EXPERIMENT_WORDS = ("ablation", "baseline", "benchmark", "we propose", "proposed", "accuracy", "recall", "f1",
                    "mrr", "ndcg", "bleu", "training", "fine-tun", "epoch", "model", "encoder", "retriev",
                    "transformer", "dataset", "state-of-the-art", "outperform", "run", "variant")
REPORT_WORDS = ("framework", "strategy", "outlook", "survey", "forecast", "audit", "standard", "policy",
                "guidance", "indicator", "projection", "emissions", "budget", "agency", "government",
                "recommendation", "risk management", "assessment", "report", "sector", "call for evidence")


class ArchetypeChoice(BaseModel):
    archetype: Archetype
    reason: str = Field(description="one sentence")


def _evidence_text(facts: SourceFacts) -> str:
    parts = [facts.title, facts.domain, facts.textual.one_sentence, facts.textual.task_summary,
             " ".join(facts.textual.components), " ".join(t.caption for t in facts.tables),
             " ".join(" ".join(t.header) for t in facts.tables)]
    return " ".join(parts).lower()


def _hits(text: str, words: tuple[str, ...]) -> list[str]:
    return [w for w in words if re.search(r"\b" + re.escape(w), text)]


def select_archetype(facts: SourceFacts, override: str | None = None) -> ArchetypeChoice:
    """Rules twin: keyword evidence for experiments vs. reports; an override (manifest) wins."""
    if override:
        if override not in ("research_lab", "analysis_firm"):
            raise ValueError(f"archetype override {override!r}: expected research_lab or analysis_firm")
        return ArchetypeChoice(archetype=override, reason=f"Set by the seed manifest as {override.replace('_', ' ')}.")
    text = _evidence_text(facts)
    exp, rep = _hits(text, EXPERIMENT_WORDS), _hits(text, REPORT_WORDS)
    year_columns = sum(1 for t in facts.tables for h in t.header if re.fullmatch(r"(19|20)\d\d", h.strip()))
    rep_score = len(rep) + 2 * min(year_columns, 3)
    if len(exp) > rep_score:
        return ArchetypeChoice(archetype="research_lab", reason=(
            f"The content reports experiments the authors ran ({', '.join(exp[:3])}), so an engineering "
            "team shipping the system fits."))
    shown = ", ".join(rep[:3]) or "year-by-year indicators"
    return ArchetypeChoice(archetype="analysis_firm", reason=(
        f"The numbers come from data gathering and modelling ({shown}) rather than experiments, so a "
        "consultancy writing this analysis for a client fits."))


def validate_archetype(choice: ArchetypeChoice) -> list[str]:
    problems = []
    if not choice.reason.strip():
        problems.append("reason is empty")
    if len(choice.reason) > 300:
        problems.append("reason must be one sentence (under 300 characters)")
    if re.search(r"\b(paper|publication|conference|journal)\b", choice.reason, re.I):
        problems.append("reason must not mention a paper/publication")
    return problems
