"""Records stage on the hand-built sample project: checks, files read back, determinism, conflicts."""
from __future__ import annotations

import json
from pathlib import Path

import dagster as dg
import pymupdf
import pytest
from PIL import Image
from pptx import Presentation

from mmeb_assets.records import checks as C
from mmeb_assets.records.content import expected_doc_values
from mmeb_assets.records.headers import contains_value
from mmeb_assets.records.render import render_records
from mmeb_assets.records.sample import PIXEL_ONLY, sample_inputs
from mmeb_assets.records.stats import workspace_stats

SEED = "aurora-retrieval"


def _render(root: Path, seed: int = 7):
    project = root / "projects" / SEED
    project.mkdir(parents=True, exist_ok=True)
    facts, org, plan = sample_inputs(SEED, project)
    return render_records(facts, org, plan, project, random_seed=seed), facts, org, plan, project


@pytest.fixture()
def rendered(tmp_path):
    return _render(tmp_path)


def test_generated_records_pass_every_check(rendered):
    rs, facts, org, plan, project = rendered
    findings = C.all_findings(rs, facts, org, plan, project)
    assert findings == {k: [] for k in findings}
    assert 200 <= len(rs.records) <= 275
    lines = (project / "records.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(rs.records)
    assert json.loads(lines[0])["id"] == rs.records[0].id
    assert {r.source for r in rs.records} >= {"slack", "email", "notion", "meeting", "log", "txt", "pdf_page",
                                              "slide", "image"}


def test_same_seed_gives_identical_bytes_and_another_seed_another_week(tmp_path):
    a = _render(tmp_path / "a")[4]
    b = _render(tmp_path / "b")[4]
    assert (a / "records.jsonl").read_bytes() == (b / "records.jsonl").read_bytes()
    for rel in ("docs/report_v1.pdf", "docs/deck_v2.pptx", "pages/report_v2_p03.png", "images/chart_recall_v1.png"):
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel
    c = _render(tmp_path / "c", seed=8)[4]
    assert (a / "records.jsonl").read_bytes() != (c / "records.jsonl").read_bytes()


def test_every_channel_event_has_one_message_with_actor_and_time(rendered):
    rs, facts, org, plan, project = rendered
    channels = {c.id for c in org.channels}
    for event in plan.events:
        if event.where in channels:
            msgs = [r for r in rs.records if r.source == "slack" and event.id in r.event_ids]
            assert len(msgs) == 1
            assert (msgs[0].author, msgs[0].timestamp, msgs[0].channel) == (event.actor, event.time, event.where)
            assert msgs[0].text.startswith(f"[Slack #{event.where}]") or event.where.startswith("dm-")


def test_correction_is_explicit_wrong_to_right(rendered):
    rs, _, _, plan, _ = rendered
    err = plan.errors[0]
    fix = next(e for e in plan.events if e.kind == "correction" and err.id in e.refs)
    text = next(r.text for r in rs.records if fix.id in r.event_ids)
    assert f"{err.wrong_value} -> {err.correct_value}" in text


def test_planted_bad_records_fail_the_checks(rendered):
    rs, facts, org, plan, project = rendered
    slack = [r for r in rs.records if r.source == "slack" and r.event_ids and r.channel == "aurora-leads"]
    bad = slack[0].model_copy(update={"author": "leo"})  # leo is not in #aurora-leads
    records = [bad if r.id == bad.id else r for r in rs.records]
    broken = rs.model_copy(update={"records": records})
    assert any("not a member" in f for f in C.check_speakers(broken, org))
    assert any("planned" in f for f in C.check_event_messages(broken, org, plan))

    leak = rs.records[5].model_copy(update={"text": rs.records[5].text + f" peak {PIXEL_ONLY}"})
    leaked = rs.model_copy(update={"records": [leak if r.id == leak.id else r for r in rs.records]})
    assert any(PIXEL_ONLY in f for f in C.check_pixel_only(leaked, facts, plan))

    gone = next(r for r in rs.records if r.source == "slack" and r.event_ids)
    missing = rs.model_copy(update={"records": [r for r in rs.records if r.id != gone.id]})
    assert any(gone.event_ids[0] in f for f in C.check_event_messages(missing, org, plan))

    joiner = org.person(org.late_joiner_id)
    early = next(r for r in rs.records if r.timestamp < joiner.joined_at)
    peek = early.model_copy(update={"access": [*early.access, joiner.id]})
    peeked = rs.model_copy(update={"records": [peek if r.id == peek.id else r for r in rs.records]})
    assert any("joined at" in f for f in C.check_access(peeked, org))


def test_pdf_pptx_png_open_back(rendered):
    rs, _, _, plan, project = rendered
    v2 = next(d for d in plan.documents if d.id == "report_v2")
    with pymupdf.open(project / "docs/report_v2.pdf") as doc:
        text = "\n".join(p.get_text() for p in doc)
        assert len(doc) == sum(1 for r in rs.records if r.doc_id == "report_v2" and r.source == "pdf_page")
    for value in expected_doc_values(plan, v2):
        assert contains_value(text, value)
    with pymupdf.open(project / "docs/report_v1.pdf") as doc:
        text1 = "\n".join(p.get_text() for p in doc)
    assert "pending" in text1.lower() and "79.2" in text1 and not contains_value(text1, "83.5")
    deck = Presentation(str(project / "docs/deck_v2.pptx"))
    slide_recs = [r for r in rs.records if r.doc_id == "deck_v2" and r.source == "slide"]
    assert len(deck.slides) == len(slide_recs)
    assert "83.5" in "\n".join(r.pixel_text for r in slide_recs)   # drawn on the slide (issue 27)
    assert "83.5" not in "\n".join(r.text for r in slide_recs)     # and not in its stored text
    for r in slide_recs:
        with Image.open(project / r.image_path) as img:
            assert img.size == (1280, 720)
        assert "pillow-slide-renderer" in r.provenance.generator or "libreoffice" in r.provenance.generator
    page = next(r for r in rs.records if r.source == "pdf_page")
    with Image.open(project / page.image_path) as img:
        assert abs(img.size[0] - 827) <= 2 and abs(img.size[1] - 1170) <= 2


def _cut(path: Path, keep: float = 0.6) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:int(len(data) * keep)])


