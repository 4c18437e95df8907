"""The build orchestration: phases and chains, one-line failure reasons, aggregates built from the
partitions that succeeded, the console, and (with the project's graph) parallel workers."""

import io
import os
import subprocess
import sys
from pathlib import Path

import dagster as dg
import pytest
from pydantic import BaseModel

from mmeb_assets.build import build_all
from mmeb_assets.build.console import Console
from mmeb_assets.build.outcome import RunOutcome
from mmeb_assets.build.phases import chain_partitions
from mmeb_assets.build.summary import overall_accuracy
from mmeb_resources.io_manager import PydanticJsonIOManager

REPO = Path(__file__).resolve().parents[1]
CHECK_MESSAGE = "err_04: needs a Notion update with '98.0' after the Slack correction"


class ToyValue(BaseModel):
    seed: str
    value: int


def _toy_definitions(home: Path, keys: tuple[str, ...] = ("alpha", "broken", "gamma", "refused")) -> dg.Definitions:
    seeds = dg.StaticPartitionsDefinition(list(keys))

    @dg.asset(partitions_def=seeds)
    def toy_plan(context: dg.AssetExecutionContext) -> ToyValue:
        if context.partition_key == "broken":
            raise ValueError("broken.pdf: corrupt PDF: no '%PDF-' header")
        return ToyValue(seed=context.partition_key, value=len(context.partition_key))

    @dg.asset_check(asset=toy_plan, partitions_def=seeds, blocking=True)
    def plan_documents(context: dg.AssetCheckExecutionContext, toy_plan: ToyValue) -> dg.AssetCheckResult:
        problems = [CHECK_MESSAGE, "err_05: second problem"] if toy_plan.seed == "refused" else []
        return dg.AssetCheckResult(passed=not problems, metadata={"first": "\n".join(problems) or "none"})

    @dg.asset(partitions_def=seeds)
    def toy_records(toy_plan: ToyValue) -> ToyValue:
        return ToyValue(seed=toy_plan.seed, value=toy_plan.value * 10)

    @dg.asset(ins={"toy_records": dg.AssetIn(partition_mapping=dg.AllPartitionMapping()),
                   "toy_plan": dg.AssetIn(partition_mapping=dg.AllPartitionMapping())})
    def toy_benchmark(toy_records: dict[str, ToyValue], toy_plan: dict[str, ToyValue]) -> ToyValue:
        # the refused seed's toy_plan file exists (its blocking check failed after it was written)
        assert sorted(toy_plan) == sorted(toy_records), (sorted(toy_plan), sorted(toy_records))
        return ToyValue(seed=",".join(sorted(toy_records)), value=sum(v.value for v in toy_records.values()))

    return dg.Definitions(assets=[toy_plan, toy_records, toy_benchmark], asset_checks=[plan_documents],
                          resources={"io_manager": PydanticJsonIOManager(home=str(home))})


def test_failed_seeds_get_one_line_and_the_aggregate_uses_the_rest(tmp_path, monkeypatch):
    monkeypatch.setenv("MMEB_HOME", str(tmp_path / "home"))
    lines: list[str] = []
    report = build_all(definitions=_toy_definitions(tmp_path / "home"), instance=dg.DagsterInstance.ephemeral(),
                       log=lines.append, force=True)
    failed = {o.partition: o.error for o in report.failed}
    assert set(failed) == {"broken", "refused"}
    assert failed["refused"] == f"toy_plan check plan_documents: {CHECK_MESSAGE}"
    assert failed["broken"] == "toy_plan: ValueError: broken.pdf: corrupt PDF: no '%PDF-' header"
    assert sorted(report.left_out) == ["broken", "refused"]
    text = "\n".join(lines)
    assert f"FAILED  seed refused: toy_plan check plan_documents: {CHECK_MESSAGE}" in text
    assert "Traceback" not in text and "err_05" not in text
    assert "left out: seed(s) broken, refused" in text or "left out: seed(s) refused, broken" in text
    bench = (tmp_path / "home" / "benchmark" / "toy_benchmark.json").read_text()
    assert '"seed": "alpha,gamma"' in bench and '"value": 100' in bench
    assert "FAILED seed refused" in report.summary()
    assert Path(report.log_file).parent == tmp_path / "home" / "logs"


