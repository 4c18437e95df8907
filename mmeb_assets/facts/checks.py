"""Asset checks of the facts stage: what `source_facts` claims must be readable in its source."""

import dagster as dg

from mmeb_assets.facts.assets import source_facts
from mmeb_assets.facts.source_checks import check_textual, source_text
from mmeb_assets.ingestion.checks import repairs_metadata
from mmeb_assets.partitions import partition_values
from mmeb_assets.schema.source import SourceFacts


@dg.asset_check(asset=source_facts, blocking=True, additional_ins={"seed_document": dg.AssetIn("seed_document")},
                description="every claim number occurs verbatim in the source; labels hold no digit")
def claims_verbatim(source_facts, seed_document) -> dg.AssetCheckResult:
    documents = {d.seed_id: d for d in partition_values(seed_document)}
    facts: list[SourceFacts] = partition_values(source_facts)
    errors = [f"{f.seed_id}: {e}" for f in facts for e in check_textual(f.textual, source_text(documents[f.seed_id]))]
    return dg.AssetCheckResult(passed=not errors, metadata={"claims": sum(len(f.textual.claims) for f in facts),
                                                            "errors": "; ".join(errors[:10]),
                                                            **repairs_metadata(facts)})


facts_checks = [claims_verbatim]