def test_truncated_or_missing_files_fail_the_files_check(rendered):
    """The files check reads each PNG, PDF and PPTX by its size and ends: a file cut short or gone fails."""
    rs, _, _, plan, project = rendered
    assert C.check_files(rs, plan, project) == []
    page = next(r for r in rs.records if r.source == "pdf_page")
    image = next(r for r in rs.records if r.source == "image")
    slide = next(r for r in rs.records if r.source == "slide")
    _cut(project / page.filename)
    _cut(project / image.image_path)
    _cut(project / slide.filename)
    found = "\n".join(C.check_files(rs, plan, project))
    assert f"{page.filename}: PDF does not open (truncated PDF" in found
    assert f"{image.id}: image {image.image_path} does not open (truncated PNG" in found
    assert f"{slide.filename}: PPTX does not open (truncated PPTX" in found
    (project / page.image_path).unlink()
    assert f"{page.id}: image {page.image_path} does not open (missing)" in "\n".join(C.check_files(rs, plan, project))


def test_a_page_or_slide_too_many_fails_the_files_check(rendered):
    rs, _, _, plan, project = rendered
    page = next(r for r in rs.records if r.source == "pdf_page")
    slide = next(r for r in rs.records if r.source == "slide")
    extra = [page.model_copy(update={"id": page.id + "x"}), slide.model_copy(update={"id": slide.id + "x"})]
    found = "\n".join(C.check_files(rs.model_copy(update={"records": [*rs.records, *extra]}), plan, project))
    assert f"{page.filename}: " in found and "page records" in found
    assert f"{slide.filename}: " in found and "slide records" in found


