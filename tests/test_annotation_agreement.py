"""Table 4 and per-criterion agreement on a hand-made set, against numbers computed by hand."""
from __future__ import annotations

import csv
import json

import dagster as dg
import pytest

from mmeb_assets.annotation import agreement, db
from mmeb_assets.annotation.assets import CRITERIA_CSV, TABLE4_CSV, human_agreement, human_agreement_coverage
from mmeb_assets.annotation.cli import prepare
from mmeb_assets.annotation.sampling import SampleConfig
from mmeb_resources.io_manager import PydanticJsonIOManager
from mmeb_resources.storage import StorageResource
from test_annotation_fixtures import build_home, j

DECISIONS = {"A1": "accepted", "A2": "accepted", "A3": "accepted",
             "R1": "rejected", "R2": "rejected", "R3": "rejected"}
# x, y, z judge six items; reject = C1 no or C2 no or C3 present ("cannot_judge" is not a reject).
HAND_SET = [
    j("x", "A1"), j("y", "A1"), j("z", "A1"),
    j("x", "A2"), j("y", "A2", c1="cannot_judge"), j("z", "A2"),
    j("x", "A3"), j("y", "A3", c2="no"), j("z", "A3"),
    j("x", "R1", c1="no"), j("y", "R1", c1="no", c2="no"), j("z", "R1"),
    j("x", "R2"), j("y", "R2"), j("z", "R2"),
    j("x", "R3", c3="present"), j("y", "R3"), j("z", "R3", c3="present"),
]


def test_table4_matches_hand_count():
    rows = {r.llm_decision: r for r in agreement.table4(HAND_SET, DECISIONS)}
    # accepted: A3 rejected by y; rejected: R1 and R3 rejected by someone, R2 by nobody
    assert (rows["Accepted"].questions, rows["Accepted"].human_zero_reject, rows["Accepted"].human_any_reject) == (3, 2, 1)
    assert (rows["Rejected"].questions, rows["Rejected"].human_zero_reject, rows["Rejected"].human_any_reject) == (3, 1, 2)
    assert (rows["Total"].questions, rows["Total"].human_zero_reject, rows["Total"].human_any_reject) == (6, 3, 3)
    # min_annotators: with 4 required, no item counts
    assert agreement.table4(HAND_SET, DECISIONS, min_annotators=4)[-1].questions == 0


def test_cohen_kappa_hand_values():
    # C1 x vs y: p_o = 5/6, p_e = (5*4 + 1*1)/36 = 7/12 -> kappa = 0.6
    x = ["yes", "yes", "yes", "no", "yes", "yes"]
    y = ["yes", "cannot_judge", "yes", "no", "yes", "yes"]
    assert agreement.cohen_kappa(x, y) == pytest.approx(0.6)
    assert agreement.percent_agreement(x, y) == pytest.approx(500 / 6)
    assert agreement.cohen_kappa(["yes"] * 4, ["yes"] * 4) is None  # p_e = 1: undefined
    assert agreement.cohen_kappa([], []) is None
    assert agreement.cohen_kappa(["a", "b"], ["b", "a"]) == pytest.approx(-1.0)
    with pytest.raises(ValueError):
        agreement.cohen_kappa(["a"], [])


def test_per_criterion_agreement_hand_values():
    result = agreement.compute_agreement(HAND_SET, DECISIONS, sampled_items=6)
    rows = {r.criterion: r for r in result.criteria}
    pairs = {(p.criterion, p.annotator_a, p.annotator_b): p for p in result.pairs}
    assert pairs[("c1", "x", "y")].kappa == pytest.approx(0.6)
    assert pairs[("c1", "x", "z")].kappa == pytest.approx(0.0)       # p_o 5/6, p_e 5/6
    assert pairs[("c1", "y", "z")].kappa == pytest.approx(0.0)       # p_o 4/6, p_e 4/6
    assert rows["c1"].mean_kappa == pytest.approx(0.2)
    assert rows["c1"].mean_percent_agreement == pytest.approx((500 / 6 + 500 / 6 + 400 / 6) / 3)
    assert pairs[("c2", "x", "z")].kappa is None                     # both always "yes"
    assert pairs[("c3", "x", "z")].kappa == pytest.approx(1.0)
    assert rows["c3"].mean_kappa == pytest.approx(1 / 3)
    # vs the LLM: C3 flagged only on R3 -> 4/6 agree, p_e = (1*3 + 5*3)/36 = 0.5 -> kappa 1/3
    assert rows["c3"].percent_agreement_vs_llm == pytest.approx(400 / 6)
    assert rows["c3"].kappa_vs_llm == pytest.approx(1 / 3)
    # any reject: humans A3, R1, R3 vs LLM R1, R2, R3 -> 4/6, p_e 0.5 -> kappa 1/3
    assert rows["reject"].percent_agreement_vs_llm == pytest.approx(400 / 6)
    assert rows["reject"].kappa_vs_llm == pytest.approx(1 / 3)
    assert result.annotators == ["x", "y", "z"] and result.reviewers_per_item == 3 and result.judged_items == 6
    md = agreement.markdown(result)
    assert "| Accepted | 3 | 2 (67%) | 1 (33%) |" in md and "none rejects" in md


