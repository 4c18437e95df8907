"""Which executor the jobs use, chosen by the deployment through `MMEB_EXECUTOR`.

The same Definitions serve a laptop and a cluster, so the executor is configuration, read when the
Definitions load (in every process that loads them: `mmeb build`, the daemon's code server, the run
worker, each Celery worker or step pod; set the variable the same everywhere):

- unset: Dagster's default (multiprocess for launched runs, in process for `execute_in_process`);
- `in_process` / `multiprocess`: those executors;
- `celery`: `celery_executor` (pip install 'mmeb[celery]'), broker and result backend from
  `CELERY_BROKER_URL` / `CELERY_RESULT_BACKEND`, with late acknowledgement so that a step whose
  worker is killed goes back to the queue instead of being lost (`celery_app_settings`);
- `k8s`: `k8s_job_executor` (pip install 'mmeb[k8s]'), one pod per step, its settings inherited
  from the `K8sRunLauncher` of `deploy/k8s/dagster.yaml` and overridable in `deploy/k8s/run_config.yaml`.
"""
from __future__ import annotations

import os

import dagster as dg

EXECUTOR_ENV = "MMEB_EXECUTOR"
EXECUTORS = ("in_process", "multiprocess", "celery", "k8s")
VISIBILITY_ENV = "MMEB_CELERY_VISIBILITY_S"
DEFAULT_VISIBILITY_S = 3600
RESTORE_INTERVAL_ENV = "MMEB_CELERY_RESTORE_INTERVAL_S"
DEFAULT_RESTORE_INTERVAL_S = 10


def executor_name(value: str | None = None) -> str | None:
    """The configured executor's name, or None for Dagster's default; an unknown name is an error
    that names the variable (a typo must not silently run everything on one laptop)."""
    value = (os.environ.get(EXECUTOR_ENV, "") if value is None else value).strip().replace("-", "_")
    if not value or value == "default":
        return None
    if value not in EXECUTORS:
        raise ValueError(f"{EXECUTOR_ENV}={value!r}: expected one of {', '.join(EXECUTORS)}")
    return value


def celery_app_settings(visibility_s: int | None = None, restore_interval_s: int | None = None) -> dict:
    """Celery settings that make a killed worker lose nothing: a step's task is acknowledged only
    when it ends (`task_acks_late`), a task whose pool process dies is requeued at once
    (`task_reject_on_worker_lost`), a worker reserves one task at a time, and a task left unacked
    by a worker killed outright returns to the queue after `visibility_timeout` seconds (Redis);
    that timeout must exceed the longest step, or a running step would be handed out twice."""
    if visibility_s is None:
        visibility_s = int(os.environ.get(VISIBILITY_ENV, DEFAULT_VISIBILITY_S))
    if restore_interval_s is None:
        restore_interval_s = int(os.environ.get(RESTORE_INTERVAL_ENV, DEFAULT_RESTORE_INTERVAL_S))
    return {
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "broker_connection_retry_on_startup": True,
        "broker_transport_options": {"visibility_timeout": visibility_s,
                                     "unacked_restore_interval": restore_interval_s},
        "result_backend_transport_options": {"visibility_timeout": visibility_s},
    }


def celery_executor_config() -> dict:
    """The executor's config, the same as the worker's `-y` file (`deploy/celery/worker.yaml`)."""
    return {
        "broker": {"env": "CELERY_BROKER_URL"},
        "backend": {"env": "CELERY_RESULT_BACKEND"},
        "include": ["mmeb_assets.definitions"],
        "config_source": celery_app_settings(),
    }


def executor_from_env(value: str | None = None) -> dg.ExecutorDefinition | None:
    name = executor_name(value)
    if name is None:
        return None
    if name == "in_process":
        return dg.in_process_executor
    if name == "multiprocess":
        return dg.multiprocess_executor
    if name == "celery":
        from dagster_celery import celery_executor

        return celery_executor.configured(celery_executor_config(), name="celery_executor")
    from dagster_k8s import k8s_job_executor

    return k8s_job_executor
