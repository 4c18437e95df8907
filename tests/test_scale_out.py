"""The distributed path's configuration, without a cluster: executor selection by MMEB_EXECUTOR, every
asset in a job, the GPU tag, per-dimension partition tags, and the deploy/ files validated against
the schemas of dagster-k8s, dagster-postgres and dagster-celery themselves (the run that really goes
through Postgres, Redis and a killed Celery worker is `make distributed-check`, a heavy test)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

import dagster as dg
from dagster._config import process_config

from mmeb_assets.operations import executors
from mmeb_assets.operations.automation import (AGGREGATES_JOB, EVAL_JOB, GPU_TAG, RETRIEVER_JOB, SEED_JOB,
                                               job_name_for)

REPO = Path(__file__).resolve().parents[1]
DEPLOY = REPO / "deploy"
PG_ENV = {"DAGSTER_PG_HOST": "pg.example", "DAGSTER_PG_USER": "mmeb", "DAGSTER_PG_PASSWORD": "secret",
          "DAGSTER_PG_URL": "postgresql+psycopg2://mmeb:secret@pg.example:5432/dagster",
          "CELERY_BROKER_URL": "redis://redis.example:6379/0", "CELERY_RESULT_BACKEND": "redis://redis.example:6379/1"}


def _defs(monkeypatch, executor: str | None) -> dg.Definitions:
    from mmeb_assets.definitions import defs

    if executor is None:
        monkeypatch.delenv(executors.EXECUTOR_ENV, raising=False)
    else:
        monkeypatch.setenv(executors.EXECUTOR_ENV, executor)
    return defs() if callable(defs) else defs


def _validated(config_type, value) -> dict:
    result = process_config(config_type, value)
    assert result.success, "; ".join(e.message for e in result.errors)
    return result.value


def test_executor_name_reads_the_variable_and_refuses_typos(monkeypatch):
    monkeypatch.delenv(executors.EXECUTOR_ENV, raising=False)
    assert executors.executor_name() is None
    assert executors.executor_name("multi-process".replace("-", "")) == "multiprocess"
    assert executors.executor_name("in-process") == "in_process"
    with pytest.raises(ValueError, match="MMEB_EXECUTOR='celry'"):
        executors.executor_name("celry")


@pytest.mark.parametrize("choice, expected", [(None, "multi_or_in_process_executor"),
                                              ("in_process", "in_process"), ("multiprocess", "multiprocess"),
                                              ("celery", "celery_executor"), ("k8s", "k8s")])
def test_every_job_takes_the_configured_executor(monkeypatch, choice, expected):
    if choice in ("celery", "k8s"):
        pytest.importorskip("dagster_celery" if choice == "celery" else "dagster_k8s",
                            reason=f"pip install -e '.[{choice}]'")
    definitions = _defs(monkeypatch, choice)
    names = {job.name: job.executor_def.name for job in definitions.resolve_all_job_defs()}
    assert {SEED_JOB, EVAL_JOB, RETRIEVER_JOB, AGGREGATES_JOB} <= set(names)
    assert set(names.values()) == {expected}


def test_every_asset_belongs_to_a_named_job_and_gpu_jobs_are_tagged(monkeypatch):
    definitions = _defs(monkeypatch, None)
    graph = definitions.resolve_asset_graph()
    jobs = {job.name: job for job in definitions.resolve_all_job_defs() if not job.name.startswith("__")}
    covered = {key for job in jobs.values() for key in job.asset_layer.selected_asset_keys}
    assert set(graph.materializable_asset_keys) <= covered
    for key in graph.materializable_asset_keys:  # the build's phase -> job mapping agrees with the jobs
        assert key in jobs[job_name_for(graph.get(key).partitions_def)].asset_layer.selected_asset_keys
    assert jobs[EVAL_JOB].tags.get(GPU_TAG) and jobs[RETRIEVER_JOB].tags.get(GPU_TAG)
    assert GPU_TAG not in jobs[SEED_JOB].tags and GPU_TAG not in jobs[AGGREGATES_JOB].tags


def test_a_launched_evaluation_cell_carries_per_dimension_tags(monkeypatch):
    from mmeb_assets.build.remote import partition_tags

    job = _defs(monkeypatch, None).resolve_job_def(EVAL_JOB)
    cell = job.partitions_def.get_partition_keys()[0]
    tags = partition_tags(job, cell, list(job.asset_layer.selected_asset_keys))
    model, k = cell.keys_by_dimension["model"], cell.keys_by_dimension["k"]
    assert tags["dagster/partition/model"] == model and tags["dagster/partition/k"] == k
    assert partition_tags(job, None, []) == {}


def _instance_config(tmp_path: Path, source: Path) -> dict:
    from dagster._core.instance.config import dagster_instance_config

    home = tmp_path / source.parent.name
    home.mkdir()
    shutil.copy(source, home / "dagster.yaml")
    config, _ = dagster_instance_config(str(home))
    return config


def test_k8s_instance_config_validates_against_dagster_k8s(tmp_path, monkeypatch):
    pytest.importorskip("dagster_k8s", reason="pip install -e '.[k8s]'")
    from dagster._core.run_coordinator import QueuedRunCoordinator
    from dagster_k8s import K8sRunLauncher
    from dagster_postgres import DagsterPostgresStorage
    from dagster_postgres.utils import pg_url_from_config

    for name, value in PG_ENV.items():
        monkeypatch.setenv(name, value)
    config = _instance_config(tmp_path, DEPLOY / "k8s" / "dagster.yaml")
    launcher = _validated(K8sRunLauncher.config_type(), config["run_launcher"]["config"])
    assert launcher["instance_config_map"] and "MMEB_EXECUTOR=k8s" in launcher["env_vars"]
    _validated(QueuedRunCoordinator.config_type(), config["run_coordinator"]["config"])
    storage = _validated(DagsterPostgresStorage.config_type(), config["storage"]["postgres"])
    assert pg_url_from_config(storage).startswith("postgresql+psycopg2://")


def test_k8s_run_config_validates_against_the_jobs(monkeypatch):
    pytest.importorskip("dagster_k8s", reason="pip install -e '.[k8s]'")
    run_config = yaml.safe_load((DEPLOY / "k8s" / "run_config.yaml").read_text())
    definitions = _defs(monkeypatch, "k8s")
    for name in (SEED_JOB, EVAL_JOB, RETRIEVER_JOB, AGGREGATES_JOB):
        assert dg.validate_run_config(definitions.resolve_job_def(name), run_config)


def test_celery_configs_validate_and_the_worker_acks_late_like_the_executor(tmp_path, monkeypatch):
    pytest.importorskip("dagster_celery", reason="pip install -e '.[celery]'")
    from dagster._core.run_coordinator import QueuedRunCoordinator
    from dagster_celery.executor import CELERY_CONFIG
    from dagster_postgres import DagsterPostgresStorage

    for name, value in PG_ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv(executors.VISIBILITY_ENV, raising=False)
    monkeypatch.delenv(executors.RESTORE_INTERVAL_ENV, raising=False)
    config = _instance_config(tmp_path, DEPLOY / "celery" / "dagster.yaml")
    _validated(QueuedRunCoordinator.config_type(), config["run_coordinator"]["config"])
    storage = _validated(DagsterPostgresStorage.config_type(), config["storage"]["postgres"])
    assert storage["postgres_url"].startswith("postgresql+psycopg2://")
    assert config["run_monitoring"]["enabled"]
    worker_file = DEPLOY / "celery" / "worker.yaml"
    worker = yaml.safe_load(worker_file.read_text())["execution"]["config"]
    assert worker == executors.celery_executor_config()
    from dagster_celery.cli import get_validated_config  # what `dagster-celery worker start -y` reads

    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path))
    assert get_validated_config(str(worker_file))["config_source"]["task_acks_late"] is True
    resolved = _validated(dg.Shape(CELERY_CONFIG), worker)
    assert resolved["broker"] == PG_ENV["CELERY_BROKER_URL"]
    settings = resolved["config_source"]
    assert settings["task_acks_late"] and settings["task_reject_on_worker_lost"]
    assert settings["worker_prefetch_multiplier"] == 1