def test_unknown_items_are_left_out_with_a_note():
    result = agreement.compute_agreement([*HAND_SET, j("x", "GHOST")], DECISIONS, sampled_items=6)
    assert result.table4[-1].questions == 6
    assert any("GHOST" in note for note in result.notes)


def _materialize(home):
    resources = {"storage": StorageResource(home=str(home)), "io_manager": PydanticJsonIOManager(home=str(home))}
    return dg.materialize([human_agreement, human_agreement_coverage], resources=resources)


def test_human_agreement_asset_on_a_real_database(mmeb_home):
    build_home(mmeb_home)
    prepare(mmeb_home, ["x", "y"], SampleConfig(n_accepted=50, n_rejected=50, seed=0))
    conn = db.connect(db.db_path(mmeb_home))
    sample = db.sample(conn)
    assert len(sample) == 8  # 5 accepted + 3 rejected exist: fewer than 50 each
    # x rejects every LLM-rejected item on C2; y accepts everything; nobody rejects an accepted one
    for row in sample:
        reject = row.llm_decision == "rejected"
        db.save_judgment(conn, j("x", row.item_id, c2="no" if reject else "yes"), 0)
        db.save_judgment(conn, j("y", row.item_id), 0)
    conn.close()
    result = _materialize(mmeb_home)
    assert result.success
    table = list(csv.DictReader((mmeb_home / "benchmark" / TABLE4_CSV).open()))
    assert [(r["llm_decision"], r["questions"], r["human_zero_reject"], r["human_any_reject"]) for r in table] == [
        ("Accepted", "5", "5", "0"), ("Rejected", "3", "0", "3"), ("Total", "8", "5", "3")]
    criteria = {r["criterion"]: r for r in csv.DictReader((mmeb_home / "benchmark" / CRITERIA_CSV).open())}
    assert criteria["reject"]["kappa_vs_llm"] == "1.0000" and criteria["reject"]["percent_agreement_vs_llm"] == "100.00"
    stored = json.loads((mmeb_home / "benchmark" / "human_agreement.json").read_text())
    assert stored["data"]["judged_items"] == 8 and stored["data"]["annotators"] == ["x", "y"]
    md = result.asset_materializations_for_node("human_agreement")[0].metadata["table4"].value
    assert "| Rejected | 3 | 0 (0%) | 3 (100%) |" in md
    check = result.get_asset_check_evaluations()[0]
    assert check.passed


def test_human_agreement_asset_without_database(mmeb_home):
    result = _materialize(mmeb_home)
    assert result.success
    stored = json.loads((mmeb_home / "benchmark" / "human_agreement.json").read_text())
    assert stored["data"]["judged_items"] == 0
    assert any("no annotation database" in n for n in stored["data"]["notes"])
    assert not result.get_asset_check_evaluations()[0].passed


def test_annotation_definitions():
    from mmeb_assets.annotation.defs import defs as annotation_defs
    from mmeb_resources.defaults import default_resources

    defs = dg.Definitions.merge(annotation_defs, dg.Definitions(resources=default_resources()))
    keys = {k.to_user_string() for k in defs.resolve_all_asset_keys()}
    assert "human_agreement" in keys
    assert not defs.resolve_assets_def("human_agreement").partitions_def


