"""Runs launched through the instance (`mmeb build --executor celery|k8s|multiprocess`).

The in-process path (`runners.py`) executes each run inside `mmeb build`. Here each (phase,
partition) run is created from the code location and submitted to the instance's run coordinator,
exactly as the UI or a schedule would: the run launcher of `$DAGSTER_HOME/dagster.yaml` starts it
(a local process, a Kubernetes Job), the job's executor (`MMEB_EXECUTOR`) sends its steps to the
workers, and `mmeb build` only polls the run storage and prints the same one-line outcomes. With a
queued coordinator and a live `dagster-daemon run`, runs go through the queue (its tag concurrency
limits apply); with no daemon heartbeat they go straight to the run launcher, so nothing waits on
a queue no one serves (docs/scale_out.md).

Before each run the same resume plan as in process decides what is still to do, so rerunning the
command after a failure or a lost worker re-executes only what did not finish.
"""
from __future__ import annotations

import os
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor

import dagster as dg
from dagster import AssetKey, DagsterRunStatus

from mmeb_assets.build.console import Console
from mmeb_assets.build.outcome import RunOutcome, check_warnings, failure_reason
from mmeb_assets.build.phases import RunTask
from mmeb_resources.io_manager import LEFT_OUT_TAG

CODE_MODULE = "mmeb_assets.definitions"  # as in workspace.yaml: the same code location name
TIMEOUT_ENV = "MMEB_RUN_TIMEOUT_S"
TERMINAL = {DagsterRunStatus.SUCCESS, DagsterRunStatus.FAILURE, DagsterRunStatus.CANCELED}


def partition_tags(job_def, partition: str | None, keys: list[AssetKey]) -> dict[str, str]:
    """`dagster/partition` and, for model x k, the per-dimension tags (`dagster/partition/model`,
    `.../k`) without which a launched evaluation cell sees a plain string as its partition key."""
    if partition is None:
        return {}
    return dict(job_def.get_tags_for_partition_key(partition, selected_asset_keys=keys))


def queue_is_served(instance) -> bool:
    """True when submitted runs will start: a coordinator that launches at once, or a queued one
    whose daemon has a recent heartbeat."""
    from dagster._core.run_coordinator import QueuedRunCoordinator
    from dagster._daemon.controller import get_daemon_statuses

    if not isinstance(instance.run_coordinator, QueuedRunCoordinator):
        return True
    name = "QUEUED_RUN_COORDINATOR"
    return bool(get_daemon_statuses(instance, [name], ignore_errors=True)[name].healthy)