def test_a_worker_never_runs_a_new_graph_with_a_freed_graphs_job(tmp_path, monkeypatch):
    """CPython hands a freed object's id() to the next one made, so in one process (pytest's, or a
    worker) a Definitions built after another was freed may share its id; the worker's cached job
    must still be the new graph's (CI once ran toy_plan against a job without it). The module-level
    `id` below makes every object share one id, as that reuse does, in the worker module alone."""
    from mmeb_assets.build import worker
    from mmeb_assets.build.phases import RunTask

    monkeypatch.setenv("MMEB_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(worker, "id", lambda _obj: 1, raising=False)
    monkeypatch.setattr(worker, "_STATE", {})
    instance = dg.DagsterInstance.ephemeral()

    @dg.asset
    def other_asset() -> int:
        return 1

    first = dg.Definitions(assets=[other_asset])
    assert worker.run_one(RunTask(1, ("other_asset",), (None,), force=True), None, instance, definitions=first).ok
    second = _toy_definitions(tmp_path / "home")
    outcome = worker.run_one(RunTask(1, ("toy_plan",), ("alpha",), force=True), "alpha", instance, definitions=second)
    assert outcome.ok, outcome.error


def test_no_seed_built_stops_the_build_in_one_line(tmp_path, monkeypatch):
    """Every seed failing: one FAILED line per seed, then one line for all that is skipped, no line per
    later run; the summary names seeds as seeds."""
    monkeypatch.setenv("MMEB_HOME", str(tmp_path / "home"))
    lines: list[str] = []
    report = build_all(definitions=_toy_definitions(tmp_path / "home", ("broken", "refused")),
                       instance=dg.DagsterInstance.ephemeral(), log=lines.append, force=True)
    text = "\n".join(lines)
    assert [line for line in lines if "FAILED" in line] == [
        line for line in lines if line.startswith("  FAILED  seed ")] and len([l for l in lines if "FAILED" in l]) == 2
    assert lines[-1] == "  no seed built: skipped toy_benchmark"
    assert "toy_benchmark" not in "\n".join(lines[:-1])
    assert report.stopped == "no seed built: skipped toy_benchmark"
    assert report.summary().splitlines()[-1] == "  no seed built: skipped toy_benchmark"
    assert "cell" not in text


def test_failure_lines_name_seeds_cells_and_partitions_and_stay_one_line():
    from mmeb_assets.build.outcome import MAX_REASON, failure_line

    seeds = frozenset({"alpha"})
    long = "records: ValueError: " + "x" * 500 + "\nsecond line"
    seed = RunOutcome(phase=1, assets=["records"], partition="alpha", ok=False, seconds=1.0, error=long)
    cell = RunOutcome(phase=4, assets=["answers"], partition="10|smollm2", ok=False, seconds=1.0, error="boom")
    other = RunOutcome(phase=3, assets=["retrievals"], partition="minilm", ok=False, seconds=1.0, error="boom")
    line = failure_line(seed, seeds)
    assert line.startswith("seed alpha: records: ValueError: ") and "\n" not in line
    assert len(line) <= len("seed alpha: ") + MAX_REASON and line.endswith("…")
    assert failure_line(cell, seeds) == "cell 10|smollm2: boom"
    assert failure_line(other, seeds) == "partition minilm: boom"


def test_model_cells_chain_by_model_and_seeds_run_alone():
    grid = dg.MultiPartitionsDefinition({"model": dg.StaticPartitionsDefinition(["big", "reader"]),
                                         "k": dg.StaticPartitionsDefinition(["10", "50"])})
    keys = grid.get_partition_keys()
    chains = chain_partitions(grid, keys)
    assert sorted(len(c) for c in chains) == [2, 2]
    assert all(len({str(k).split("|")[grid.partition_dimension_names.index("model")] for k in c}) == 1 for c in chains)
    seeds = dg.StaticPartitionsDefinition(["a", "b", "c"])
    assert chain_partitions(seeds, ["a", "b", "c"]) == [["a"], ["b"], ["c"]]
    assert chain_partitions(None, [None]) == [[None]]


def test_a_readers_cells_run_alone_after_the_model_chains():
    grid = dg.MultiPartitionsDefinition({"model": dg.StaticPartitionsDefinition(["reader-oracle", "smollm2-135m"]),
                                         "k": dg.StaticPartitionsDefinition(["10", "50", "100"])})
    model_of = grid.partition_dimension_names.index("model")
    chains = chain_partitions(grid, grid.get_partition_keys())
    assert [[str(k).split("|")[model_of] for k in c] for c in chains] == \
        [["smollm2-135m"] * 3, ["reader-oracle"], ["reader-oracle"], ["reader-oracle"]]


def test_console_draws_no_bar_when_not_a_terminal():
    stream = io.StringIO()
    console = Console(stream)
    console.progress("phase 1/5", 1, 3)
    console.line("  ok      alpha")
    console.progress("phase 1/5", 3, 3)
    console.close()
    assert stream.getvalue() == "  ok      alpha\n"


def test_overall_accuracy_table_reads_table5(tmp_path):
    (tmp_path / "table5.csv").write_text(
        "table,model,group,k,retriever,column,n,correct,accuracy,ci_low,ci_high\n"
        "table5,reader-oracle,diagnostic,10,minilm,extraction,4,1,25.0,0,50\n"
        "table5,reader-oracle,diagnostic,10,minilm,overall,60,18,30.0,20,40\n"
        "table5,reader-oracle,diagnostic,50,minilm,overall,60,21,35.0,25,45\n")
    lines = overall_accuracy(tmp_path)
    assert "k=10" in lines[1] and "k=50" in lines[1]
    assert lines[2].split()[:3] == ["reader-oracle", "30.0", "(n=60)"] and "35.0" in lines[2]
    assert overall_accuracy(tmp_path / "absent") == []


def test_outcome_label_of_unpartitioned_run():
    assert RunOutcome(2, ["benchmark"], None, True, 1.0).label == "(unpartitioned)"


def _write_manifest(folder: Path, bad_path: str) -> Path:
    import yaml

    demo = yaml.safe_load((REPO / "manifests" / "demo.yaml").read_text())
    seeds = [dict(s, path=str(REPO / "manifests" / s["path"])) for s in demo["seeds"]]
    seeds.append({"id": "broken-notes", "title": "Broken notes", "path": bad_path, "domain": "Testing",
                  "license": "CC0"})
    manifest = folder / "with_bad.yaml"
    manifest.write_text(yaml.safe_dump({"name": "with-bad", "allowed_roots": [str(REPO / "manifests")], "seeds": seeds},
                                       sort_keys=False))
    return manifest


def _mmeb(args: list[str], home: Path, timeout: int, **env) -> subprocess.CompletedProcess:
    full_env = {**os.environ, "MMEB_HOME": str(home), "DAGSTER_HOME": str(home / "dagster"), **env}
    return subprocess.run([sys.executable, "-m", "mmeb_assets.cli", *args], cwd=REPO, env=full_env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.slow
def test_parallel_workers_ingest_the_demo_seeds_and_name_the_bad_one(tmp_path):
    """Two spawned workers, the project's graph, one cheap asset: every seed in its own run."""
    (tmp_path / "notes.pdf").write_text("this is not a PDF")
    manifest = _write_manifest(tmp_path, str(tmp_path / "notes.pdf"))
    proc = _mmeb(["build", "--manifest", str(manifest), "--select", "seed_document", "--workers", "2"],
                 tmp_path / "home", timeout=600)
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    assert "FAILED  seed broken-notes: seed_document: IngestionError:" in out and "notes.pdf" in out
    assert "Traceback" not in out and " - DEBUG - " not in out
    for seed in ("aurora-retrieval", "harbor-emissions", "lumen-vision"):
        assert f"ok      {seed}" in out, out
        assert (tmp_path / "home" / "projects" / seed / "seed_document.json").exists()
    assert "with 2 worker(s)" in out and "peak RSS" in out
    log = next((tmp_path / "home" / "logs").glob("build-*.log")).read_text()
    assert "STEP_SUCCESS" in log  # Dagster's event log went to the file


@pytest.mark.heavy
def test_demo_plus_a_bad_seed_builds_the_aggregates_from_the_rest(tmp_path):
    """The whole graph on the demo seeds plus a non-PDF seed, two workers (minutes)."""
    (tmp_path / "notes.pdf").write_text("this is not a PDF")
    manifest = _write_manifest(tmp_path, str(tmp_path / "notes.pdf"))
    home = tmp_path / "home"
    proc = _mmeb(["build", "--manifest", str(manifest), "--workers", "2"], home, timeout=3000,
                 MMEB_EVAL_MODELS="reader-latest-mention,reader-oracle")
    out = proc.stdout
    assert "FAILED  seed broken-notes: seed_document: IngestionError:" in out, out + proc.stderr
    assert "left out: broken-notes" in out
    assert len(proc.stdout.splitlines()) < 80
    import json

    bench = json.loads((home / "benchmark" / "benchmark.json").read_text())["data"]
    assert sorted(bench["projects"]) == ["aurora-retrieval", "harbor-emissions", "lumen-vision"]
    assert (home / "evaluation" / "reports" / "leaderboard.md").exists()
    assert "Overall accuracy" in out and "reader-oracle" in out


def test_thread_budget_shares_the_cores_between_runs_at_once():
    from mmeb_assets.build.phases import thread_budget

    seeds = dg.StaticPartitionsDefinition(["a", "b", "c"])
    assert thread_budget(seeds, [["a"], ["b"], ["c"]], cores=4, workers=2) == [2, 2, 2]
    assert thread_budget(None, [[None]], cores=4, workers=2) == [4]
    grid = dg.MultiPartitionsDefinition({"model": dg.StaticPartitionsDefinition(["reader-oracle", "smollm2-135m"]),
                                         "k": dg.StaticPartitionsDefinition(["10", "50"])})
    chains = chain_partitions(grid, grid.get_partition_keys())
    budget = dict(zip((str(c[0]).split("|")[grid.partition_dimension_names.index("model")] for c in chains),
                      thread_budget(grid, chains, cores=2, workers=2)))
    assert budget == {"reader-oracle": 1, "smollm2-135m": 2}  # the reader uses no torch