def test_slack_correction_while_notion_still_shows_old_value(rendered):
    rs, _, _, plan, _ = rendered
    found = []
    for err in plan.errors:
        fix = next((r for r in rs.records if r.source == "slack" and contains_value(r.text, err.correct_value)
                    and contains_value(r.text, err.wrong_value) and r.timestamp >= err.fixed_at), None)
        if fix is None:
            continue
        stale = [r for r in rs.records if r.source == "notion" and contains_value(r.text, err.wrong_value)
                 and r.timestamp <= fix.timestamp]
        later = [r for r in rs.records if r.source == "notion" and contains_value(r.text, err.correct_value)
                 and r.timestamp > fix.timestamp]
        if stale and later:
            found.append(err.id)
    assert found, "no value corrected in Slack while Notion still shows the old one"


def test_fact_with_three_versions_recoverable_by_time(rendered):
    rs, _, _, plan, _ = rendered
    fact = next(f for f in plan.evolving_facts if len(f.versions) >= 3)
    for version in fact.versions:
        said = [r for r in rs.records if r.source == "slack" and r.timestamp == version.time
                and contains_value(r.text, version.value)]
        assert said, version
    notion = [r for r in rs.records if r.doc_key == f"fact:{fact.id}"]
    assert [r.version for r in notion] == list(range(1, len(fact.versions) + 1))
    assert all(n.supersedes == o.id for o, n in zip(notion, notion[1:]))


def test_late_joiner_and_restricted_channels(rendered):
    rs, _, org, _, _ = rendered
    joiner = org.person(org.late_joiner_id)
    assert all(joiner.id not in r.access for r in rs.records if r.timestamp < joiner.joined_at)
    assert any(joiner.id in r.access for r in rs.records if r.timestamp >= joiner.joined_at)
    welcome = [r for r in rs.records if r.source == "email" and joiner.email in r.recipients]
    assert welcome and "Welcome" in welcome[0].text
    leads = set(org.channel("aurora-leads").members)
    assert all(set(r.access) <= leads for r in rs.records if r.channel == "aurora-leads")


def test_workspace_stats_shape(rendered):
    rs = rendered[0]
    stats = workspace_stats([rs])
    assert list(stats.text) == ["Slack messages", "Notion entries", "Email", "Meeting notes", "TXT / LOG"]
    assert list(stats.visual) == ["PDF pages", "Standalone images", "Slides"]
    assert stats.retrieval_records == len(rs.records) == stats.textual_records + stats.visual_records
    assert stats.versions_by_kind["PDFs"] == 1 and stats.versions_by_kind["presentations"] == 1
    assert stats.tokens_total > 1000


def _write_upstream(home: Path, facts, org, plan) -> None:
    folder = home / "projects" / SEED
    for name, obj in (("source_facts", facts), ("organization", org), ("event_plan", plan)):
        envelope = {"model": f"{type(obj).__module__}.{type(obj).__qualname__}", "data": obj.model_dump(mode="json")}
        (folder / f"{name}.json").write_text(json.dumps(envelope), encoding="utf-8")


def test_dagster_assets_and_checks_materialize(mmeb_home):
    from mmeb_assets.records.assets import ASSETS, CHECKS
    from mmeb_resources.io_manager import PydanticJsonIOManager
    from mmeb_resources.llm import LLMResource
    from mmeb_resources.storage import StorageResource

    project = mmeb_home / "projects" / SEED
    project.mkdir(parents=True)
    _write_upstream(mmeb_home, *sample_inputs(SEED, project))
    from mmeb_assets.partitions import seed_partitions_def

    upstream = [dg.AssetSpec(name, partitions_def=seed_partitions_def)
                for name in ("source_facts", "organization", "event_plan")]
    result = dg.materialize([*upstream, *ASSETS, *CHECKS], partition_key=SEED, resources={
        "storage": StorageResource(), "io_manager": PydanticJsonIOManager(), "llm": LLMResource()})
    assert result.success
    evaluations = result.get_asset_check_evaluations()
    assert len(evaluations) == len(CHECKS) and all(e.passed for e in evaluations)
    assert (project / "records.jsonl").exists() and (project / "workspace_stats.json").exists()


