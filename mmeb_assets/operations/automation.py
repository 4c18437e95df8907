"""Jobs, schedules and sensors built from whatever assets the stages define.

They are derived from the assembled asset list (by partitioning), so adding a stage asset needs no
edit here: the seed pipeline job is every asset partitioned by seed, the evaluation job every asset
partitioned by model x k, the retriever job every asset partitioned by retriever, the aggregates job
every unpartitioned asset; so every asset belongs to a job, and a whole build can be launched as runs
of these four on whatever executor the deployment sets (`executors.py`). Jobs whose steps may load a
model on a GPU (answering, judging, the VL retrievers) carry the `mmeb/gpu` tag that the queued
coordinator's concurrency limit keys on (`deploy/k8s/dagster.yaml`).
"""
from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
from dagster import AssetKey, DagsterEventType

from mmeb_assets.manifests import ManifestError, load_manifest
from mmeb_assets.partitions import seed_partitions_def
from mmeb_assets.provenance import file_hash

SEED_JOB = "seed_pipeline"
EVAL_JOB = "evaluation_grid"
RETRIEVER_JOB = "retriever_grid"
AGGREGATES_JOB = "aggregates"
GPU_TAG = "mmeb/gpu"


def _keys_with(assets: list[dg.AssetsDefinition], predicate) -> list[AssetKey]:
    return [key for a in assets for key in a.keys if predicate(a.partitions_def)]


def seed_asset_keys(assets) -> list[AssetKey]:
    return _keys_with(assets, lambda p: p is not None and p == seed_partitions_def)


def eval_asset_keys(assets) -> list[AssetKey]:
    return _keys_with(assets, lambda p: isinstance(p, dg.MultiPartitionsDefinition))


def retriever_asset_keys(assets) -> list[AssetKey]:
    from mmeb_assets.partitions import retriever_partitions_def

    return _keys_with(assets, lambda p: p is not None and p == retriever_partitions_def)


def aggregate_asset_keys(assets) -> list[AssetKey]:
    return _keys_with(assets, lambda p: p is None)


def job_name_for(partitions_def) -> str:
    """The job whose runs build the assets of one partitioning (a phase of `mmeb build`)."""
    from mmeb_assets.partitions import retriever_partitions_def

    if partitions_def is None:
        return AGGREGATES_JOB
    if isinstance(partitions_def, dg.MultiPartitionsDefinition):
        return EVAL_JOB
    return RETRIEVER_JOB if partitions_def == retriever_partitions_def else SEED_JOB


def _plain_jobs(assets) -> list:
    """The retriever and aggregates jobs: no schedule of their own (`mmeb build` or a backfill runs them)."""
    jobs = []
    retriever_keys, aggregate_keys = retriever_asset_keys(assets), aggregate_asset_keys(assets)
    if retriever_keys:
        jobs.append(dg.define_asset_job(RETRIEVER_JOB, selection=dg.AssetSelection.assets(*retriever_keys),
                                        tags={GPU_TAG: "1"},
                                        description="Retrievals and recall, one retriever per run."))
    if aggregate_keys:
        jobs.append(dg.define_asset_job(AGGREGATES_JOB, selection=dg.AssetSelection.assets(*aggregate_keys),
                                        description="The unpartitioned aggregates: corpus, benchmark, "
                                                    "reports, lineage."))
    return jobs


def stale_or_missing_partitions(instance: dg.DagsterInstance, keys: list[AssetKey],
                                parents: dict[AssetKey, list[AssetKey]], partition_keys: list[str]) -> list[str]:
    """Partitions where some asset was never materialized, or is older than one of its parents."""
    latest = {k: instance.get_latest_storage_id_by_partition(k, DagsterEventType.ASSET_MATERIALIZATION) for k in keys}
    todo = []
    for partition in partition_keys:
        for key in keys:
            mine = latest[key].get(partition)
            if mine is None or any((latest[p].get(partition) or -1) > mine for p in parents.get(key, [])):
                todo.append(partition)
                break
    return todo


def _seed_parents(assets, keys: list[AssetKey]) -> dict[AssetKey, list[AssetKey]]:
    wanted = set(keys)
    parents: dict[AssetKey, list[AssetKey]] = {}
    for a in assets:
        for key in a.keys:
            if key in wanted:
                parents[key] = [dep for dep in a.asset_deps.get(key, set()) if dep in wanted]
    return parents


