"""`build_all`: every phase in order, the runs of a phase at once on the workers, a readable console.

A failing seed fails its own run and is named in one line; the aggregate phases that follow are
built from the seeds that succeeded, and the console says which were left out.
"""
from __future__ import annotations

import resource
import threading
import time
import uuid
from concurrent.futures import as_completed
from dataclasses import replace
from typing import Callable

import dagster as dg
from dagster import DagsterInstance

from mmeb_assets.build.console import Console, new_log_path, quiet_terminal
from mmeb_assets.build.event_log import relax_event_log_sync
from mmeb_assets.build.observe import observe_sources
from mmeb_assets.build.outcome import BuildReport, RunOutcome, failure_line, partition_kind
from mmeb_assets.build.phases import RunTask, load_definitions, plan_tasks
from mmeb_assets.build.runners import InlineRunner, PoolRunner, default_workers, outcomes_of
from mmeb_assets.build.worker import peak_rss_mib


def _names(assets: tuple[str, ...], limit: int = 4) -> str:
    shown = ", ".join(assets[:limit])
    return shown + (f", … ({len(assets)} assets)" if len(assets) > limit else "")


def _outcome_line(outcome: RunOutcome, seeds: frozenset[str]) -> str:
    if not outcome.ok:
        return f"  FAILED  {failure_line(outcome, seeds)}  ({outcome.seconds:.1f}s)"
    if outcome.skipped:
        return f"  skip    {outcome.label:<28} up to date"
    warned = f", {len(outcome.warnings)} check warning(s)" if outcome.warnings else ""
    return f"  ok      {outcome.label:<28} {outcome.materialized:>3} assets {outcome.seconds:6.1f}s{warned}"


def _run_phase(runner, tasks: list[RunTask], number: int, count: int, say: Callable[[str], None],
               console: Console, seeds: frozenset[str] = frozenset()) -> list[RunOutcome]:
    started = time.monotonic()
    runs = sum(len(t.partitions) for t in tasks)
    single = runs == 1 and tasks[0].partitions == (None,)
    if not single:
        say(f"[{number}/{count}] {_names(tasks[0].assets)} — {runs} partitions")
    label = f"phase {number}/{count}"
    shown: set[str | None] = set()
    lock = threading.Lock()

    def show(outcome: RunOutcome) -> None:
        with lock:
            if outcome.phase != number or outcome.partition in shown:
                return  # a late report of an earlier phase, or one already shown
            shown.add(outcome.partition)
        if single:
            state = "up to date" if outcome.skipped else "ok" if outcome.ok else f"FAILED {failure_line(outcome).split(': ', 1)[-1]}"
            say(f"[{number}/{count}] {_names(outcome.assets, 6)}: {state} ({outcome.seconds:.1f}s)")
        else:
            say(_outcome_line(outcome, seeds))
            console.progress(label, len(shown), runs)

    runner.on_outcome = show
    futures = {runner.submit(task): task for task in tasks}
    outcomes: list[RunOutcome] = []
    for future in as_completed(futures):
        outcomes.extend(outcomes_of(future, futures[future]))
    deadline = time.monotonic() + 3.0  # the workers' own reports travel on another pipe: let them land
    while len(shown) < len(outcomes) and time.monotonic() < deadline:
        time.sleep(0.05)
    for outcome in outcomes:  # a worker that died reported nothing itself
        show(outcome)
    if not single:
        failed = sum(not o.ok for o in outcomes)
        say(f"[{number}/{count}] done in {time.monotonic() - started:.1f}s: {runs - failed} ok, {failed} failed")
    return outcomes


def _seed_keys(phases: list[list[RunTask]], own_graph: bool) -> frozenset[str]:
    """The planned partitions that are seed projects (the manifest's ids); for another graph (tests),
    the keys of its first partitioned phase."""
    from mmeb_assets.manifests import ManifestError, load_manifest

    planned = [[p for t in tasks for p in t.partitions if p] for tasks in phases]
    try:
        ids = set(load_manifest().ids) if own_graph else set()
    except (ManifestError, OSError):
        ids = set()
    seeds = {p for keys in planned for p in keys if p in ids}
    if not seeds and not own_graph:
        seeds = set(next((keys for keys in planned if keys), []))
    return frozenset(seeds)


