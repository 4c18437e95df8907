"""Asset checks of the simulation stage (the paper's programmatic workspace validation).

Each check is about one seed but is not partitioned itself: Dagster marks partitioned checks as a
preview feature. In a seed's run its inputs are that seed's models (the IO manager loads the run's own
partition) and it checks the materialization of that run; run alone it checks every seed
(`partition_groups`), so its inputs are a model or {seed: model} and carry no type annotation."""

import dagster as dg

from mmeb_assets.partitions import partition_groups
from mmeb_assets.simulation.assets import event_plan, organization
from mmeb_assets.simulation.checks_content import check_decisions, check_documents, check_drafts, check_evolving
from mmeb_assets.simulation.checks_org import check_organization
from mmeb_assets.simulation.checks_plan import check_access, check_errors, check_order, check_references

FACTS = {"source_facts": dg.AssetIn("source_facts")}
FACTS_ORG = {"source_facts": dg.AssetIn("source_facts"), "organization": dg.AssetIn("organization")}


def result(problems: list[str], severity=dg.AssetCheckSeverity.ERROR) -> dg.AssetCheckResult:
    return dg.AssetCheckResult(passed=not problems, severity=severity,
                               metadata={"problems": len(problems), "first": "\n".join(problems[:20]) or "none"})


@dg.asset_check(asset=organization, blocking=True,
                description="team, roles, channels, DMs, access of the late joiner, milestones")
def organization_valid(organization) -> dg.AssetCheckResult:
    return result([p for (org,) in partition_groups(organization) for p in check_organization(org)])


@dg.asset_check(asset=event_plan, blocking=True, additional_ins=FACTS_ORG,
                description="referenced items, facts, people, channels and documents exist; speakers are members")
def plan_references(event_plan, source_facts, organization):
    return result([p for plan, facts, org in partition_groups(event_plan, source_facts, organization)
                   for p in check_references(facts, org, plan)])


@dg.asset_check(asset=event_plan, blocking=True,
                additional_ins={"organization": dg.AssetIn("organization")},
                description="events chronological and in the window; versions in order")
def plan_order(event_plan, organization):
    return result([p for plan, org in partition_groups(event_plan, organization) for p in check_order(org, plan)])


@dg.asset_check(asset=event_plan, blocking=True,
                description="each error introduced, noticed and corrected in order with its wrong value")
def plan_errors(event_plan):
    return result([p for (plan,) in partition_groups(event_plan) for p in check_errors(plan)])


@dg.asset_check(asset=event_plan, blocking=True,
                additional_ins={"organization": dg.AssetIn("organization")},
                description="the late joiner sees nothing before joining; DMs only between their members")
def plan_access(event_plan, organization):
    return result([p for plan, org in partition_groups(event_plan, organization) for p in check_access(org, plan)])


@dg.asset_check(asset=event_plan, blocking=True,
                description="report/deck versions, Notion trailing Slack, image-only values never written")
def plan_documents(event_plan):
    return result([p for (plan,) in partition_groups(event_plan) for p in check_documents(plan)])


@dg.asset_check(asset=event_plan, blocking=False, additional_ins=FACTS_ORG,
                description="evolving facts (2-4 versions, one with 3+) and decisions citing exact values")
def plan_facts_decisions(event_plan, source_facts, organization):
    return result([p for plan, facts, org in partition_groups(event_plan, source_facts, organization)
                   for p in check_evolving(plan) + check_decisions(facts, org, plan)],
                  severity=dg.AssetCheckSeverity.WARN)


@dg.asset_check(asset=event_plan, blocking=True,
                description="each event's draft message: must-contain values verbatim, no forbidden or image-only value")
def plan_drafts(event_plan):
    return result([p for (plan,) in partition_groups(event_plan) for p in check_drafts(plan)])


ASSET_CHECKS = [plan_drafts, organization_valid, plan_references, plan_order, plan_errors, plan_access, plan_documents,
                plan_facts_decisions]
