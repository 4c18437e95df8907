"""Where runs execute: in this process (one worker, or a given instance), or in a pool of spawned
worker processes, one task (a chain of runs) per worker at a time."""
from __future__ import annotations

import multiprocessing
import os
import threading
from concurrent.futures import Future, ProcessPoolExecutor

from mmeb_assets.build.console import Console
from mmeb_assets.build.outcome import RunOutcome
from mmeb_assets.build.phases import RunTask
from mmeb_assets.build.worker import init_worker, run_task


def default_workers() -> int:
    """The cores this process may use (the affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


class InlineRunner:
    """Runs in this process, one at a time; progress goes straight to the console."""

    workers = 1

    def __init__(self, console: Console, build_id: str, instance=None, definitions=None):
        from mmeb_assets.operations import progress

        self.instance, self.build_id, self.definitions = instance, build_id, definitions
        self.on_outcome = None
        progress.set_sink(console.progress)

    def submit(self, task: RunTask) -> Future:
        future: Future = Future()
        try:
            future.set_result(run_task(task, self.instance, self.build_id, self.definitions, self.on_outcome))
        except BaseException as exc:  # noqa: BLE001 - reported like a worker's failure
            future.set_exception(exc)
        return future

    def close(self) -> None:
        from mmeb_assets.operations import progress

        progress.set_sink(None)


class PoolRunner:
    """`workers` spawned processes (spawn: no forked SQLite handles or torch threads), each with
    cores // workers threads; their progress comes back over a queue to the console's bar."""

    def __init__(self, workers: int, console: Console, build_id: str):
        self.workers, self.console = workers, console
        self.on_outcome = None  # set by the phase being run: called (reader thread) as each run ends
        context = multiprocessing.get_context("spawn")
        self.queue = context.Queue()
        threads = max(1, default_workers() // workers)
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=init_worker,
                                        initargs=(threads, self.queue, build_id))
        self._bars: dict[int, str] = {}
        self._reader = threading.Thread(target=self._read_progress, daemon=True)
        self._reader.start()

    def _read_progress(self) -> None:
        while True:
            message = self.queue.get()
            if message is None:
                return
            if message[0] == "outcome":
                if self.on_outcome is not None:
                    self.on_outcome(message[1])
                continue
            _, pid, label, done, total = message
            self.console.progress(label, done, total)

    def submit(self, task: RunTask) -> Future:
        return self.pool.submit(run_task, task)

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.queue.put(None)
        self._reader.join(timeout=5)


def outcomes_of(future: Future, task: RunTask) -> list[RunOutcome]:
    """A worker that died (killed, out of memory) fails its task's runs with the reason."""
    try:
        return future.result()
    except Exception as exc:  # noqa: BLE001 - BrokenProcessPool and friends
        reason = f"worker failed: {type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"
        return [RunOutcome(task.phase, list(task.assets), p, False, 0.0, reason) for p in task.partitions]
