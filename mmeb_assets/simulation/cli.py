"""`mmeb simulate SOURCE_FACTS.json --out DIR`: organization.json + event_plan.json, then the plan checks."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def _load_facts(path: Path):
    from mmeb_assets.schema.source import SourceFacts

    data = json.loads(path.read_text(encoding="utf-8"))
    return SourceFacts.model_validate(data.get("data", data))   # plain model or the IO manager's envelope


def _cmd_simulate(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from mmeb_assets.simulation import SimulationConfig, build_event_plan, build_organization, derive_random_seed
    from mmeb_assets.simulation.checks_content import check_plan
    from mmeb_assets.simulation.checks_org import check_organization
    from mmeb_resources.storage import atomic_write_json

    try:
        facts = _load_facts(Path(args.facts))
        config = SimulationConfig(days=args.days, archetype=args.archetype)
    except (OSError, ValueError, ValidationError) as exc:
        print(f"mmeb simulate: {args.facts}: {exc}", file=sys.stderr)
        return 2
    seed = derive_random_seed(facts.seed_id, args.random_seed)
    org = build_organization(facts, random_seed=seed, config=config)
    plan = build_event_plan(facts, org, random_seed=seed, config=config)
    out = Path(args.out)
    atomic_write_json(out / "organization.json", org)
    atomic_write_json(out / "event_plan.json", plan)
    problems = {"organization": check_organization(org), **check_plan(facts, org, plan)}
    print(f"{out}: {org.company_name} ({org.archetype}), {len(org.people)} people, {len(plan.events)} events, "
          f"{len(plan.errors)} errors, {len(plan.documents)} documents")
    for name, found in problems.items():
        print(f"  {name}: {'ok' if not found else f'{len(found)} problem(s): ' + found[0]}")
    return 1 if any(problems.values()) else 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("simulate", help="source facts -> organization and event plan (rules twin)")
    parser.add_argument("facts", help="source_facts.json")
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--random-seed", type=int, default=None, help="default: derived from the seed id")
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--archetype", choices=["research_lab", "analysis_firm"], default=None)
    parser.set_defaults(func=_cmd_simulate)
