"""Resume planning on a toy graph: an asset whose run was killed before its blocking check ran is
not recomputed; the check runs alone, and it still gates what comes after it."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import dagster as dg
import pytest

from mmeb_assets.build.phases import RunTask
from mmeb_assets.build.worker import run_one
from mmeb_assets.operations.resume import plan_partition

PARTITIONS = dg.StaticPartitionsDefinition(["p1", "p2"])
CALLS: list[str] = []
GATE = {"passes": True}


@dg.asset(partitions_def=PARTITIONS)
def first(context) -> None:
    CALLS.append(f"first:{context.partition_key}")


@dg.asset_check(asset=first, blocking=True)
def first_ok() -> dg.AssetCheckResult:
    if os.environ.get("TOY_KILL_IN_CHECK"):
        os.kill(os.getpid(), signal.SIGKILL)
    CALLS.append("first_ok")
    return dg.AssetCheckResult(passed=GATE["passes"])


@dg.asset(partitions_def=PARTITIONS, deps=[first])
def second(context) -> None:
    CALLS.append(f"second:{context.partition_key}")


DEFS = dg.Definitions(assets=[first, second], asset_checks=[first_ok])
KEYS = [dg.AssetKey("first"), dg.AssetKey("second")]


@pytest.fixture
def killed_before_check(tmp_path):
    """p1's `first` materialized, its check never evaluated (the run died between them)."""
    CALLS.clear()
    GATE["passes"] = True
    instance = dg.DagsterInstance.local_temp(str(tmp_path))
    job = DEFS.resolve_implicit_global_asset_job_def()
    subset = job.get_subset(asset_selection={KEYS[0]}, asset_check_selection=set())
    assert subset.execute_in_process(instance=instance, partition_key="p1").success
    assert CALLS == ["first:p1"]
    CALLS.clear()
    yield instance
    instance.dispose()


@pytest.fixture
def killed_in_check(tmp_path):
    """p1's whole run started in another process, which died inside the blocking check (the check's
    execution record stays PLANNED)."""
    CALLS.clear()
    GATE["passes"] = True
    script = (f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import dagster as dg; "
              "import test_resume_plan as toy; "
              f"instance = dg.DagsterInstance.local_temp({str(tmp_path)!r}); "
              "toy.DEFS.resolve_implicit_global_asset_job_def().execute_in_process(instance=instance, "
              "partition_key='p1')")
    done = subprocess.run([sys.executable, "-c", script], env={**os.environ, "TOY_KILL_IN_CHECK": "1"},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stderr[-2000:]
    instance = dg.DagsterInstance.local_temp(str(tmp_path))
    yield instance
    instance.dispose()


def _plan(instance):
    return plan_partition(instance, DEFS.resolve_asset_graph(), KEYS, "p1")


def test_unchecked_materialization_runs_its_check_alone(killed_before_check):
    instance = killed_before_check
    plan = _plan(instance)
    assert [k.to_user_string() for k in plan.run] == ["second"]
    assert [c.name for c in plan.checks] == ["first_ok"]
    assert not plan.up_to_date

    outcome = run_one(RunTask(phase=1, assets=("first", "second"), partitions=("p1",)), "p1", instance,
                      definitions=DEFS)
    assert outcome.ok, outcome.error
    assert CALLS == ["first_ok", "second:p1"]  # `first` is not recomputed
    assert _plan(instance).up_to_date  # the check evaluated in the resume run counts for p1


def test_a_check_evaluated_for_another_partition_does_not_count(killed_before_check):
    instance = killed_before_check
    run_one(RunTask(phase=1, assets=("first", "second"), partitions=("p2",)), "p2", instance, definitions=DEFS)
    assert [c.name for c in _plan(instance).checks] == ["first_ok"]


def test_the_check_run_alone_still_gates_what_follows(killed_before_check):
    instance = killed_before_check
    GATE["passes"] = False
    outcome = run_one(RunTask(phase=1, assets=("first", "second"), partitions=("p1",)), "p1", instance,
                      definitions=DEFS)
    assert not outcome.ok
    assert CALLS == ["first_ok"]  # `second` waits for the blocking check, which failed
    plan = _plan(instance)
    assert [k.to_user_string() for k in plan.run] == ["first", "second"]  # now the asset itself reruns
    assert "first_ok failed" in plan.reasons["first"]


def test_a_run_killed_inside_the_check_resumes_at_the_check(killed_in_check):
    instance = killed_in_check
    plan = _plan(instance)
    assert ([k.to_user_string() for k in plan.run], [c.name for c in plan.checks]) == (["second"], ["first_ok"])
    outcome = run_one(RunTask(phase=1, assets=("first", "second"), partitions=("p1",)), "p1", instance,
                      definitions=DEFS)
    assert outcome.ok, outcome.error
    assert CALLS == ["first_ok", "second:p1"]
    assert _plan(instance).up_to_date
