"""`make distributed-check`: the distributed path run for real, with a worker killed twice.

1. builds the seed in process (SQLite instance, no workers): the reference;
2. starts Postgres and Redis in a temp folder, one dagster-celery worker and `dagster-daemon run`, with
   `deploy/celery/dagster.yaml` as the instance (Postgres run and event storage, queued runs);
3. runs `mmeb build --executor celery` for the seed and every phase after it (aggregates, retrievals,
   evaluation cells of the readers), every step on the worker;
4. SIGKILLs the worker's whole process group just after the `records` step started on it, and again
   after `lance_index` started; restarts it each time: the step's task, acknowledged late, comes back
   from Redis to the new worker (after the visibility timeout) and the run goes on. If the run failed
   anyway, `mmeb build --executor celery` runs once more (the documented resume);
5. compares every output file (and the LanceDB rows) with the reference, counts materializations per
   asset partition, prints one summary line and stops everything it started (also on failure).

Exit 0 only when both kills hit a running step, the build ended ok, nothing was materialized twice
and the outputs are identical. Every wait is bounded (`--deadline`).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from distributed_services import ServiceError, Services, free_port  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
KILL_STEPS = ("records", "lance_index")
EVAL_MODELS = "reader-oracle"
VISIBILITY_S = 420  # above the longest step here: lance_index took 227 s on the loaded 2-core machine
RESTORE_INTERVAL_S = 2  # Redis looks for expired unacked tasks every 10 x this


def base_env(home: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MMEB_", "DAGSTER_", "CELERY_"))}
    env.update(MMEB_HOME=str(home), DAGSTER_HOME=str(home / "dagster"), MMEB_MANIFEST="demo",
               MMEB_EVAL_MODELS=EVAL_MODELS, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
               TOKENIZERS_PARALLELISM="false", PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
               PYTHONPATH=os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]))
    (home / "dagster").mkdir(parents=True, exist_ok=True)
    return env


def run_build(env: dict, seed: str, log: Path, timeout_s: float, executor: str | None) -> int:
    """`mmeb build` for the seed (and every phase after it) in its own process group, killed with
    its code server when it outlives `timeout_s` or when the check itself is stopped."""
    args = [sys.executable, "-m", "mmeb_assets.cli", "build", "--manifest", "demo", "--partition", seed]
    args += ["--executor", executor] if executor else []
    with log.open("ab") as out:
        proc = subprocess.Popen(args, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        return proc.wait(timeout=max(30, timeout_s))
    except subprocess.TimeoutExpired:
        return 124
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)


class StepWatch:
    """Follows the run storage's step events; kills the worker once per step of `KILL_STEPS` just after
    it started there (still running: no success yet), then starts a fresh worker."""

    def __init__(self, pg_port: int, kill, restart, delay_s: float = 1.0):
        self.pg_port, self.kill, self.restart, self.delay_s = pg_port, kill, restart, delay_s
        self.kills: list[dict] = []
        self.stop = threading.Event()
        self.error = ""
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def _query(self, sql: str, args=()) -> list[tuple]:
        import psycopg2

        with psycopg2.connect(host="127.0.0.1", port=self.pg_port, user="mmeb", dbname="postgres") as conn:
            with conn.cursor() as cur:
                cur.execute(sql, args)
                return cur.fetchall()

    def _started(self, step: str) -> bool:
        try:
            return bool(self._query("select 1 from event_logs where dagster_event_type='STEP_START' and "
                                    "step_key=%s limit 1", (step,)))
        except Exception:  # noqa: BLE001 - tables not created yet
            return False

    def _loop(self) -> None:
        try:
            for step in KILL_STEPS:
                while not self.stop.is_set() and not self._started(step):
                    time.sleep(0.3)
                if self.stop.is_set():
                    return
                time.sleep(self.delay_s)
                done = self._query("select count(*) from event_logs where step_key=%s and dagster_event_type "
                                   "in ('STEP_SUCCESS','STEP_FAILURE')", (step,))[0][0]
                self.kill()
                self.kills.append({"step": step, "mid_step": done == 0, "at": time.time()})
                time.sleep(3)
                self.restart()
        except Exception as exc:  # noqa: BLE001 - reported in the summary
            self.error = f"{type(exc).__name__}: {exc}"


def worker_steps(watch: StepWatch) -> list[str]:
    """Step keys a Celery worker executed (its own 'Executing steps ... in celery worker' events)."""
    rows = watch._query("select event from event_logs where dagster_event_type='ENGINE_EVENT' and "
                        "event like %s", ("%in celery worker%",))
    steps = []
    for (event,) in rows:
        message = (json.loads(event).get("dagster_event") or {}).get("message", "")
        found = re.search(r"Executing steps (.+?) in celery worker", message)
        if found:
            steps += [s.strip() for s in found.group(1).split(",")]
    return steps


def twice_materialized(watch: StepWatch) -> list[str]:
    rows = watch._query("select asset_key, partition, count(*) from event_logs where dagster_event_type="
                        "'ASSET_MATERIALIZATION' group by asset_key, partition having count(*) > 1")
    return [f"{json.loads(key)[-1]}[{part}] x{n}" for key, part, n in rows]


def compare(dist: Path, ref: Path) -> tuple[bool, str]:
    from resume_check import index_rows, output_digests

    a, b = output_digests(dist), output_digests(ref)
    differ = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    rows_a, rows_b = index_rows(dist), index_rows(ref)
    same_index = rows_a == rows_b
    n_rows = sum(len(r) for r in rows_a.values())
    if differ or not same_index:
        shown = ", ".join(differ[:5]) + (f" (+{len(differ) - 5})" if len(differ) > 5 else "")
        return False, f"outputs DIFFER: {len(differ)} of {len(b)} files ({shown}); index rows equal: {same_index}"
    return True, f"outputs identical to the in-process build ({len(b)} files, {n_rows} index rows)"


def start_worker(services: Services, env: dict, config: Path, number: int) -> None:
    services.start("worker", [str(BIN / "dagster-celery"), "worker", "start", "-A", "dagster_celery.app",
                              "-y", str(config), "-n", f"mmeb-check-{number}", "-i", "mmeb_assets.definitions",
                              "--", "--concurrency=1"], env=env, cwd=REPO)


def distributed_env(root: Path, pg_url: str, redis_url: str, deadline_s: float) -> dict:
    env = base_env(root / "home")
    env.update(MMEB_EXECUTOR="celery", DAGSTER_PG_URL=pg_url, CELERY_BROKER_URL=f"{redis_url}/0",
               CELERY_RESULT_BACKEND=f"{redis_url}/1", MMEB_CELERY_VISIBILITY_S=str(VISIBILITY_S),
               MMEB_RUN_TIMEOUT_S=str(int(deadline_s)))
    env.update(MMEB_CELERY_RESTORE_INTERVAL_S=str(RESTORE_INTERVAL_S))
    (root / "home" / "dagster" / "dagster.yaml").write_text((REPO / "deploy/celery/dagster.yaml").read_text())
    worker_config = (REPO / "deploy/celery/worker.yaml").read_text().replace(
        "visibility_timeout: 3600", f"visibility_timeout: {VISIBILITY_S}").replace(
        "unacked_restore_interval: 10", f"unacked_restore_interval: {RESTORE_INTERVAL_S}")
    (root / "worker.yaml").write_text(worker_config)
    return env


def distributed_build(root: Path, seed: str, deadline: float) -> dict:
    services = Services(root)
    state: dict = {"kills": [], "resumed": False, "rc": None}
    try:
        pg_url = services.start_postgres(free_port())
        redis_url = services.start_redis(free_port())
        env = distributed_env(root, pg_url, redis_url, deadline - time.monotonic())
        workers = iter(range(1, 100))
        start_worker(services, env, root / "worker.yaml", next(workers))
        services.start("daemon", [str(BIN / "dagster-daemon"), "run", "-w", str(REPO / "workspace.yaml")],
                       env=env, cwd=REPO)
        watch = StepWatch(int(pg_url.rsplit(":", 1)[1].split("/")[0]), lambda: services.kill("worker"),
                          lambda: start_worker(services, env, root / "worker.yaml", next(workers)))
        watch.thread.start()
        state["rc"] = run_build(env, seed, root / "build.log", deadline - time.monotonic(), "celery")
        if state["rc"] != 0 and time.monotonic() < deadline - 60:
            state["resumed"] = True  # the documented resume: the same command again
            state["rc"] = run_build(env, seed, root / "build.log", deadline - time.monotonic(), "celery")
        watch.stop.set()
        watch.thread.join(timeout=10)
        state.update(kills=watch.kills, watch_error=watch.error, steps=worker_steps(watch),
                     twice=twice_materialized(watch))
    except ServiceError as exc:
        state["service_error"] = str(exc).splitlines()[0]
    finally:
        services.stop_all()
    return state


def summary(state: dict, same: bool, compared: str, seconds: float, seed: str) -> tuple[bool, str]:
    if state.get("service_error"):
        return False, f"distributed-check: SKIPPED: {state['service_error']}"
    steps = state.get("steps", [])
    distinct = list(dict.fromkeys(steps))
    kills = "; ".join(f"worker SIGKILLed {'mid-' if k['mid_step'] else 'after '}{k['step']}" for k in state["kills"])
    ok = (state["rc"] == 0 and same and not state.get("twice") and len(state["kills"]) == len(KILL_STEPS)
          and all(k["mid_step"] for k in state["kills"]))
    line = (f"distributed-check: {'OK' if ok else 'FAILED'} | seed {seed} + aggregates through Celery "
            f"(Postgres run storage, Redis broker): {len(steps)} step executions on workers "
            f"({len(distinct)} steps: {', '.join(distinct)}); {kills or 'no kill happened'}, restarted"
            f"{', then resumed with mmeb build' if state['resumed'] else ', the killed steps redelivered'}; "
            f"build rc={state['rc']}; materialized twice: {', '.join(state.get('twice', [])) or 'none'}; "
            f"{compared} | {seconds:.0f}s")
    if state.get("watch_error"):
        line += f" | watcher: {state['watch_error']}"
    return ok, line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", default="aurora-retrieval")
    parser.add_argument("--deadline", type=float, default=3000, help="seconds for the whole check")
    parser.add_argument("--keep", action="store_true", help="keep the temp folder (logs, both homes)")
    parser.add_argument("--reference", type=Path, help="a data home this check already built in process "
                        "for the same seed (skips step 1)")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the finally blocks stop what was started
    started = time.monotonic()
    deadline = started + args.deadline
    root = Path(tempfile.mkdtemp(prefix="mmeb-distributed-"))
    print(f"distributed-check: logs and homes under {root}", flush=True)
    reference = args.reference or root / "ref"
    if not args.reference:
        rc = run_build(base_env(reference), args.seed, root / "reference.log", args.deadline / 3, None)
        if rc != 0:
            print(f"distributed-check: FAILED: the in-process reference build failed (rc={rc}, {root}/reference.log)")
            return 1
        print(f"distributed-check: reference built in process ({time.monotonic() - started:.0f}s)", flush=True)
    state = distributed_build(root, args.seed, deadline)
    same, compared = (False, "not compared")
    if not state.get("service_error"):
        same, compared = compare(root / "home", reference)
    ok, line = summary(state, same, compared, time.monotonic() - started, args.seed)
    print(line, flush=True)
    if state.get("service_error"):
        return 77
    if not args.keep and ok:
        import shutil

        shutil.rmtree(root, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