def test_bad_input_names_the_field(tmp_path):
    from mmeb_assets.records.render import RecordsInputError

    project = tmp_path / "projects" / SEED
    project.mkdir(parents=True)
    facts, org, plan = sample_inputs(SEED, project)
    broken = plan.model_copy(update={"events": [plan.events[0].model_copy(update={"actor": "nobody"})]})
    with pytest.raises(RecordsInputError, match=r"events\[.*\]\.actor: unknown person 'nobody'"):
        render_records(facts, org, broken, project, random_seed=1)


def test_corpus_stats_over_partitions(mmeb_home):
    """The unpartitioned Table 3 (b) asset reads every seed's records that exist."""
    from mmeb_assets.partitions import seed_partitions_def
    from mmeb_assets.records.assets import workspace_stats_corpus
    from mmeb_resources.io_manager import PydanticJsonIOManager

    rs = _render(mmeb_home)[0]
    envelope = {"model": "mmeb_assets.schema.records.RecordSet", "data": rs.model_dump(mode="json")}
    (mmeb_home / "projects" / SEED / "records.json").write_text(json.dumps(envelope), encoding="utf-8")
    upstream = dg.AssetSpec("records", partitions_def=seed_partitions_def)
    result = dg.materialize([upstream, workspace_stats_corpus], resources={"io_manager": PydanticJsonIOManager()})
    assert result.success
    stats = json.loads((mmeb_home / "benchmark" / "workspace_stats_corpus.json").read_text())["data"]
    assert stats["projects"] == [SEED] and stats["retrieval_records"] == len(rs.records)


def test_trim_drops_only_derived_extras(tmp_path):
    from datetime import datetime

    from mmeb_assets.records.context import Draft, RenderContext
    from mmeb_assets.records.render import _trim_extras

    project = tmp_path / "p"
    facts, org, plan = sample_inputs(SEED, project)
    ctx = RenderContext(facts=facts, org=org, plan=plan, project_dir=project, random_seed=1)
    when = datetime(2026, 8, 24, 10)
    ctx.drafts = [Draft(source="slack", timestamp=when, text="[x]", event_ids=[f"ev{n}"]) for n in range(5)]
    ctx.drafts += [Draft(source="image", timestamp=when, text="[s]", optional=3),
                   Draft(source="notion", timestamp=when, text="[e]", optional=2)]
    _trim_extras(ctx, 6)
    assert [d.source for d in ctx.drafts] == ["slack"] * 5 + ["notion"]
    _trim_extras(ctx, 3)
    assert len(ctx.drafts) == 5 and all(d.event_ids for d in ctx.drafts)


def test_cli_renders_a_project_folder(mmeb_home, capsys):
    from mmeb_assets.cli import main
    from mmeb_resources.storage import atomic_write_json

    project = mmeb_home / "projects" / SEED
    project.mkdir(parents=True)
    facts, org, plan = sample_inputs(SEED, project)
    for name, obj in (("source_facts", facts), ("organization", org), ("event_plan", plan)):
        atomic_write_json(project / f"{name}.json", obj)
    assert main(["records", str(project)]) == 0
    out = capsys.readouterr().out
    assert "| Text | Slack messages |" in out and "event_messages: ok" in out
    assert (project / "records.jsonl").exists()
    (project / "event_plan.json").write_text("{}", encoding="utf-8")
    assert main(["records", str(project)]) == 2


