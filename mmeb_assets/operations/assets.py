"""`record_lineage`: the lineage of every record, as a file and as metadata in the UI."""
import dagster as dg
from pydantic import BaseModel

from mmeb_assets.operations.lineage import all_lineages
from mmeb_assets.provenance import code_version
from mmeb_resources.storage import StorageResource, atomic_write_jsonl


class LineageRow(BaseModel):
    record_id: str
    project: str
    source: str
    events: list[str]
    source_facts: list[str]
    versions: list[str]
    cited_by: list[str]
    retrieved_in: int


class LineageIndex(BaseModel):
    """`benchmark/record_lineage.jsonl`: one row per record."""

    rows: list[LineageRow]


@dg.asset(
    deps=[dg.AssetDep("records", partition_mapping=dg.AllPartitionMapping()),
          dg.AssetDep("benchmark"),
          dg.AssetDep("answers", partition_mapping=dg.AllPartitionMapping())],
    code_version=code_version("operations"), group_name="operations",
    description="For every record: the events and source facts it came from, its versions, the questions "
                "citing it and the answers that retrieved it (`mmeb lineage RECORD_ID` for one record).")
def record_lineage(context: dg.AssetExecutionContext, storage: StorageResource) -> LineageIndex:
    lineages = all_lineages(storage.root)
    rows = [LineageRow(record_id=l.record.id, project=l.record.project, source=l.record.source,
                       events=[e["id"] for e in l.events], source_facts=l.source_facts, versions=l.versions,
                       cited_by=l.cited_by, retrieved_in=len(l.retrieved_by)) for l in lineages]
    path = atomic_write_jsonl(storage.benchmark_dir() / "record_lineage.jsonl", rows)
    most_cited = sorted(lineages, key=lambda l: (-len(l.cited_by), l.record.id))[:1]
    context.add_output_metadata({
        "records": len(rows), "cited_records": sum(1 for r in rows if r.cited_by),
        "retrieved_records": sum(1 for r in rows if r.retrieved_in),
        "versioned_records": sum(1 for r in rows if len(r.versions) > 1),
        "file": dg.MetadataValue.path(str(path)),
        "most_cited_record": dg.MetadataValue.md(most_cited[0].markdown() if most_cited else "no records"),
    })
    return LineageIndex(rows=rows)
