"""Dagster assets and checks of the records stage (partitioned by seed project)."""

from collections import Counter

import dagster as dg

from mmeb_assets.partitions import partition_groups, seed_partitions_def
from mmeb_assets.provenance import code_version, content_hash, make_provenance
from mmeb_assets.records import checks as C
from mmeb_assets.records.render import render_records
from mmeb_assets.records.stats import WorkspaceStats, workspace_stats as compute_stats
from mmeb_assets.schema.records import RecordSet
from mmeb_assets.schema.source import SourceFacts
from mmeb_assets.schema.workspace import EventPlan, Organization
from mmeb_assets.versioning import versioned
from mmeb_resources.llm import LLMResource
from mmeb_resources.storage import StorageResource

UPSTREAM = {"source_facts": dg.AssetIn("source_facts"), "organization": dg.AssetIn("organization"),
            "event_plan": dg.AssetIn("event_plan")}


def random_seed_for(plan: EventPlan) -> int:
    if plan.provenance.random_seed is not None:
        return plan.provenance.random_seed
    return int(content_hash(plan.seed_id, 8), 16)


def _preview(rs: RecordSet, n: int = 6) -> str:
    picks, seen = [], set()
    for r in rs.records:
        if r.source not in seen:
            seen.add(r.source)
            picks.append(r)
    lines = []
    for r in picks[:n]:
        body = r.text[:300].replace("\n", "  \n")
        lines.append(f"**{r.id}** ({r.source}, v{r.version})  \n{body}\n")
    return "\n".join(lines)


def _thumbnail_md(path, record_id: str) -> str:
    """A small inline PNG (data URI) so the UI shows the page without opening the file."""
    import base64
    import io

    from PIL import Image

    with Image.open(path) as img:
        img.thumbnail((240, 340))
        buf = io.BytesIO()
        img.convert("RGB").save(buf, format="PNG")
    return f"**{record_id}**\n\n![thumbnail](data:image/png;base64,{base64.b64encode(buf.getvalue()).decode()})"


@dg.asset(partitions_def=seed_partitions_def, ins=UPSTREAM, code_version=code_version("records"),
          group_name="records", kinds={"python", "pdf"},
          description="Every record of the simulated week: Slack, e-mail, Notion, meetings, logs, PDF pages, "
                      "slides and images, with versions kept; exported as projects/<seed>/records.jsonl.")
def records(context: dg.AssetExecutionContext, storage: StorageResource, llm: LLMResource,
            source_facts: SourceFacts, organization: Organization, event_plan: EventPlan) -> dg.MaterializeResult[RecordSet]:
    seed = context.partition_key
    project_dir = storage.project_dir(seed)
    rs = render_records(source_facts, organization, event_plan, project_dir,
                        random_seed=random_seed_for(event_plan), llm=llm)
    counts = Counter(r.source for r in rs.records)
    thumb = next((r for r in rs.records if r.source == "pdf_page"), None) or \
        next((r for r in rs.records if r.source == "slide"), None)
    meta = {"records": len(rs.records), "by_source": dg.MetadataValue.json(dict(sorted(counts.items()))),
            "versions": len(rs.version_graph), "preview": dg.MetadataValue.md(_preview(rs)),
            "records_jsonl": dg.MetadataValue.path(str(project_dir / "records.jsonl"))}
    if thumb is not None:
        meta["thumbnail"] = dg.MetadataValue.path(str(project_dir / thumb.image_path))
        meta["thumbnail_preview"] = dg.MetadataValue.md(_thumbnail_md(project_dir / thumb.image_path, thumb.id))
    return versioned(rs, meta)


@dg.asset(partitions_def=seed_partitions_def, code_version=code_version("records"), group_name="records",
          description="The paper's Table 3 (b) for one project: records by source, text vs visual, "
                      "record versions, tokens.")
def workspace_stats(context: dg.AssetExecutionContext, records: RecordSet) -> dg.MaterializeResult[WorkspaceStats]:
    stats = compute_stats([records], make_provenance(records.seed_id, "records", "rules",
                                                     code=code_version("records"), inputs=records))
    return versioned(stats, {"table": dg.MetadataValue.md(stats.markdown()),
                             "retrieval_records": stats.retrieval_records,
                             "record_versions": stats.record_versions, "tokens": stats.tokens_total})


