"""Asset checks of the ingestion stage (`seed_document`); the check of `source_facts` is the facts stage's."""

import dagster as dg
from PIL import Image

from mmeb_assets.ingestion.assets import seed_document
from mmeb_assets.ingestion.repairs import table_defects
from mmeb_assets.partitions import partition_values
from mmeb_assets.schema.source import SourceDocument
from mmeb_resources.storage import StorageResource


def repairs_metadata(artifacts) -> dict:
    """The repairs of stage artifacts as check metadata: a check passes on what was repaired, so the
    UI must show what was dropped and why (the facts stage's check uses it too)."""
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
                                                              **repairs_metadata(documents)})


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


ingestion_checks = [tables_well_formed, figure_images_open]
