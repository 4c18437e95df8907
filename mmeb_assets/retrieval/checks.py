"""Asset checks of the retrieval stage.

A check of its own (not a check spec inside `lance_index`) so that a build killed between the
asset and its check can evaluate the check alone on resume instead of re-embedding the project."""

import dagster as dg

from mmeb_assets.partitions import partition_values
from mmeb_assets.retrieval.assets import lance_index
from mmeb_assets.retrieval.index import project_hashes
from mmeb_assets.retrieval.models import IndexUpdate
from mmeb_resources.lancedb import LanceDBResource



@dg.asset_check(asset=lance_index, blocking=True, additional_ins={"records": dg.AssetIn("records")},
                description="the table holds exactly this project's records")
def rows_match_records(lance_index, records, lancedb: LanceDBResource) -> dg.AssetCheckResult:
    record_ids: dict[str, set[str]] = {}
    for record_set in partition_values(records):
        for record in record_set.records:
            record_ids.setdefault(record.project, set()).add(record.id)
    problems, rows = [], 0
    updates: list[IndexUpdate] = partition_values(lance_index)
    for update in updates:
        table = lancedb.open_table(update.retriever)
        ids = set(project_hashes(table, update.seed_id))
        rows += len(ids)
        want = record_ids.get(update.seed_id, set())
        if ids != want:
            problems.append(f"{update.seed_id}: {len(ids - want)} rows without a record, "
                            f"{len(want - ids)} records without a row")
    return dg.AssetCheckResult(passed=not problems, metadata={
        "rows": rows, "records": sum(len(v) for v in record_ids.values()), "problems": "; ".join(problems[:10])})