def test_new_judgments_make_table4_stale_and_a_plain_build_recomputes_it(mmeb_home):
    """The judgments are an external source whose version a sensor reports; a build without --force
    runs that sensor first and so sees a new judgment."""
    from mmeb_assets.annotation.assets import annotation_judgments, annotation_judgments_sensor
    from mmeb_assets.build.orchestrate import build_all

    build_home(mmeb_home)
    prepare(mmeb_home, ["x"], SampleConfig(n_accepted=50, n_rejected=50, seed=0))
    conn = db.connect(db.db_path(mmeb_home))
    sample = db.sample(conn)
    for row in sample[:3]:
        db.save_judgment(conn, j("x", row.item_id), 0)
    conn.close()
    defs = dg.Definitions(assets=[annotation_judgments, human_agreement], asset_checks=[human_agreement_coverage],
                          sensors=[annotation_judgments_sensor],
                          resources={"storage": StorageResource(home=str(mmeb_home)),
                                     "io_manager": PydanticJsonIOManager(home=str(mmeb_home))})
    instance = dg.DagsterInstance.ephemeral()
    said: list[str] = []

    def build() -> tuple[bool, int]:
        report = build_all(selection=["human_agreement"], definitions=defs, instance=instance, log=said.append)
        judged = json.loads((mmeb_home / "benchmark" / "human_agreement.json").read_text())["data"]["judged_items"]
        return all(o.skipped for o in report.outcomes), judged

    assert build() == (False, 3)
    assert build() == (True, 3)   # nothing changed: up to date, skipped
    conn = db.connect(db.db_path(mmeb_home))
    for row in sample[3:5]:
        db.save_judgment(conn, j("x", row.item_id), 0)
    conn.close()
    assert build() == (False, 5), said  # two new judgments: recomputed without --force


def test_the_sensor_reports_each_change_once_and_table4_shows_stale(mmeb_home):
    """What `dagster dev` shows: the sensor records the judgments' digest as the data version of the
    external asset (a runless materialization), skips while nothing changed, and after a new judgment
    Dagster's staleness (the UI's) marks Table 4 stale."""
    from dagster._core.definitions.data_version import CachingStaleStatusResolver, StaleStatus
    from dagster._core.loader import LoadingContextForTest

    from mmeb_assets.annotation.assets import annotation_judgments, annotation_judgments_sensor, judgments_version

    build_home(mmeb_home)
    prepare(mmeb_home, ["x"], SampleConfig(n_accepted=50, n_rejected=50, seed=0))
    defs = dg.Definitions(assets=[annotation_judgments, human_agreement], sensors=[annotation_judgments_sensor],
                          resources={"storage": StorageResource(home=str(mmeb_home)),
                                     "io_manager": PydanticJsonIOManager(home=str(mmeb_home))})
    instance = dg.DagsterInstance.ephemeral()
    storage = StorageResource(home=str(mmeb_home))

    def tick():
        with dg.build_sensor_context(instance=instance, resources={"storage": storage}) as context:
            result = annotation_judgments_sensor(context)
        events = list(result.asset_events) if isinstance(result, dg.SensorResult) else []
        for event in events:
            instance.report_runless_asset_event(event)
        return [e.tags["dagster/data_version"] for e in events]

    def table4_status():
        graph = defs.resolve_asset_graph()
        resolver = CachingStaleStatusResolver(instance, graph, LoadingContextForTest(instance))
        return resolver.get_status(human_agreement.key)

    assert tick() == [judgments_version(mmeb_home)]
    assert tick() == []  # unchanged: nothing recorded
    assert dg.materialize([human_agreement], instance=instance, resources={
        "storage": storage, "io_manager": PydanticJsonIOManager(home=str(mmeb_home))}).success
    assert table4_status() == StaleStatus.FRESH
    conn = db.connect(db.db_path(mmeb_home))
    db.save_judgment(conn, j("x", db.sample(conn)[0].item_id), 0)
    conn.close()
    assert tick() == [judgments_version(mmeb_home)]
    assert table4_status() == StaleStatus.STALE


def test_mmeb_report_prints_table4_beside_the_papers(mmeb_home, capsys):
    import argparse

    from mmeb_assets.evaluation.cli import _cmd_report

    build_home(mmeb_home)
    prepare(mmeb_home, ["x", "y"], SampleConfig(n_accepted=50, n_rejected=50, seed=0))
    conn = db.connect(db.db_path(mmeb_home))
    rows = db.sample(conn)
    db.save_judgment(conn, j("x", rows[0].item_id), 0)
    db.save_judgment(conn, j("y", rows[0].item_id), 0)
    db.save_judgment(conn, j("x", rows[1].item_id), 0)
    conn.close()
    assert _materialize(mmeb_home).success
    reports = mmeb_home / "evaluation" / "reports"
    reports.mkdir(parents=True)
    (reports / "leaderboard.md").write_text("# Leaderboard\n")
    assert _cmd_report(argparse.Namespace(dir=None, csv=None, table="4")) == 0
    out = capsys.readouterr().out
    assert "Table 4 (human validation): this build, 2 of 8 sampled items judged" in out
    assert "1-2 reviewers per item" in out and "| Accepted | 50 | 50 (100%) | 0 (0%) |" in out
