"""Rules twin of the event-scheduling step: items get owners and completion times; invented facts."""
from __future__ import annotations

import random
from dataclasses import dataclass

from mmeb_assets.schema.source import SourceFacts
from mmeb_assets.schema.workspace import Organization
from mmeb_assets.simulation.config import SimulationConfig, rng_for, to_slot
from mmeb_assets.simulation.drafts import InventedDraft, ItemDraft, ScheduleDraft, Slot
from mmeb_assets.simulation.items import item_drafts, select_rows, source_rows
from mmeb_assets.simulation.refusal import require_plannable
from mmeb_assets.simulation.seed_work import SeedWork
from mmeb_assets.simulation.timeline import to_frac, worktime

# '{work}' is the seed's own work (`seed_work.SeedWork`): every project measures its own service,
# corpus or pipeline, so no invented name recurs across the projects of a build.
INVENTED_POOL = {
    "research_lab": [
        ("median query latency of the {work} service", "ms", (18, 95, 0)),
        ("peak GPU memory while indexing for {work}", "GB", (8.0, 39.0, 1)),
        ("index size of the {work} pilot corpus", "GB", (1.5, 12.0, 1)),
        ("cost per thousand {work} queries", "USD", (0.08, 0.9, 2)),
        ("nightly {work} re-index duration", "min", (22, 95, 0)),
        ("throughput of one {work} serving node", "queries/s", (40, 380, 0)),
        ("cold-start time of the {work} service", "s", (4, 29, 0)),
        ("wall-clock of the final {work} training run", "h", (3.5, 19.5, 1)),
    ],
    "analysis_firm": [
        ("stakeholder interviews completed for {work}", "interviews", (8, 31, 0)),
        ("refresh time of the {work} indicator pipeline", "h", (1.5, 9.5, 1)),
        ("share of {work} source records failing validation", "%", (0.4, 6.5, 1)),
        ("survey responses collected for {work}", "responses", (640, 2900, 0)),
        ("modelling runs for the {work} sensitivity sweep", "runs", (24, 120, 0)),
        ("load time of the {work} dashboard", "s", (1.2, 8.8, 1)),
        ("analyst time booked on {work} so far", "h", (60, 240, 0)),
        ("source documents reviewed for {work}", "documents", (40, 180, 0)),
    ],
}
UNIT_LIKE = {"ms", "GB", "min", "h", "s", "USD", "%"}


@dataclass(frozen=True)
class Anchors:
    """Fractions of the working week where the week's landmarks fall."""

    joiner: float
    report_v1: float
    report_v2: float
    release: float
    deck_v1: float
    deck_v2: float
    milestone_a: float
    milestone_b: float

    @classmethod
    def of(cls, org: Organization, config: SimulationConfig) -> "Anchors":
        ma, mb = to_frac(config, org.milestone_a.due), to_frac(config, org.milestone_b.due)
        joiner = to_frac(config, org.person(org.late_joiner_id).joined_at)
        v2 = ma - 0.025
        v1 = max(v2 - 0.17, 0.25)
        release = v1 + 0.05
        return cls(joiner=joiner, report_v1=v1, report_v2=v2, release=release, deck_v1=release + 0.035,
                   deck_v2=min((v2 + mb) / 2, mb - 0.02), milestone_a=ma, milestone_b=mb)


def fmt_number(rng: random.Random, low: float, high: float, decimals: int) -> str:
    value = rng.uniform(low, high)
    if decimals == 0:
        number = int(round(value))
        return f"{number:,}" if number >= 1000 else str(number)
    return f"{value:.{decimals}f}"


def display(value: str, unit: str) -> str:
    return f"{value}%" if unit == "%" else f"{value} {unit}"


def _slot(config, frac: float) -> Slot:
    day, hhmm = to_slot(config, worktime(config, frac))
    return Slot(day=day, time=hhmm)


def _spread(n: int, lo: float, hi: float, rng: random.Random) -> list[float]:
    if n <= 0:
        return []
    step = (hi - lo) / n
    return [lo + step * i + rng.uniform(0.1, 0.9) * step for i in range(n)]


def _owners(org: Organization) -> tuple[list[str], str]:
    core = [p.id for p in org.people if p.id not in (org.late_joiner_id, org.pm_id)]
    workers = [c for c in core if c != org.lead_id] or core
    return workers, org.report_author_id


