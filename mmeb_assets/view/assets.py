"""`results_view`: the results browser as an asset downstream of the leaderboard and the record lineage,
so a new result (or a rebuilt question set) marks it stale and rebuilding it keeps the lineage."""

import dagster as dg

from mmeb_assets.provenance import code_version
from mmeb_resources.storage import StorageResource

STAGE = "view"


def _preview(summary) -> str:
    """Markdown for the Dagster UI: what the site holds and how to open it."""
    lines = [f"**Results browser** at `{summary.index}`", "",
             "| questions | runs | retrievers | seed pages | record images |", "|---|---|---|---|---|",
             f"| {summary.questions} | {summary.runs} | {summary.retrievers} | {summary.seed_pages} | {summary.images} |",
             "", "Question health: " + ", ".join(f"{name} {n}" for name, n in summary.health.items()),
             "", "Open it: `mmeb view --open` (file://) or `mmeb view --serve` (http://127.0.0.1)."]
    if summary.submitted:
        lines.append("Submitted systems shown: " + ", ".join(summary.submitted))
    return "\n".join(lines)


@dg.asset(
    deps=[dg.AssetDep("leaderboard"), dg.AssetDep("record_lineage")],
    code_version=code_version(STAGE), group_name=STAGE,
    description="A static results browser (leaderboard -> slice -> question, compare, question health) "
                "under <home>/view/; `mmeb view` rebuilds it and opens it.",
)
def results_view(context: dg.AssetExecutionContext, storage: StorageResource) -> dg.MaterializeResult:
    from mmeb_assets.view.site import build_site

    summary = build_site(storage.root, say=context.log.info)
    return dg.MaterializeResult(metadata={
        "site": dg.MetadataValue.path(str(summary.index)), "questions": summary.questions, "runs": summary.runs,
        "retrievers": summary.retrievers, "seed_pages": summary.seed_pages, "record_images": summary.images,
        **{f"health_{name}": n for name, n in summary.health.items()},
        "preview": dg.MetadataValue.md(_preview(summary)),
    })
