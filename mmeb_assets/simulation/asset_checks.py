"""Asset checks of the simulation stage (the paper's programmatic workspace validation)."""

import dagster as dg

from mmeb_assets.partitions import seed_partitions_def
from mmeb_assets.schema.source import SourceFacts
from mmeb_assets.schema.workspace import EventPlan, Organization
from mmeb_assets.simulation.assets import event_plan, organization
from mmeb_assets.simulation.checks_content import check_decisions, check_documents, check_drafts, check_evolving
from mmeb_assets.simulation.checks_org import check_organization
from mmeb_assets.simulation.checks_plan import check_access, check_errors, check_order, check_references

FACTS = {"source_facts": dg.AssetIn("source_facts")}
FACTS_ORG = {"source_facts": dg.AssetIn("source_facts"), "organization": dg.AssetIn("organization")}


def result(problems: list[str], severity=dg.AssetCheckSeverity.ERROR) -> dg.AssetCheckResult:
    return dg.AssetCheckResult(passed=not problems, severity=severity,
                               metadata={"problems": len(problems), "first": "\n".join(problems[:20]) or "none"})


@dg.asset_check(asset=organization, partitions_def=seed_partitions_def, blocking=True,
                description="team, roles, channels, DMs, access of the late joiner, milestones")
def organization_valid(organization: Organization) -> dg.AssetCheckResult:
    return result(check_organization(organization))


@dg.asset_check(asset=event_plan, partitions_def=seed_partitions_def, blocking=True, additional_ins=FACTS_ORG,
                description="referenced items, facts, people, channels and documents exist; speakers are members")
def plan_references(event_plan: EventPlan, source_facts: SourceFacts, organization: Organization):
    return result(check_references(source_facts, organization, event_plan))


@dg.asset_check(asset=event_plan, partitions_def=seed_partitions_def, blocking=True,
                additional_ins={"organization": dg.AssetIn("organization")},
                description="events chronological and in the window; versions in order")
def plan_order(event_plan: EventPlan, organization: Organization):
    return result(check_order(organization, event_plan))


@dg.asset_check(asset=event_plan, partitions_def=seed_partitions_def, blocking=True,
                description="each error introduced, noticed and corrected in order with its wrong value")
def plan_errors(event_plan: EventPlan):
    return result(check_errors(event_plan))


@dg.asset_check(asset=event_plan, partitions_def=seed_partitions_def, blocking=True,
                additional_ins={"organization": dg.AssetIn("organization")},
                description="the late joiner sees nothing before joining; DMs only between their members")
def plan_access(event_plan: EventPlan, organization: Organization):
    return result(check_access(organization, event_plan))


@dg.asset_check(asset=event_plan, partitions_def=seed_partitions_def, blocking=True,
                description="report/deck versions, Notion trailing Slack, image-only values never written")
def plan_documents(event_plan: EventPlan):
    return result(check_documents(event_plan))


@dg.asset_check(asset=event_plan, partitions_def=seed_partitions_def, blocking=False, additional_ins=FACTS_ORG,
                description="evolving facts (2-4 versions, one with 3+) and decisions citing exact values")
def plan_facts_decisions(event_plan: EventPlan, source_facts: SourceFacts, organization: Organization):
    return result(check_evolving(event_plan) + check_decisions(source_facts, organization, event_plan),
                  severity=dg.AssetCheckSeverity.WARN)


@dg.asset_check(asset=event_plan, partitions_def=seed_partitions_def, blocking=True,
                description="each event's draft message: must-contain values verbatim, no forbidden or image-only value")
def plan_drafts(event_plan: EventPlan):
    return result(check_drafts(event_plan))


ASSET_CHECKS = [plan_drafts, organization_valid, plan_references, plan_order, plan_errors, plan_access, plan_documents,
                plan_facts_decisions]