def _left_out_text(report: BuildReport) -> str:
    parts = [f"{kind}(s) {', '.join(report.left_out_of(kind))}" for kind in ("seed", "partition", "cell")
             if report.left_out_of(kind)]
    return "; ".join(parts)


def _stop_line(tasks: list[RunTask], outcomes: list[RunOutcome], rest: list[list[RunTask]],
               seeds: frozenset[str]) -> str:
    """One line for every phase a build skips because the phase before built nothing."""
    kinds = {partition_kind(o.partition, seeds) for o in outcomes}
    what = "no seed built" if kinds == {"seed"} else f"{', '.join(tasks[0].assets[:3])} built nothing"
    skipped = [name for phase in rest for name in phase[0].assets]
    return f"{what}: skipped {_names(tuple(skipped), 6)}"


def _runner(launch: bool, n_workers: int, console: Console, build_id: str, instance, definitions):
    if launch:
        from mmeb_assets.build.remote import RemoteRunner

        return RemoteRunner(console, build_id, definitions, instance or DagsterInstance.get(), n_workers)
    if n_workers > 1:
        return PoolRunner(n_workers, console, build_id)
    return InlineRunner(console, build_id, instance, definitions)


def build_all(partitions: list[str] | None = None, selection: list[str] | None = None,
              instance: DagsterInstance | None = None, log: Callable[[str], None] | None = None,
              workers: int | None = None, verbose: bool = False, force: bool = False,
              definitions: dg.Definitions | None = None, launch: bool = False) -> BuildReport:
    """Materialize every phase; `workers` processes run a phase's partitions at once (default: the
    cores). A given `instance` (an ephemeral one in tests) runs everything in this process. Asset
    partitions that are up to date are skipped (resume after a kill); `force` rebuilds them.
    `definitions` other than the project's (tests) run in this process too. `launch` submits each
    run to the instance's run coordinator instead (`remote.py`: the executor of `MMEB_EXECUTOR`
    runs the steps) and follows `workers` runs at once (default 16)."""
    from mmeb_resources.storage import default_home

    if launch:
        n_workers = max(1, workers or 16)
    else:
        n_workers = 1 if instance is not None or definitions is not None else max(1, workers or default_workers())
    log_path = new_log_path(default_home())
    build_id = uuid.uuid4().hex[:12]
    report = BuildReport(workers=n_workers, log_file=str(log_path))
    started = time.monotonic()
    with quiet_terminal(log_path, verbose) as console:
        say = log or console.line
        say(f"Dagster event log: {log_path} (--verbose prints it here)")
        own_graph = definitions is None
        if instance is None:  # the persistent instance under $DAGSTER_HOME (event_log.py)
            relax_event_log_sync()
        definitions = definitions or load_definitions()
        planning = instance or DagsterInstance.get()
        for problem in observe_sources(definitions, planning):
            say(f"  warning: {problem}")
        phases = plan_tasks(definitions, partitions, selection, planning, force, default_workers(), n_workers)
        report.seeds = _seed_keys(phases, own_graph)
        runner = _runner(launch, n_workers, console, build_id, instance, definitions)
        announced = False
        try:
            for number, tasks in enumerate(phases, start=1):
                if report.left_out and tasks[0].partitions == (None,) and not announced:
                    say(f"  aggregates: built from the partitions that succeeded; left out: {_left_out_text(report)}")
                    announced = True
                if report.left_out:
                    tasks = [replace(task, left_out=tuple(report.left_out)) for task in tasks]
                outcomes = _run_phase(runner, tasks, number, len(phases), say, console, report.seeds)
                report.outcomes.extend(outcomes)
                report.left_out += [o.partition for o in outcomes
                                    if not o.ok and o.partition and o.partition not in report.left_out]
                if number < len(phases) and outcomes and not any(o.ok for o in outcomes):
                    report.stopped = _stop_line(tasks, outcomes, phases[number:], report.seeds)
                    say(f"  {report.stopped}")
                    break
        finally:
            runner.close()
    report.seconds = time.monotonic() - started
    report.peak_rss_mib = max([peak_rss_mib(), peak_rss_mib(resource.RUSAGE_CHILDREN),
                               *(o.peak_rss_mib for o in report.outcomes)])
    report.build_id = build_id
    return report