@dg.asset(ins={"records": dg.AssetIn("records")}, code_version=code_version("records"), group_name="records",
          description="Table 3 (b) over every project of the manifest that has records (the shared workspace).")
def workspace_stats_corpus(context: dg.AssetExecutionContext, records) -> WorkspaceStats:
    sets = records if isinstance(records, dict) else {records.seed_id: records}
    ordered = [sets[k] for k in sorted(sets)]
    stats = compute_stats(ordered, make_provenance("corpus", "records", "rules", code=code_version("records"),
                                                   inputs=[rs.provenance.inputs_hash for rs in ordered]))
    context.add_output_metadata({"table": dg.MetadataValue.md(stats.markdown()), "projects": len(ordered),
                                 "retrieval_records": stats.retrieval_records})
    return stats


# The checks below are about one seed's records but are not partitioned themselves (Dagster marks
# partitioned checks as a preview feature): in a seed's run the IO manager hands them that seed's
# models and they check that run's materialization; run alone they get {seed: model} and check every
# seed (`partition_groups`), so their inputs carry no type annotation.
def _result(findings: list[str], severity=dg.AssetCheckSeverity.ERROR) -> dg.AssetCheckResult:
    return dg.AssetCheckResult(passed=not findings, severity=severity,
                               metadata={"findings": len(findings),
                                         "first": dg.MetadataValue.md("\n".join(f"- {f}" for f in findings[:20]) or "none")})


@dg.asset_check(asset=records, blocking=True, description="unique seed-prefixed ids, headers, relative image "
                "paths, order, and supersedes links that match the version graph")
def records_structure(records) -> dg.AssetCheckResult:
    return _result([f for (rs,) in partition_groups(records) for f in C.check_ids(rs) + C.check_versions(rs)])


@dg.asset_check(asset=records, blocking=True, additional_ins={"organization": dg.AssetIn("organization"),
                                                              "event_plan": dg.AssetIn("event_plan")},
                description="each channel event has exactly one Slack message with its actor, time and "
                            "channel; every speaker is a member of the channel")
def records_event_messages(records, organization, event_plan) -> dg.AssetCheckResult:
    return _result([f for rs, org, plan in partition_groups(records, organization, event_plan)
                    for f in C.check_event_messages(rs, org, plan) + C.check_speakers(rs, org)])


@dg.asset_check(asset=records, blocking=True, additional_ins={"organization": dg.AssetIn("organization")},
                description="access lists respect channels and the late joiner sees nothing before joining")
def records_access(records, organization) -> dg.AssetCheckResult:
    return _result([f for rs, org in partition_groups(records, organization) for f in C.check_access(rs, org)])


@dg.asset_check(asset=records, blocking=True, additional_ins={"source_facts": dg.AssetIn("source_facts"),
                                                              "event_plan": dg.AssetIn("event_plan")},
                description="must-contain values verbatim; must-not-contain and pixel-only values absent "
                            "from stored text")
def records_values(records, source_facts, event_plan) -> dg.AssetCheckResult:
    return _result([f for rs, facts, plan in partition_groups(records, source_facts, event_plan)
                    for f in C.check_event_values(rs, plan) + C.check_pixel_only(rs, facts, plan)])


@dg.asset_check(asset=records, blocking=True, additional_ins={"source_facts": dg.AssetIn("source_facts"),
                                                              "event_plan": dg.AssetIn("event_plan")},
                description="every PDF, PPTX and PNG opens back; PDF text holds the report's values")
def records_files(storage: StorageResource, records, source_facts, event_plan) -> dg.AssetCheckResult:
    return _result([f for rs, facts, plan in partition_groups(records, source_facts, event_plan)
                    for f in C.check_files(rs, plan, storage.project_dir(rs.seed_id), facts)])


@dg.asset_check(asset=records, blocking=False, description="200-275 records per project, as in the paper")
def records_scale(records) -> dg.AssetCheckResult:
    return _result([f for (rs,) in partition_groups(records) for f in C.check_scale(rs)],
                   severity=dg.AssetCheckSeverity.WARN)


ASSETS = [records, workspace_stats, workspace_stats_corpus]
CHECKS = [records_structure, records_event_messages, records_access, records_values, records_files, records_scale]
