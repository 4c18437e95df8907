"""`human_agreement`: the paper's Table 4 and per-criterion agreement, from the annotation database.

Reads `<home>/annotation/annotations.sqlite` (judgments, the sample) and the automatic decisions
from each sampled project's current `qa_validated.json` (kept items = accepted, dropped = rejected);
where that file or item is gone it falls back to the decision recorded when the sample was drawn.
Writes `benchmark/human_agreement.json` (IO manager) plus two CSV files beside it.
"""

import json
from dataclasses import asdict
from hashlib import sha256
from pathlib import Path

import dagster as dg

from mmeb_assets.annotation import agreement, db
from mmeb_assets.annotation.agreement import HumanAgreement
from mmeb_assets.annotation.sampling import QA_VALIDATED_FILE, load_qa_validated
from mmeb_assets.provenance import code_version, make_provenance
from mmeb_assets.versioning import DATA_VERSION_TAG, SOURCE_SENSOR_TAG
from mmeb_resources.storage import StorageResource, atomic_write_text

TABLE4_CSV = "human_agreement_table4.csv"
CRITERIA_CSV = "human_agreement_criteria.csv"


class HumanAgreementConfig(dg.Config):
    min_annotators: int = 1
    """Count an item in Table 4 only when at least this many annotators judged it."""


def sample_decisions(home: Path, rows: list[db.SampleRow]) -> tuple[dict[str, str], list[str]]:
    """item id -> accepted/rejected for the sampled items, with notes on fallbacks and changes."""
    current: dict[str, str] = {}
    missing_projects = []
    for project in sorted({r.project for r in rows}):
        path = home / "projects" / project / QA_VALIDATED_FILE
        if not path.exists():
            missing_projects.append(project)
            continue
        qa = load_qa_validated(path)
        current.update({i.id: "accepted" for i in qa.items})
        current.update({i.id: "rejected" for i in qa.dropped})
    decisions, fallback, changed = {}, 0, 0
    for row in rows:
        decision = current.get(row.item_id)
        if decision is None:
            fallback += 1
            decision = row.llm_decision
        elif decision != row.llm_decision:
            changed += 1
        decisions[row.item_id] = decision
    notes = []
    if missing_projects:
        notes.append(f"no {QA_VALIDATED_FILE} for {', '.join(missing_projects)}: used the sampled decision")
    if fallback:
        notes.append(f"{fallback} sampled item(s) not in the current validation: used the decision at sampling time")
    if changed:
        notes.append(f"{changed} item(s) changed decision since sampling; the current decision is used")
    return decisions, notes


def load_inputs(home: Path) -> tuple[list[db.Judgment], dict[str, str], int, list[str]]:
    path = db.db_path(home)
    if not path.exists():
        return [], {}, 0, [f"no annotation database at {path}: run `mmeb annotate` first"]
    conn = db.connect(path, create=False)
    try:
        rows = db.sample(conn)
        judgments = db.all_judgments(conn)
    finally:
        conn.close()
    decisions, notes = sample_decisions(home, rows)
    return judgments, decisions, len(rows), notes


def judgments_version(home: Path) -> str:
    """A digest of the sample and every judgment (with its revision): it changes with each save."""
    path = db.db_path(home)
    if not path.exists():
        return "no-annotation-database"
    conn = db.connect(path, create=False)
    try:
        state = [[r.item_id for r in db.sample(conn)], [asdict(j) for j in db.all_judgments(conn)]]
    finally:
        conn.close()
    return sha256(json.dumps(state, sort_keys=True, default=str).encode()).hexdigest()[:16]


# Table 4 must show as stale as soon as a judgment changes, though no run writes the judgments
# (`mmeb annotate` does). They are an external asset (a plain AssetSpec: Dagster's observable source
# assets are beta) whose data version is the digest of every judgment, recorded as a runless
# materialization whenever it changes: by the sensor below while `dagster dev` runs (the UI then
# marks Table 4 stale), and by `mmeb build` before it plans (build/observe.py runs the sensors tagged
# SOURCE_SENSOR_TAG once), so a plain build recomputes Table 4 after new judgments.
annotation_judgments = dg.AssetSpec(
    "annotation_judgments", group_name="annotation", kinds={"sqlite"},
    description="The annotators' judgments (annotation/annotations.sqlite), written by `mmeb annotate`. Its "
                "data version is a digest of every judgment, so Table 4 is stale as soon as one changes.",
)


