"""One build worker: executes the runs of a task in process on the persistent instance.

Workers are spawned processes that share the instance under $DAGSTER_HOME (SQLite run and event
storage, which several processes write at once as `dagster dev` does) and the data home. Each keeps
its Definitions and loaded models between tasks. A worker dies with the build: it asks the kernel
for SIGKILL when its parent goes, so a killed `mmeb build` leaves no run half-written behind it.
"""
from __future__ import annotations

import os
import resource
import signal
import time

from dagster import AssetKey, DagsterInstance

from mmeb_assets.build.event_log import relax_event_log_sync
from mmeb_assets.build.outcome import RunOutcome, check_warnings, failure_reason
from mmeb_assets.build.phases import RunTask, load_definitions
from mmeb_resources.io_manager import LEFT_OUT_TAG

_STATE: dict = {}
PR_SET_PDEATHSIG = 1


def peak_rss_mib(who: int = resource.RUSAGE_SELF) -> float:
    return resource.getrusage(who).ru_maxrss / 1024.0


def _die_with_parent() -> None:
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the pool's own shutdown still ends the worker
        pass


def init_worker(threads: int, queue, build_id: str) -> None:
    """Pool initializer: threads per worker (so N workers do not oversubscribe the cores), the
    progress channel to the console, the build id tag."""
    _die_with_parent()
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[var] = str(threads)
    _STATE.update(threads=threads, build_id=build_id, queue=queue)
    relax_event_log_sync()
    if queue is not None:
        from mmeb_assets.operations import progress

        progress.set_sink(lambda label, done, total: queue.put(("progress", os.getpid(), label, done, total)))


def _limit_torch_threads(threads: int) -> None:
    """Set before each run, in the thread that executes it (OpenMP settings are per thread)."""
    threads = threads or _STATE.get("threads") or 0
    if not threads:
        return
    import torch

    torch.set_num_threads(threads)


def _job_and_instance(instance=None, definitions=None):
    """The implicit asset job and graph of `definitions` (default: the project's, loaded once per
    process), and the instance (default: $DAGSTER_HOME's)."""
    key = definitions if definitions is not None else "project"
    if _STATE.get("defs_key") is not key:  # the object itself is kept: an id() is reused once freed
        definitions = definitions or load_definitions()
        _STATE.update(defs_key=key, job=definitions.resolve_implicit_global_asset_job_def(),
                      graph=definitions.resolve_asset_graph())
    if instance is not None:
        return _STATE["job"], instance
    if "instance" not in _STATE:
        _STATE["instance"] = DagsterInstance.get()
    return _STATE["job"], _STATE["instance"]


def _execute(job, instance, partition: str | None, keys: list, pending_checks: list, tags: dict):
    """One in-process run of `keys` with their checks, plus `pending_checks` of assets left as they are."""
    if not pending_checks:
        return job.execute_in_process(instance=instance, partition_key=partition, asset_selection=keys,
                                      raise_on_error=False, tags=tags)
    graph = _STATE["graph"]
    checks = {c for key in keys for c in graph.get(key).check_keys} | set(pending_checks)
    subset = job.get_subset(asset_selection=set(keys), asset_check_selection=checks)
    return subset.execute_in_process(instance=instance, partition_key=partition, raise_on_error=False, tags=tags)


def run_one(task: RunTask, partition: str | None, instance=None, build_id: str = "",
            definitions=None) -> RunOutcome:
    job, instance = _job_and_instance(instance, definitions)
    started = time.monotonic()
    keys = [AssetKey.from_user_string(name) for name in task.assets]
    tags = {"mmeb/launched_by": "mmeb build", "mmeb/build_id": build_id or _STATE.get("build_id", "")}
    if task.left_out:  # read by the IO manager: a failed seed's stale or unchecked files stay out
        tags[LEFT_OUT_TAG] = ",".join(task.left_out)
    run_id, materialized, warnings, pending_checks = "", 0, [], []
    try:
        if not task.force:  # resume (operations/resume.py): only what is not up to date
            from mmeb_assets.operations.resume import keys_to_run

            keys, pending_checks = keys_to_run(instance, _STATE["graph"], keys, partition, log=print)
            if not keys and not pending_checks:
                return RunOutcome(task.phase, list(task.assets), partition, True, time.monotonic() - started,
                                  skipped=True, peak_rss_mib=peak_rss_mib())
        _limit_torch_threads(task.threads)
        result = _execute(job, instance, partition, keys, pending_checks, tags)
        events = result.all_events
        ok, run_id = result.success, result.run_id
        error = "" if ok else failure_reason(events)
        materialized = sum(1 for e in events if e.is_step_materialization)
        warnings = check_warnings(events)
    except Exception as exc:  # noqa: BLE001 - a definition-level error for this partition: report, go on
        import traceback

        traceback.print_exc()  # to the build log
        ok, error = False, f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"
    return RunOutcome(task.phase, list(task.assets), partition, ok, time.monotonic() - started, error, run_id,
                      materialized, warnings, peak_rss_mib())


def run_task(task: RunTask, instance=None, build_id: str = "", definitions=None,
             on_outcome=None) -> list[RunOutcome]:
    """Every partition of the chain in order; one failing does not stop the next. Each outcome is
    also reported as soon as its run ends (`on_outcome`, or the pool's queue in a worker)."""
    queue = _STATE.get("queue")
    if on_outcome is None and queue is not None:
        on_outcome = lambda outcome: queue.put(("outcome", outcome))  # noqa: E731
    outcomes = []
    for partition in task.partitions:
        outcomes.append(run_one(task, partition, instance, build_id, definitions))
        if on_outcome is not None:
            on_outcome(outcomes[-1])
    return outcomes
