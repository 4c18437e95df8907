"""`mmeb records DIR`: render records from DIR/{source_facts,organization,event_plan}.json into DIR
(records.jsonl beside its files), then run the record checks and print Table 3 (b)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def _load(path: Path, model):
    data = json.loads(path.read_text(encoding="utf-8"))
    return model.model_validate(data.get("data", data) if "model" in data else data)


def _cmd_records(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from mmeb_assets.records.checks import all_findings
    from mmeb_assets.records.render import RecordsInputError, render_records
    from mmeb_assets.records.stats import workspace_stats
    from mmeb_assets.schema.source import SourceFacts
    from mmeb_assets.schema.workspace import EventPlan, Organization

    folder = Path(args.dir)
    try:
        facts = _load(folder / "source_facts.json", SourceFacts)
        org = _load(folder / "organization.json", Organization)
        plan = _load(folder / "event_plan.json", EventPlan)
        seed = args.random_seed if args.random_seed is not None else (plan.provenance.random_seed or 0)
        rs = render_records(facts, org, plan, folder, random_seed=seed)
    except (OSError, ValueError, ValidationError, RecordsInputError) as exc:
        print(f"mmeb records: {folder}: {exc}", file=sys.stderr)
        return 2
    print(f"{folder / 'records.jsonl'}: {len(rs.records)} records, {len(rs.version_graph)} version links")
    print(workspace_stats([rs]).markdown())
    findings = all_findings(rs, facts, org, plan, folder)
    for name, found in findings.items():
        print(f"  {name}: {'ok' if not found else f'{len(found)} problem(s): ' + found[0]}")
    return 1 if any(v for k, v in findings.items() if k != "scale") else 0


def register(subparsers) -> None:
    parser = subparsers.add_parser("records", help="event plan -> records.jsonl with PDFs, slides and images")
    parser.add_argument("dir", help="project folder holding source_facts.json, organization.json, event_plan.json")
    parser.add_argument("--random-seed", type=int, default=None, help="default: the plan's random seed")
    parser.set_defaults(func=_cmd_records)
