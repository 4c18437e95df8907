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


@dg.asset(partitions_def=PARTITIONS, check_specs=[dg.AssetCheckSpec("boxed_ok", asset="boxed", blocking=True)])
def boxed(context):
    CALLS.append(f"boxed:{context.partition_key}")
    yield dg.Output(None)
    if os.environ.get("TOY_KILL_IN_CHECK"):
        os.kill(os.getpid(), signal.SIGKILL)
    yield dg.AssetCheckResult(check_name="boxed_ok", passed=True)


DEFS = dg.Definitions(assets=[first, second, boxed], asset_checks=[first_ok])
KEYS = [dg.AssetKey("first"), dg.AssetKey("second")]
BOXED = [dg.AssetKey("boxed")]


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


def _run_killed_in_check(tmp_path, selection: str) -> None:
    """Run the toy job for p1 in another process that dies inside a blocking check (its execution
    record stays PLANNED)."""
    script = (f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import dagster as dg; "
              "import test_resume_plan as toy; "
              f"instance = dg.DagsterInstance.local_temp({str(tmp_path)!r}); "
              "toy.DEFS.resolve_implicit_global_asset_job_def().execute_in_process("
              f"instance=instance, partition_key='p1', asset_selection=toy.{selection})")
    done = subprocess.run([sys.executable, "-c", script], env={**os.environ, "TOY_KILL_IN_CHECK": "1"},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stderr[-2000:]


@pytest.fixture
def killed_in_check(tmp_path):
    """p1 run twice in processes that died: in `first_ok`, and in `boxed` after its output."""
    CALLS.clear()
    GATE["passes"] = True
    _run_killed_in_check(tmp_path, "KEYS")
    _run_killed_in_check(tmp_path, "BOXED")
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


def test_an_unevaluated_check_spec_reruns_its_asset(killed_in_check):
    """A check that only the asset's own function yields cannot run alone: the asset runs again."""
    instance = killed_in_check
    plan = plan_partition(instance, DEFS.resolve_asset_graph(), BOXED, "p1")
    assert [k.to_user_string() for k in plan.run] == ["boxed"] and plan.checks == []
    assert "boxed_ok never evaluated" in plan.reasons["boxed"]
    outcome = run_one(RunTask(phase=1, assets=("boxed",), partitions=("p1",)), "p1", instance, definitions=DEFS)
    assert outcome.ok, outcome.error
    assert plan_partition(instance, DEFS.resolve_asset_graph(), BOXED, "p1").up_to_date
