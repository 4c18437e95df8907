"""A small hand-built project (SourceFacts, Organization, EventPlan) for tests and previews.

Stands in for the ingestion and simulation stages when they are not available; it follows the
schema contract exactly, so the renderers see the same shapes the real generators produce.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from PIL import Image, ImageDraw

from mmeb_assets.provenance import make_provenance
from mmeb_assets.schema.source import (
    Claim, ConfigFact, Figure, SourceFacts, Table, TextualExtraction, VisualExtraction, VisualFact,
)
from mmeb_assets.schema.workspace import (
    Channel, Customer, Decision, DocumentPlan, Event, EventPlan, EvolvingFact, FactVersion,
    InventedFact, Milestone, Organization, Person, PlanItem, ScriptedError,
)

T0 = datetime(2026, 8, 24, 9, 0)
PIXEL_ONLY = "0.734"


def _t(day: int, hour: int, minute: int = 0) -> datetime:
    return T0.replace(hour=0) + timedelta(days=day, hours=hour, minutes=minute)


def sample_facts(seed_id: str, project_dir: Path) -> SourceFacts:
    fig_path = project_dir / "seed_figures" / "figure_1.png"
    if not fig_path.exists():
        fig_path.parent.mkdir(parents=True, exist_ok=True)
        img = Image.new("RGB", (480, 320), "white")
        draw = ImageDraw.Draw(img)
        for i, h in enumerate((120, 180, 230)):
            draw.rectangle([60 + i * 130, 300 - h, 140 + i * 130, 300], fill=(70, 110, 170))
        draw.text((200, 20), PIXEL_ONLY, fill="black")
        img.save(fig_path, format="PNG")
    prov = make_provenance(seed_id, "source_facts", "rules")
    table = Table(id="table_1", number=1, caption="Table 1: Retrieval quality on the ticket benchmark.",
                  page=4, header=["Method", "Recall@10", "MRR"],
                  rows=[["BM25", "61.4", "0.412"], ["Dense", "72.9", "0.538"],
                        ["Aurora", "81.2", "0.611"], ["Aurora + rerank", "83.5", "0.640"]],
                  extractor="generator")
    ablation = Table(id="table_2", number=2, caption="Table 2: Ablation of the interaction layer.", page=5,
                     header=["Variant", "Recall@10"], rows=[["no late interaction", "75.0"], ["full", "81.2"]],
                     extractor="generator")
    return SourceFacts(
        seed_id=seed_id, provenance=prov, title="Aurora: Late-Interaction Retrieval for Support Tickets",
        domain="Information retrieval",
        textual=TextualExtraction(
            method_name="Aurora", one_sentence="Aurora ranks support tickets with late interaction.",
            task_summary="Retrieve the past tickets that resolve a new support request.",
            components=["query encoder", "ticket encoder", "late-interaction scorer"],
            config_facts=[ConfigFact(name="embedding size", value="768"), ConfigFact(name="batch size", value="64")],
            claims=[Claim(text="Aurora reaches 81.2 Recall@10.", value_strings=["81.2"], label="Recall@10 of Aurora")],
            pipeline_steps=["encode the ticket", "score candidates token by token", "rerank the top 100"]),
        visual=[VisualExtraction(figure_id="figure_1", description="Bar chart of recall by model size.",
                                 image_only_facts=[VisualFact(fact="value printed above the tallest bar", value=PIXEL_ONLY)],
                                 text_labels=["small", "base", "large"], key_numbers=[PIXEL_ONLY])],
        tables=[table, ablation],
        figures=[Figure(id="figure_1", number=1, caption="Figure 1: Recall by model size.", page=3,
                        image_path="seed_figures/figure_1.png")],
    )


PEOPLE = [
    ("maya", "Maya Draper", "research lead", "method and evaluation", "warm, encouraging, uses emoji"),
    ("leo", "Leo Okafor", "ML engineer", "training runs", "terse, lowercase, numbers first"),
    ("sana", "Sana Iqbal", "data scientist", "benchmarks and analysis", "precise and formal"),
    ("tom", "Tom Reyes", "product manager", "customer and milestones", "friendly and upbeat"),
    ("ines", "Ines Ferreira", "infrastructure engineer", "serving and cost", "short and blunt"),
    ("ivy", "Ivy Chen", "analyst (joins mid-week)", "report checks", "careful, asks questions"),
]


def sample_org(seed_id: str) -> Organization:
    people = [Person(id=i, name=n, role=r, owns=o, voice=v, email=f"{i}@northwind-labs.example")
              for i, n, r, o, v in PEOPLE]
    people[-1] = people[-1].model_copy(update={"joined_at": _t(3, 9)})
    everyone = [p.id for p in people]
    channels = [
        Channel(id="general", purpose="company-wide notes", members=everyone, access="public"),
        Channel(id="aurora-results", purpose="runs and numbers", members=everyone, access="public"),
        Channel(id="aurora-leads", purpose="planning among leads", members=["maya", "tom", "sana"], access="restricted"),
        Channel(id="dm-leo-sana", purpose="direct messages", members=["leo", "sana"], access="dm"),
    ]
    return Organization(
        seed_id=seed_id, provenance=make_provenance(seed_id, "organization", "rules"),
        archetype="research_lab", archetype_reason="the seed is a method paper with benchmark tables",
        company_name="Northwind Labs", tagline="search that reads tickets", product="Helpdesk Search",
        project_codename="Aurora", project_sentence="ship late-interaction ticket search",
        internal_model_name="Kestrel", customer=Customer(name="Meridian Support", contact="Dana Whitlock",
                                                         email="dana@meridian-support.example"),
        milestone_a=Milestone(name="internal quality review", due=_t(4, 17), kind="internal"),
        milestone_b=Milestone(name="Meridian pilot hand-off", due=_t(6, 12), kind="external"),
        people=people, channels=channels, late_joiner_id="ivy", lead_id="maya", pm_id="tom",
        report_author_id="sana", window_start=_t(0, 9), window_end=_t(6, 18),
    )


def _items() -> list[PlanItem]:
    spec = [("run_01", "baseline", "BM25 baseline", "leo", 0), ("run_02", "progression", "dense retriever", "leo", 1),
            ("run_03", "release", "Kestrel release candidate", "sana", 2), ("run_04", "analysis", "reranked Kestrel", "sana", 4)]
    rows = sample_table_rows()
    return [PlanItem(id=i, kind=k, label=lab, owner=o, completed_at=_t(d, 11), dataset="ticket benchmark",
                     table_id="table_1", row_index=n, values={"Recall@10": rows[n][1], "MRR": rows[n][2]})
            for n, (i, k, lab, o, d) in enumerate(spec)]


def sample_table_rows() -> list[list[str]]:
    return [["BM25", "61.4", "0.412"], ["Dense", "72.9", "0.538"], ["Aurora", "81.2", "0.611"],
            ["Aurora + rerank", "83.5", "0.640"]]


def sample_plan(seed_id: str, org: Organization) -> EventPlan:
    items = _items()
    invented = [InventedFact(id="inv_01", name="p95 query latency", value="142", unit="ms", owner="ines",
                             channel="aurora-results", time=_t(2, 15), rationale="serving budget"),
                InventedFact(id="inv_02", name="index build time", value="38", unit="minutes", owner="ines",
                             channel="general", time=_t(3, 10), rationale="nightly refresh")]
    errors = [ScriptedError(id="err_01", kind="swapped_digits", target="run_02:Recall@10", correct_value="72.9",
                            wrong_value="79.2", slipped_by="leo", slipped_at=_t(1, 11), slip_channel="aurora-results",
                            noticed_by="sana", noticed_at=_t(1, 14), notice_channel="dm-leo-sana",
                            fixed_at=_t(1, 16), fix_channel="aurora-results"),
              ScriptedError(id="err_02", kind="wrong_unit", target="inv_01", correct_value="142 ms",
                            wrong_value="142 s", slipped_by="ines", slipped_at=_t(2, 15, 30),
                            slip_channel="aurora-results", noticed_by="maya", noticed_at=_t(2, 16),
                            notice_channel="aurora-results", fixed_at=_t(2, 16, 20), fix_channel="aurora-results")]
    decisions = [Decision(id="dec_01", title="ship the reranker", body="Ship reranked Kestrel at 83.5 Recall@10.",
                          rationale="the rerank step adds quality at an acceptable latency of 142 ms",
                          decided_by="maya", time=_t(4, 15), channel="aurora-leads", cites=["83.5", "142 ms"])]
    evolving = [EvolvingFact(id="evo_01", kind="deadline", subject="customer acceptance checklist deadline", versions=[
                    FactVersion(value="Tue Sep 1 18:00", time=_t(1, 10), channel="aurora-leads", speaker="tom",
                                note="first date from the customer", cause="initial"),
                    FactVersion(value="Tue Sep 1 20:00", time=_t(2, 10), channel="aurora-leads", speaker="tom",
                                note="customer moved the review", cause="change"),
                    FactVersion(value="Wed Sep 2 18:00", time=_t(5, 10), channel="general", speaker="tom",
                                note="customer asked for one more day", cause="change")]),
                EvolvingFact(id="evo_02", kind="owner", subject="acceptance trace pack owner", versions=[
                    FactVersion(value="Leo Okafor", time=_t(1, 9, 30), channel="general", speaker="maya",
                                note="initial owner", cause="initial"),
                    FactVersion(value="Sana Iqbal", time=_t(3, 9, 20), channel="general", speaker="maya",
                                note="Leo is on training runs", cause="change")])]
    return EventPlan(seed_id=seed_id, provenance=make_provenance(seed_id, "event_plan", "rules"),
                     window_start=org.window_start, window_end=org.window_end, items=items, invented=invented,
                     errors=errors, decisions=decisions, evolving_facts=evolving, documents=_documents(),
                     events=_events(items, invented, errors, decisions, evolving))


def _documents() -> list[DocumentPlan]:
    return [
        DocumentPlan(id="report_v1", doc_key="report", kind="report", version=1, title="Kestrel evaluation report",
                     author="sana", time=_t(1, 15), reflects_corrections=False, item_ids=["run_01", "run_02"],
                     pending_item_ids=["run_03", "run_04"], error_ids_shown_wrong=["err_01"], figure_ids=["figure_1"]),
        DocumentPlan(id="report_v2", doc_key="report", kind="report", version=2, title="Kestrel evaluation report",
                     author="sana", time=_t(4, 17), reflects_corrections=True,
                     item_ids=["run_01", "run_02", "run_03", "run_04"], figure_ids=["figure_1"]),
        DocumentPlan(id="deck_v1", doc_key="deck", kind="deck", version=1, title="Kestrel review deck", author="maya",
                     time=_t(2, 17), reflects_corrections=True, item_ids=["run_01", "run_02", "run_03"],
                     pending_item_ids=["run_04"]),
        DocumentPlan(id="deck_v2", doc_key="deck", kind="deck", version=2, title="Kestrel review deck", author="maya",
                     time=_t(5, 16), reflects_corrections=True, item_ids=["run_01", "run_02", "run_03", "run_04"]),
        DocumentPlan(id="tracker_v1", doc_key="tracker", kind="notion_tracker", version=1, title="Run tracker",
                     author="leo", time=_t(1, 12), reflects_corrections=False, item_ids=["run_01", "run_02"],
                     error_ids_shown_wrong=["err_01"]),
        DocumentPlan(id="tracker_v2", doc_key="tracker", kind="notion_tracker", version=2, title="Run tracker",
                     author="sana", time=_t(3, 18), reflects_corrections=True,
                     item_ids=["run_01", "run_02", "run_03"]),
        DocumentPlan(id="chart_v1", doc_key="chart_recall", kind="chart_image", version=1,
                     title="Recall@10 by run", author="leo", time=_t(1, 11, 5), reflects_corrections=False,
                     item_ids=["run_01", "run_02"], error_ids_shown_wrong=["err_01"]),
        DocumentPlan(id="chart_v2", doc_key="chart_recall", kind="chart_image", version=2,
                     title="Recall@10 by run", author="leo", time=_t(1, 16, 5), reflects_corrections=True,
                     item_ids=["run_01", "run_02"]),
        DocumentPlan(id="table_img_v1", doc_key="table_mrr", kind="table_image", version=1, title="MRR by run",
                     author="sana", time=_t(2, 12), reflects_corrections=True, item_ids=["run_01", "run_02", "run_03"]),
        DocumentPlan(id="fig_1", doc_key="figure_1", kind="seed_figure", version=1, title="Recall by model size",
                     author="maya", time=_t(2, 9, 40), reflects_corrections=True, figure_ids=["figure_1"]),
        DocumentPlan(id="log_01", doc_key="runlog_03", kind="run_log", version=1, title="run_03 training log",
                     author="sana", time=_t(2, 11, 10), reflects_corrections=True, item_ids=["run_03"]),
    ]


def _events(items, invented, errors, decisions, evolving) -> list[Event]:
    ev: list[Event] = []

    def add(time, actor, kind, where, summary, must=(), mnot=(), refs=(), recipients=(), attachment=None):
        ev.append(Event(id=f"ev_{len(ev) + 1:03d}", time=time, actor=actor, kind=kind, where=where,
                        summary=summary, must_contain=list(must), must_not_contain=list(mnot), refs=list(refs),
                        recipients=list(recipients), attachment=attachment))

    add(_t(0, 9, 10), "maya", "status_update", "general", "Maya kicks off the week", refs=[])
    add(_t(0, 9, 40), "tom", "customer_email", "email", "Tom confirms the pilot scope with the customer",
        recipients=["customer"])
    for it in items:
        when = it.completed_at
        if it.id == "run_02":
            continue
        add(when, it.owner, "result_posted", "aurora-results", f"{it.owner} posts {it.label}",
            must=[it.values["Recall@10"], it.values["MRR"]], refs=[it.id])
    e1, e2 = errors
    add(e1.slipped_at, "leo", "error_slipped", "aurora-results", "Leo posts the dense retriever result",
        must=[e1.wrong_value, "0.538"], refs=["run_02", e1.id])
    add(_t(1, 11, 5), "leo", "document_posted", "aurora-results", "Leo shares the recall chart",
        mnot=[e1.wrong_value], refs=["chart_v1"], attachment="chart_v1")
    add(e1.noticed_at, "sana", "error_noticed", "dm-leo-sana", "Sana spots a digit swap",
        must=[e1.wrong_value], refs=[e1.id])
    add(e1.fixed_at, "leo", "correction", "aurora-results", "Leo corrects the dense recall",
        must=[e1.wrong_value, e1.correct_value], refs=[e1.id])
    add(_t(1, 16, 5), "leo", "document_posted", "aurora-results", "Leo reposts the fixed chart",
        refs=["chart_v2"], attachment="chart_v2")
    add(_t(1, 12), "leo", "notion_update", "notion", "tracker v1", refs=["tracker_v1"], attachment="tracker_v1")
    add(_t(1, 15), "sana", "document_posted", "general", "Sana shares report v1", refs=["report_v1"],
        attachment="report_v1")
    add(e2.slipped_at, "ines", "error_slipped", "aurora-results", "Ines posts latency",
        must=[e2.wrong_value], refs=[e2.id, "inv_01"])
    add(e2.noticed_at, "maya", "error_noticed", "aurora-results", "Maya questions the unit",
        must=[e2.wrong_value], refs=[e2.id])
    add(e2.fixed_at, "ines", "correction", "aurora-results", "Ines fixes the unit",
        must=[e2.wrong_value, e2.correct_value], refs=[e2.id])
    for inv in invented:
        if inv.id != "inv_01":
            add(inv.time, inv.owner, "invented_fact", inv.channel, f"{inv.owner} reports {inv.name}",
                must=[f"{inv.value} {inv.unit}"], refs=[inv.id])
    for fact in evolving:
        for n, ver in enumerate(fact.versions):
            add(ver.time, ver.speaker, "fact_update", ver.channel, f"{fact.subject} is set",
                must=[ver.value], refs=[fact.id])
    for d in decisions:
        add(d.time, d.decided_by, "decision", d.channel, d.title, must=d.cites, refs=[d.id])
    _later_events(add)
    return sorted(ev, key=lambda e: (e.time, e.id))


def _later_events(add) -> None:
    add(_t(2, 9, 40), "maya", "document_posted", "aurora-results", "Maya shares the size figure",
        mnot=["0.734"], refs=["fig_1"], attachment="fig_1")
    add(_t(2, 11, 10), "sana", "log_written", "files", "run_03 log written", refs=["log_01"], attachment="log_01")
    add(_t(2, 12), "sana", "document_posted", "aurora-results", "Sana shares the MRR table image",
        mnot=["0.611"], refs=["table_img_v1"], attachment="table_img_v1")
    add(_t(2, 17), "maya", "document_posted", "aurora-leads", "Maya shares deck v1", refs=["deck_v1"],
        attachment="deck_v1")
    add(_t(3, 9, 5), "tom", "welcome", "email", "Tom welcomes Ivy", recipients=["ivy"])
    add(_t(3, 9, 30), "ivy", "status_update", "general", "Ivy says hello")
    add(_t(3, 18), "sana", "notion_update", "notion", "tracker v2", refs=["tracker_v2"], attachment="tracker_v2")
    add(_t(3, 14), "tom", "meeting", "meeting", "mid-week sync", recipients=["maya", "sana", "leo", "tom"],
        refs=["run_03", "err_01"])
    add(_t(4, 17), "sana", "document_posted", "general", "Sana shares report v2", refs=["report_v2"],
        attachment="report_v2")
    add(_t(5, 9), "tom", "customer_email", "email", "Tom sends the pilot status to the customer",
        must=["83.5"], recipients=["customer"], refs=["run_04"])
    add(_t(5, 16), "maya", "document_posted", "aurora-leads", "Maya shares deck v2", refs=["deck_v2"],
        attachment="deck_v2")
    add(_t(5, 15), "tom", "meeting", "meeting", "pilot readiness review", recipients=["maya", "sana", "tom", "ivy"],
        refs=["dec_01", "evo_01"])
    for day in range(7):
        add(_t(day, 17, 45), ["maya", "tom", "sana", "leo", "ines", "maya", "tom"][day], "status_update",
            "general", "end of day status")


def sample_inputs(seed_id: str, project_dir: Path) -> tuple[SourceFacts, Organization, EventPlan]:
    org = sample_org(seed_id)
    return sample_facts(seed_id, project_dir), org, sample_plan(seed_id, org)