def schedule_items(items: list[ItemDraft], org: Organization, config: SimulationConfig, anchors: Anchors,
                   rng: random.Random) -> None:
    workers, author = _owners(org)
    groups: dict[str, list[ItemDraft]] = {}
    for it in items:
        groups.setdefault(it.kind, []).append(it)
    v1 = anchors.report_v1
    fracs = {}
    for it, f in zip(groups.get("baseline", []), _spread(len(groups.get("baseline", [])), 0.02, 0.13, rng)):
        fracs[it.id] = f
    for kind in ("progression", "chronological"):
        for it, f in zip(groups.get(kind, []), _spread(len(groups.get(kind, [])), 0.1, v1 - 0.04, rng)):
            fracs[it.id] = f
    analysis = groups.get("analysis", []) + groups.get("statement", [])  # statements are looked up like analyses
    early = len(analysis) // 2
    for it, f in zip(analysis[:early], _spread(early, 0.18, v1 - 0.03, rng)):
        fracs[it.id] = f
    late = analysis[early:]
    for it, f in zip(late, _spread(len(late), anchors.release + 0.02, anchors.report_v2 - 0.035, rng)):
        fracs[it.id] = f
    for n, it in enumerate(groups.get("release", [])):
        fracs[it.id] = anchors.release + 0.012 * n
    if items and max(fracs.values()) <= v1 + 0.01:
        # report v1 must mark a later result pending: the last result lands after the release
        last = max(items, key=lambda it: (fracs[it.id], it.id))
        fracs[last.id] = anchors.release + 0.02
        late = late + [last]
    for n, it in enumerate(items):
        it.done = _slot(config, fracs[it.id])
        it.owner = author if it.kind == "release" else workers[n % len(workers)]
    joiner_item = next((it for it in late if fracs[it.id] > anchors.joiner + 0.02), None)
    if joiner_item is not None:
        joiner_item.owner = org.late_joiner_id


def invent_facts(org: Organization, config: SimulationConfig, source_values: set[str], rng: random.Random,
                 code_channels: tuple[str, str], work: str = "") -> list[InventedDraft]:
    pool = list(INVENTED_POOL[org.archetype])
    rng.shuffle(pool)
    # the first one has a unit a slip can get wrong (wrong_unit errors need one)
    pool.sort(key=lambda entry: entry[1] not in UNIT_LIKE)
    workers, _ = _owners(org)
    chosen = pool[:config.n_invented]
    out = []
    for n, ((name, unit, (lo, hi, dec)), f) in enumerate(zip(chosen, _spread(len(chosen), 0.04, 0.5, rng))):
        value = fmt_number(rng, lo, hi, dec)
        while value in source_values or display(value, unit) in source_values:
            value = fmt_number(rng, lo, hi, dec)
        owner = workers[(n + 1) % len(workers)]
        name = name.format(work=work or org.customer.name)
        out.append(InventedDraft(id=f"inv_{n + 1:02d}", name=name, value=value, unit=unit, owner=owner,
                                 channel=code_channels[n % 2], at=_slot(config, f),
                                 rationale=f"{name} decides whether the pilot for {org.customer.name} is practical"))
    return out


def source_value_set(facts: SourceFacts) -> set[str]:
    values = {c.strip() for t in facts.tables for r in t.rows for c in r}
    values |= {v.value for vis in facts.visual for v in vis.image_only_facts}
    return {v for v in values if v}


def rules_schedule(facts: SourceFacts, org: Organization, *, random_seed: int, config: SimulationConfig,
                   code_channels: tuple[str, str]) -> ScheduleDraft:
    rng = rng_for(random_seed, "schedule")
    anchors = Anchors.of(org, config)
    require_plannable(facts)
    items = item_drafts(select_rows(source_rows(facts, org.archetype), config.max_items), org.archetype)
    schedule_items(items, org, config, anchors, rng)
    items.sort(key=lambda it: (it.done.day, it.done.time, it.id))
    prefix = items[0].id.split("_")[0]
    for n, it in enumerate(items, start=1):
        it.id = f"{prefix}_{n:02d}"
    invented = invent_facts(org, config, source_value_set(facts), rng, code_channels, SeedWork.of(facts).work)
    return ScheduleDraft(items=items, invented=invented)