def judgments_event(instance: dg.DagsterInstance, home: Path) -> dg.AssetMaterialization | None:
    """A materialization of the judgments carrying their digest as data version; None when the last
    one recorded already has it (the event log then holds one event per change, not per look)."""
    version = judgments_version(home)
    last = instance.get_latest_materialization_event(annotation_judgments.key)
    if last is not None and last.asset_materialization.tags.get(DATA_VERSION_TAG) == version:
        return None
    return dg.AssetMaterialization(asset_key=annotation_judgments.key, tags={DATA_VERSION_TAG: version},
                                   description="the judgments changed",
                                   metadata={"database": dg.MetadataValue.path(str(db.db_path(home)))})


@dg.sensor(name="annotation_judgments_sensor", minimum_interval_seconds=60,
           default_status=dg.DefaultSensorStatus.RUNNING, tags={SOURCE_SENSOR_TAG: "annotation_judgments"},
           description="Records a new data version of annotation_judgments when a judgment changes, so "
                       "the UI marks Table 4 (human_agreement) stale.")
def annotation_judgments_sensor(context: dg.SensorEvaluationContext, storage: StorageResource):
    event = judgments_event(context.instance, storage.root)
    if event is None:
        return dg.SkipReason("the judgments have not changed")
    return dg.SensorResult(asset_events=[event])


@dg.asset(
    code_version=code_version("annotation"),
    group_name="annotation",
    deps=[dg.AssetKey("qa_validated"), annotation_judgments],
    description="Table 4 (automatic validation vs human decision; human-rejected if any annotator rejects) "
                "and per-criterion agreement (percent, Cohen's kappa) from the annotation database.",
)
def human_agreement(context: dg.AssetExecutionContext, config: HumanAgreementConfig,
                    storage: StorageResource) -> HumanAgreement:
    judgments, decisions, sampled, notes = load_inputs(storage.root)
    result = agreement.compute_agreement(judgments, decisions, sampled_items=sampled,
                                         min_annotators=config.min_annotators)
    result.notes = notes + result.notes
    result.provenance = make_provenance(
        "all", "annotation", "human", code=code_version("annotation"),
        inputs={"judgments": [asdict(j) for j in judgments], "decisions": decisions,
                "min_annotators": config.min_annotators})
    folder = storage.benchmark_dir()
    table_path = atomic_write_text(folder / TABLE4_CSV, agreement.table4_csv(result))
    criteria_path = atomic_write_text(folder / CRITERIA_CSV, agreement.criteria_csv(result))
    context.add_output_metadata({
        "table4": dg.MetadataValue.md(agreement.markdown(result)),
        "sampled_items": sampled, "judged_items": result.judged_items,
        "annotators": len(result.annotators), "judgments": len(judgments),
        "table4_csv": dg.MetadataValue.path(str(table_path)),
        "criteria_csv": dg.MetadataValue.path(str(criteria_path)),
        "inputs_hash": result.provenance.inputs_hash,
    })
    return result


@dg.asset_check(asset=human_agreement, blocking=False,
                description="Every sampled item has been judged by every annotator (WARN otherwise).")
def human_agreement_coverage(human_agreement: HumanAgreement) -> dg.AssetCheckResult:
    expected = human_agreement.sampled_items
    full = [r for r in human_agreement.table4 if r.llm_decision == "Total"][0].questions
    passed = expected > 0 and human_agreement.judged_items == expected and not any(
        "fewer than all" in n for n in human_agreement.notes)
    return dg.AssetCheckResult(passed=passed, severity=dg.AssetCheckSeverity.WARN, metadata={
        "sampled_items": expected, "judged_items": human_agreement.judged_items, "table4_items": full,
        "annotators": len(human_agreement.annotators)})
