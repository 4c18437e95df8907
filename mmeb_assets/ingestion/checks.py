"""Asset checks of the ingestion stage."""

import dagster as dg
from PIL import Image

from mmeb_assets.ingestion.assets import seed_document, source_facts
from mmeb_assets.ingestion.repairs import table_defects
from mmeb_assets.facts.source_facts import check_textual, source_text
from mmeb_assets.partitions import partition_values
from mmeb_assets.schema.source import SourceDocument, SourceFacts
from mmeb_resources.storage import StorageResource



def _repairs_metadata(artifacts) -> dict:
    repairs = [r for a in artifacts for r in a.provenance.repairs]
    return {"repairs": len(repairs), "repairs_detail": dg.MetadataValue.md("\n".join(f"- {r}" for r in repairs[:20]) or "none")}


@dg.asset_check(asset=seed_document, blocking=True,
                description="every kept table has a 'Table N' caption and rows as wide as its header "
                            "(a table that does not parse cleanly is dropped at ingestion, with the reason)")
def tables_well_formed(seed_document) -> dg.AssetCheckResult:
    documents: list[SourceDocument] = partition_values(seed_document)
    problems = [f"{t.id}: {p}" for d in documents for t in d.tables for p in table_defects(t)]
    return dg.AssetCheckResult(passed=not problems, metadata={"tables": sum(len(d.tables) for d in documents),
                                                              "problems": "; ".join(problems[:10]),
                                                              **_repairs_metadata(documents)})


@dg.asset_check(asset=seed_document, blocking=True, description="every figure PNG exists and opens with pillow")
def figure_images_open(seed_document, storage: StorageResource) -> dg.AssetCheckResult:
    problems = []
    documents: list[SourceDocument] = partition_values(seed_document)
    for document, figure in ((d, f) for d in documents for f in d.figures):
        try:
            with Image.open(storage.project_dir(document.seed_id) / figure.image_path) as image:
                image.verify()
        except Exception as exc:  # reported, not hidden: the check fails with the reason
            problems.append(f"{figure.image_path}: {exc}")
    return dg.AssetCheckResult(passed=not problems, metadata={"figures": sum(len(d.figures) for d in documents),
                                                              "problems": "; ".join(problems[:10])})


@dg.asset_check(asset=source_facts, blocking=True, additional_ins={"seed_document": dg.AssetIn("seed_document")},
                description="every claim number occurs verbatim in the source; labels hold no digit")
def claims_verbatim(source_facts, seed_document) -> dg.AssetCheckResult:
    documents = {d.seed_id: d for d in partition_values(seed_document)}
    facts: list[SourceFacts] = partition_values(source_facts)
    errors = [f"{f.seed_id}: {e}" for f in facts for e in check_textual(f.textual, source_text(documents[f.seed_id]))]
    return dg.AssetCheckResult(passed=not errors, metadata={"claims": sum(len(f.textual.claims) for f in facts),
                                                            "errors": "; ".join(errors[:10]),
                                                            **_repairs_metadata(facts)})


ingestion_checks = [tables_well_formed, figure_images_open, claims_verbatim]
