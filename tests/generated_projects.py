"""Generated projects for property tests across projects: drawn source facts -> organization -> plan
(-> records -> rule questions). Seeds are random seeds 0..n-1 with drawn papers; refused papers skipped."""
from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from mmeb_assets.simulation import build_event_plan, build_organization, refusal_reason
from mmeb_assets.simulation.random_facts import random_source_facts


@dataclass
class Project:
    seed: int
    facts: object
    org: object
    plan: object
    records: object = None
    items: list = None


@lru_cache(maxsize=4)
def planned_projects(n: int) -> tuple[Project, ...]:
    out = []
    for seed in range(n):
        facts = random_source_facts(random.Random(seed), f"gen-{seed:03d}")
        if refusal_reason(facts):
            facts = random_source_facts(random.Random(10_000 + seed), f"gen-{seed:03d}")
        if refusal_reason(facts):
            continue
        org = build_organization(facts, random_seed=seed)
        out.append(Project(seed, facts, org, build_event_plan(facts, org, random_seed=seed)))
    return tuple(out)


_ROOT = Path(tempfile.mkdtemp(prefix="mmeb-generated-"))


def project_dir(project: Project) -> Path:
    return _ROOT / project.org.seed_id


@lru_cache(maxsize=2)
def rendered_projects(n: int) -> tuple[Project, ...]:
    """Projects with records and rule questions (about 5 s each: the PDFs and images are rendered)."""
    from mmeb_assets.provenance import make_provenance
    from mmeb_assets.qa.evidence import ProjectIndex
    from mmeb_assets.qa.generate import generate_rule_items, make_context
    from mmeb_assets.records.render import render_records

    root = _ROOT
    out = []
    for p in planned_projects(n):
        records = render_records(p.facts, p.org, p.plan, root / p.org.seed_id, random_seed=p.seed)
        index = ProjectIndex(plan=p.plan, org=p.org, records=records)
        items = generate_rule_items(make_context(index, make_provenance(p.org.seed_id, "qa", "rules")))
        out.append(Project(p.seed, p.facts, p.org, p.plan, records, items))
    return tuple(out)
