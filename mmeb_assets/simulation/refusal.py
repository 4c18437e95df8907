"""Up-front refusal: source facts the planner cannot build a week on, said in one line.

Why: a seed without a single printed number used to fail deep inside scheduling (or pass as an
empty week and break records and QA). Refusing before the organization is drafted names the seed
and what it lacks, so a build can report it in one line and carry on with the other seeds.
"""
from __future__ import annotations

from mmeb_assets.schema.source import SourceFacts


class SeedRefused(ValueError):
    """A seed whose source facts cannot carry a simulated week. `str()` is the one-line message."""

    def __init__(self, seed_id: str, reason: str, source: str = ""):
        self.seed_id, self.reason, self.source = seed_id, reason, source
        where = f" ({source})" if source else ""
        super().__init__(f"seed {seed_id}{where} refused: {reason}")


MIN_ITEMS = 1


def refusal_reason(facts: SourceFacts) -> str | None:
    """What the seed lacks, or None when a week can be built on it. Uses the planner's own row reader,
    so every seed accepted here yields at least `MIN_ITEMS` item. The floor is on what a week is built
    of, not on the count of facts: a document with few facts gets a small project (its fact rows, then
    reviews of its own numbered sections), never one padded with page numbers, ids or dates."""
    from mmeb_assets.simulation.items import source_rows
    if not facts.seed_id.strip():
        return "source facts have no seed_id"
    if len(source_rows(facts, "research_lab")) >= MIN_ITEMS:
        return None
    rows = sum(len(t.rows) for t in facts.tables)
    return (f"no numeric claim to build a week on in {facts.title!r}: {len(facts.facts)} fact(s) (measured "
            f"quantities a reader would quote), {len(facts.tables)} table(s) with {rows} row(s), "
            f"{len(facts.statements)} statement(s) of its prose and {len(facts.sections)} numbered section title(s)")


def require_plannable(facts: SourceFacts, source: str = "") -> None:
    """Raise `SeedRefused` when the seed cannot carry a week (called before any planning step)."""
    reason = refusal_reason(facts)
    if reason:
        raise SeedRefused(facts.seed_id or "?", reason, source)