def build_automation(assets: list[dg.AssetsDefinition]) -> dg.Definitions:
    seed_keys, eval_keys = seed_asset_keys(assets), eval_asset_keys(assets)
    jobs, schedules, sensors = [], [], []
    if seed_keys:
        seed_job = dg.define_asset_job(SEED_JOB, selection=dg.AssetSelection.assets(*seed_keys),
                                       description="Every per-seed stage, one seed project per run.")
        jobs.append(seed_job)
        schedules.append(_backfill_schedule(seed_job, seed_keys, _seed_parents(assets, seed_keys)))
        sensors.append(_seed_file_sensor(seed_job))
    if eval_keys:
        eval_pdef = next(a.partitions_def for a in assets if set(a.keys) & set(eval_keys))
        eval_job = dg.define_asset_job(EVAL_JOB, selection=dg.AssetSelection.assets(*eval_keys),
                                       tags={GPU_TAG: "1"},
                                       description="Answers and judgments, one model x k cell per run.")
        jobs.append(eval_job)
        schedules.append(_new_model_schedule(eval_job, eval_keys, eval_pdef))
    jobs += _plain_jobs(assets)
    return dg.Definitions(jobs=jobs, schedules=schedules, sensors=sensors)


def _backfill_schedule(job, keys, parents) -> dg.ScheduleDefinition:
    @dg.schedule(job=job, cron_schedule="0 2 * * *", name="backfill_stale_seeds",
                 default_status=dg.DefaultScheduleStatus.STOPPED,
                 description="Nightly: runs every seed partition that is missing or older than its inputs.")
    def backfill_stale_seeds(context: dg.ScheduleEvaluationContext):
        partitions = seed_partitions_def.get_partition_keys()
        todo = stale_or_missing_partitions(context.instance, keys, parents, partitions)
        if not todo:
            return dg.SkipReason("every seed partition is materialized and up to date")
        return [dg.RunRequest(partition_key=p, tags={"mmeb/reason": "missing or stale"}) for p in todo]

    return backfill_stale_seeds


def seed_file_fingerprints(manifest=None) -> dict[str, str]:
    """Seed id -> sha256 of its PDF, for the seeds whose file exists now."""
    manifest = manifest or load_manifest()
    prints = {}
    for seed in manifest.seeds:
        try:
            path: Path = manifest.pdf_path(seed.id)
        except ManifestError:  # its link now leads outside the allowed folders: its run will say so
            continue
        if path.is_file():
            prints[seed.id] = file_hash(path)
    return prints


def changed_seeds(previous: dict[str, str], current: dict[str, str]) -> list[str]:
    return sorted(seed for seed, digest in current.items() if previous.get(seed) != digest)


def _seed_file_sensor(job) -> dg.SensorDefinition:
    @dg.sensor(job=job, name="seed_file_sensor", minimum_interval_seconds=60,
               default_status=dg.DefaultSensorStatus.STOPPED,
               description="Requests the partition of a seed PDF that appears or changes.")
    def seed_file_sensor(context: dg.SensorEvaluationContext):
        previous = json.loads(context.cursor) if context.cursor else {}
        current = seed_file_fingerprints()
        changed = changed_seeds(previous, current)
        context.update_cursor(json.dumps(current, sort_keys=True))
        if not changed:
            return dg.SkipReason("no seed PDF appeared or changed")
        return [dg.RunRequest(run_key=f"{seed}:{current[seed][:16]}", partition_key=seed) for seed in changed]

    return seed_file_sensor


def _new_model_schedule(job, keys, pdef) -> dg.ScheduleDefinition:
    @dg.schedule(job=job, cron_schedule="0 * * * *", name="evaluate_new_models",
                 default_status=dg.DefaultScheduleStatus.STOPPED,
                 description="Hourly: runs the model x k cells never materialized (a model added to the registry).")
    def evaluate_new_models(context: dg.ScheduleEvaluationContext):
        done = set.intersection(*(set(context.instance.get_materialized_partitions(k)) for k in keys))
        todo = [p for p in pdef.get_partition_keys() if p not in done]
        if not todo:
            return dg.SkipReason("every model x k cell is materialized")
        return [dg.RunRequest(run_key=f"eval:{p}", partition_key=p) for p in todo]

    return evaluate_new_models