class RemoteRunner:
    """Submits runs to the instance and waits for them; `workers` chains are followed at once."""

    def __init__(self, console: Console, build_id: str, definitions: dg.Definitions, instance,
                 workers: int, poll_s: float = 1.0, timeout_s: float | None = None):
        from dagster._core.workspace.context import WorkspaceProcessContext
        from dagster._core.workspace.load_target import ModuleTarget

        self.console, self.build_id, self.instance = console, build_id, instance
        self.definitions, self.graph = definitions, definitions.resolve_asset_graph()
        self.workers, self.poll_s = workers, poll_s
        self.timeout_s = timeout_s if timeout_s is not None else float(os.environ.get(TIMEOUT_ENV, 0) or 0)
        self.on_outcome = None
        self._lock = threading.Lock()
        target = ModuleTarget(module_name=CODE_MODULE, attribute=None, working_directory=os.getcwd(),
                              location_name=None)
        self._context = WorkspaceProcessContext(instance, target)
        self._context.__enter__()
        self.pool = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="mmeb-run")
        self.queued = queue_is_served(instance)
        console.line(f"Runs go to {'the run queue (dagster-daemon)' if self.queued else 'the run launcher'}"
                     f" of {instance.root_directory}; steps on the {os.environ.get('MMEB_EXECUTOR') or 'default'}"
                     f" executor")

    def submit(self, task: RunTask) -> Future:
        return self.pool.submit(self._run_chain, task)

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
        self._context.__exit__(None, None, None)

    def _run_chain(self, task: RunTask) -> list[RunOutcome]:
        outcomes = []
        for partition in task.partitions:
            outcomes.append(self._run_one(task, partition))
            if self.on_outcome is not None:
                self.on_outcome(outcomes[-1])
        return outcomes

    def _run_one(self, task: RunTask, partition: str | None) -> RunOutcome:
        started = time.monotonic()
        keys = [AssetKey.from_user_string(name) for name in task.assets]
        pending: list = []
        try:
            if not task.force:
                from mmeb_assets.operations.resume import keys_to_run

                keys, pending = keys_to_run(self.instance, self.graph, keys, partition, log=print)
                if not keys and not pending:
                    return RunOutcome(task.phase, list(task.assets), partition, True,
                                      time.monotonic() - started, skipped=True)
            run_id = self.launch(task, partition, keys, pending)
            status = self.wait(run_id)
        except Exception as exc:  # noqa: BLE001 - a launch error fails this run only, with its reason
            import traceback

            traceback.print_exc()
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            return RunOutcome(task.phase, list(task.assets), partition, False, time.monotonic() - started,
                              f"{type(exc).__name__}: {first}")
        events = [e.dagster_event for e in self.instance.all_logs(run_id) if e.dagster_event is not None]
        ok = status == DagsterRunStatus.SUCCESS
        error = "" if ok else (f"run {run_id[:8]} timed out after {self.timeout_s:.0f}s and was canceled"
                               if status is None else failure_reason(events))
        materialized = sum(1 for e in events if e.is_step_materialization)
        return RunOutcome(task.phase, list(task.assets), partition, ok, time.monotonic() - started, error,
                          run_id, materialized, check_warnings(events))

    def launch(self, task: RunTask, partition: str | None, keys: list[AssetKey], pending: list) -> str:
        """Create the run of `keys` (and `pending` checks) from the code location and submit it."""
        from dagster._core.definitions.selector import JobSubsetSelector

        from mmeb_assets.operations.automation import job_name_for

        job_name = job_name_for(self.graph.get((keys or [c.asset_key for c in pending])[0]).partitions_def)
        job_def = self.definitions.resolve_job_def(job_name)
        checks = None
        if pending:
            checks = {c for key in keys for c in self.graph.get(key).check_keys} | set(pending)
            keys = keys or sorted({c.asset_key for c in pending}, key=lambda k: k.to_user_string())
        tags = {**job_def.tags, **partition_tags(job_def, partition, keys),
                "mmeb/launched_by": "mmeb build", "mmeb/build_id": self.build_id}
        if task.left_out:
            tags[LEFT_OUT_TAG] = ",".join(task.left_out)
        with self._lock:
            workspace = self._context.create_request_context()
            location = next(iter(workspace.get_code_location_entries().values())).code_location
            repo = next(iter(location.get_repositories().values()))
            selector = JobSubsetSelector(location_name=location.name, repository_name=repo.name,
                                         job_name=job_name, op_selection=None, asset_selection=keys,
                                         asset_check_selection=checks)
            remote_job = location.get_job(selector)
            plan = location.get_execution_plan(remote_job, {}, step_keys_to_execute=None, known_state=None,
                                               instance=self.instance).execution_plan_snapshot
            run = self.instance.create_run(
                job_name=job_name, run_id=None, run_config={}, resolved_op_selection=None,
                step_keys_to_execute=plan.step_keys_to_execute, op_selection=None, status=None,
                root_run_id=None, parent_run_id=None, tags=tags, job_snapshot=remote_job.job_snapshot,
                execution_plan_snapshot=plan, parent_job_snapshot=remote_job.parent_job_snapshot,
                remote_job_origin=remote_job.get_remote_origin(), job_code_origin=remote_job.get_python_origin(),
                asset_selection=frozenset(keys), asset_check_selection=frozenset(checks) if checks else None,
                asset_graph=repo.asset_graph)
            if self.queued:
                self.instance.submit_run(run.run_id, workspace)
            else:
                self.instance.launch_run(run.run_id, workspace)
        return run.run_id

    def wait(self, run_id: str) -> DagsterRunStatus | None:
        """The run's final status; None when it outlived `timeout_s` (then it is canceled)."""
        started = time.monotonic()
        while True:
            run = self.instance.get_run_by_id(run_id)
            if run is not None and run.status in TERMINAL:
                return run.status
            if self.timeout_s and time.monotonic() - started > self.timeout_s:
                self.instance.run_coordinator.cancel_run(run_id)
                return None
            time.sleep(self.poll_s)