def test_chart_titles_say_what_the_bars_are():
    """A year column of an analysis table is no 'run' ('2023 by run' was drawn on the demo's emissions chart)."""
    from datetime import datetime

    from mmeb_assets.records.content import chart_title
    from mmeb_assets.schema.workspace import PlanItem

    def item(kind: str) -> PlanItem:
        return PlanItem(id=kind, kind=kind, label="x", owner="o", completed_at=datetime(2026, 3, 2))

    assert chart_title("2023", [item("analysis"), item("analysis")]) == "Values for 2023 by item"
    assert chart_title("Recall@10", [item("progression"), item("release")]) == "Recall@10 by run"
    assert chart_title("Cost (EUR m)", [item("analysis")]) == "Cost (EUR m) by item"
    assert chart_title("2023", [item("analysis"), item("release")]) == "Values for 2023 by item"  # demo's total row
    from mmeb_assets.records.chart_units import unit_suffix
    title = chart_title("Emissions in 2023 (kt CO2e)", [item("analysis")])
    assert title + unit_suffix("kt CO2e", title) == "Emissions in 2023 (kt CO2e) by item"  # the unit said once
    assert unit_suffix("kt CO2e", "Values for 2023 by item") == " (kt CO2e)"


@pytest.mark.parametrize("text,value,found", [
    ("evaluation sample = 3,250 queries", "250", False),  # a pixel-only '250' is not in '3,250'
    ("evaluation sample = 250 queries", "250", True),
    ("we kept 12, 250 were dropped", "250", True),
    ("a mean of 250.5", "250", False),
    ("ratio 1.250", "250", False),
])
def test_a_value_is_found_only_as_a_whole_number(text, value, found):
    from mmeb_assets.records.headers import scrub_value

    assert contains_value(text, value) is found
    assert (scrub_value(text, value, "X") != text) is found


def test_a_pending_value_inside_a_quoted_seed_caption_is_no_leak(monkeypatch):
    """futoma2017 (scipdf_parser's example paper): the report reprints the seed's Figure 3 caption, 'For a
    fixed sensitivity of 80%, ...'; the pending result's '80%' there is the seed's sentence. The same value
    anywhere else in the report is still a leak."""
    from mmeb_assets.records import checks_files

    monkeypatch.setattr(checks_files, "expected_doc_values", lambda plan, doc: [])
    monkeypatch.setattr(checks_files, "pending_only_values", lambda plan, doc: ["80%"])
    caption = "Figure 3: Right: For a fixed sensitivity of 80%, the number of false alarms per true alarm."
    quoted_only = f"Analysis: results {caption} Operations and decisions"
    assert checks_files._value_findings(quoted_only, None, None, "r.pdf", [caption]) == []
    leaked = f"{quoted_only} Run R3 reached 80% recall"
    assert checks_files._value_findings(leaked, None, None, "r.pdf", [caption]) == [
        "r.pdf: value '80%' of a pending result is printed"]


def test_a_workspace_value_sharing_a_figures_digits_is_no_leak(rendered):
    """An unseen paper's figure printed '380'; the simulated GPU budget was '380 GPU-hours'. The budget
    is the workspace's own fact, not the figure's value written out, and failed the whole partition."""
    rs, facts, org, plan, project = rendered
    assert PIXEL_ONLY in C.pixel_only_values(facts, plan)
    fact = plan.evolving_facts[0]
    budget = fact.versions[0].model_copy(update={"value": f"{PIXEL_ONLY} GPU-hours"})
    same_digits = plan.model_copy(update={"evolving_facts": [
        fact.model_copy(update={"versions": [budget, *fact.versions[1:]]}), *plan.evolving_facts[1:]]})
    assert PIXEL_ONLY not in C.pixel_only_values(facts, same_digits)


def test_a_pending_value_printed_inside_a_row_label_is_not_a_leak():
    """read6's wealth paper: a row named 'P60-P70 (1.5)' prints '1.5', which a pending row also holds."""
    from mmeb_assets.records.content import pending_only_values
    from tests.generated_projects import planned_projects

    for project in planned_projects(8):
        plan = project.plan
        doc = next((d for d in plan.documents if pending_only_values(plan, d)), None)
        if doc is None:
            continue
        value = pending_only_values(plan, doc)[0]
        other = next(i for i in plan.items if i.id not in doc.pending_item_ids)
        relabelled = [i.model_copy(update={"label": f"P60-P70 ({value})"}) if i.id == other.id else i
                      for i in plan.items]
        assert value not in pending_only_values(plan.model_copy(update={"items": relabelled}), doc)
        return
    pytest.skip("no generated document lists a pending result")
