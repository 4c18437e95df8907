"""Questions that need two versions of one visual document (issue 27 item 2: multi-image evidence).

A chart, report page or slide posted twice, where the later version corrects a value the earlier one
showed wrongly: which value changed, and what the later version shows. Reading one version is not
enough: the earlier one says which value moved, the later one what it became. Both are images, so the
gold evidence has two image units.
"""
from __future__ import annotations

from mmeb_assets.qa.families.base import GenContext, draft, is_year
from mmeb_assets.qa.phrasing import metric, the
from mmeb_assets.schema import Derivation, QAItem

VISUAL = ("pdf_page", "slide", "image")


def _visual_record(ctx: GenContext, doc_id: str, value: str):
    return next((r for r in ctx.index.doc_records(doc_id, value) if r.source in VISUAL), None)


def generate(ctx: GenContext) -> list[QAItem]:
    index, out = ctx.index, []
    for doc in index.plan.documents:
        later = sorted((d for d in index.plan.documents if d.doc_key == doc.doc_key and d.version == doc.version + 1),
                       key=lambda d: d.version)
        if not later:
            continue
        newer = later[0]
        for error in index.plan.errors:
            if error.id not in doc.error_ids_shown_wrong or error.id in newer.error_ids_shown_wrong:
                continue
            item_id, _, col = error.target.partition(":")
            item = index.items.get(item_id)
            before = _visual_record(ctx, doc.id, error.wrong_value)
            after = _visual_record(ctx, newer.id, error.correct_value)
            if item is None or before is None or after is None or before.id == after.id:
                continue
            what = f"{col} value" if is_year(col) else metric(col)
            q = (f"Between version {doc.version} and version {newer.version} of '{doc.title}', one value shown "
                 f"for {the(item.label)} was changed. Which one, and what does version {newer.version} show?")
            answer = (f"The {what}: {error.wrong_value} in version {doc.version}, {error.correct_value} "
                      f"in version {newer.version}.")
            out.append(draft(
                ctx, "temporal_conflict", "temporal.visual_versions", q, answer, value=error.correct_value,
                evidence=[before.id, after.id], boundary=f"versions {doc.version}-{newer.version}",
                steps=[(f"Version {doc.version} shows {error.wrong_value} for the {col} of {item.label}.", [before.id]),
                       (f"Version {newer.version} shows {error.correct_value} there.", [after.id])],
                derivation=Derivation(kind="lookup", operands=[error.correct_value, error.wrong_value],
                                      result=error.correct_value, fact_key=f"{newer.id}:{error.target}",
                                      competing_values=[error.wrong_value]),
            ))
            break
    return out
