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


def _visual_record(ctx: GenContext, doc_id: str, value: str, other: str):
    """A visual unit of the document that shows `value` and not `other` (else one image would answer)."""
    return next((r for r in ctx.index.doc_records(doc_id, value)
                 if r.source in VISUAL and not ctx.index.shows(r, other)), None)


def _subject(ctx: GenContext, target: str) -> tuple[str, str] | None:
    """(what is asked for, whose value) for an error's target: a table cell (its row has several values,
    so which one changed is part of the question) or an invented fact (one value: what is empty)."""
    item_id, _, col = target.partition(":")
    item = ctx.index.items.get(item_id)
    if item is not None and col:
        return (f"{col} value" if is_year(col) else metric(col)), the(item.label)
    invented = next((f for f in ctx.index.plan.invented if f.id == item_id), None)
    return ("", f"the {invented.name}") if invented is not None else None


def _pairs(ctx: GenContext):
    """(earlier document, next version, an error the next version corrects)."""
    documents = ctx.index.plan.documents
    for doc in documents:
        newer = next((d for d in documents if d.doc_key == doc.doc_key and d.version == doc.version + 1), None)
        for error in ctx.index.plan.errors if newer is not None else []:
            if error.id in doc.error_ids_shown_wrong and error.id not in newer.error_ids_shown_wrong:
                yield doc, newer, error


def generate(ctx: GenContext) -> list[QAItem]:
    out, asked_docs = [], set()
    for doc, newer, error in _pairs(ctx):
        subject = _subject(ctx, error.target)
        if doc.id in asked_docs or subject is None:
            continue
        before = _visual_record(ctx, doc.id, error.wrong_value, error.correct_value)
        after = _visual_record(ctx, newer.id, error.correct_value, error.wrong_value)
        if before is None or after is None or before.id == after.id:
            continue
        what, whose = subject
        v0, v1 = doc.version, newer.version
        if what:
            q = (f"Between version {v0} and version {v1} of '{doc.title}', one value shown for {whose} was changed. "
                 f"Which one, and what does version {v1} show?")
            answer = f"The {what}: {error.wrong_value} in version {v0}, {error.correct_value} in version {v1}."
        else:
            q = (f"Between version {v0} and version {v1} of '{doc.title}', the value shown for {whose} was changed. "
                 f"What did version {v0} show, and what does version {v1} show?")
            answer = f"{error.wrong_value} in version {v0}, {error.correct_value} in version {v1}."
        out.append(draft(
            ctx, "temporal_conflict", "temporal.visual_versions", q, answer, value=error.correct_value,
            evidence=[before.id, after.id], boundary=f"versions {v0}-{v1}",
            steps=[(f"Version {v0} shows {error.wrong_value} for {what + ' of ' if what else ''}{whose}.", [before.id]),
                   (f"Version {v1} shows {error.correct_value} there.", [after.id])],
            derivation=Derivation(kind="lookup", operands=[error.correct_value, error.wrong_value],
                                  result=error.correct_value, fact_key=f"{newer.id}:{error.target}",
                                  competing_values=[error.wrong_value]),
        ))
        asked_docs.add(doc.id)
    return out
