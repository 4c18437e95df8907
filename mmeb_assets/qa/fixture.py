"""A tiny hand-built project (organization, event plan, records) for tests and offline development.

It has what the QA families need: table rows posted in Slack, one scripted error corrected in Slack
while a Notion tracker still shows the wrong value, a report v1/v2, a chart image whose values live
only in pixels, an evolving deadline with three versions, an owner change, a decision, a welcome
e-mail and an invented measurement.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from mmeb_assets.provenance import make_provenance
from mmeb_assets.schema import (
    Channel, Customer, Decision, DocumentPlan, Event, EventPlan, EvolvingFact, FactVersion, InventedFact,
    Milestone, Organization, Person, PlanItem, Record, RecordSet, ScriptedError,
)

SEED = "fixture-proj"
T0 = datetime(2026, 8, 27, 9, 0)


def t(day: int, hour: int, minute: int = 0) -> datetime:
    return T0 + timedelta(days=day, hours=hour - 9, minutes=minute)


def _prov(stage: str):
    return make_provenance(SEED, stage, "rules")


def fixture_organization() -> Organization:
    people = [
        Person(id="maya", name="Maya Draper", role="research lead", owns="model choice", voice="terse", email="maya@northwind.test"),
        Person(id="omar", name="Omar Haddad", role="project manager", owns="customer plan", voice="warm", email="omar@northwind.test"),
        Person(id="ravi", name="Ravi Patel", role="engineer", owns="evaluation runs", voice="plain", email="ravi@northwind.test"),
        Person(id="lena", name="Lena Brooks", role="analyst", owns="the report", voice="formal", email="lena@northwind.test"),
        Person(id="sofia", name="Sofia Marin", role="new engineer", owns="onboarding", voice="curious",
               email="sofia@northwind.test", joined_at=t(3, 9)),
    ]
    channels = [
        Channel(id="results", purpose="run results", members=["maya", "omar", "ravi", "lena"], access="public"),
        Channel(id="planning", purpose="deadlines and owners", members=["maya", "omar", "ravi", "lena", "sofia"], access="public"),
        Channel(id="dm-maya-ravi", purpose="dm", members=["maya", "ravi"], access="dm"),
    ]
    return Organization(
        seed_id=SEED, provenance=_prov("simulation"), archetype="research_lab", archetype_reason="results tables",
        company_name="Northwind Labs", tagline="search that reads", product="Ticket search", project_codename="Kestrel",
        project_sentence="ship a ticket retriever", internal_model_name="KR-1",
        customer=Customer(name="Meridian Support", contact="Samira Brooks", email="samira@meridian.test"),
        milestone_a=Milestone(name="internal review", due=t(3, 17), kind="internal"),
        milestone_b=Milestone(name="customer acceptance", due=t(5, 18), kind="external"),
        people=people, channels=channels, late_joiner_id="sofia", lead_id="maya", pm_id="omar",
        report_author_id="lena", window_start=t(0, 9), window_end=t(6, 18),
    )


ITEMS = [
    ("run_01", "baseline", "lexical baseline", "ravi", t(0, 11), {"Method": "BM25", "nDCG@10": "41.3", "Recall@100": "72.5", "Latency (ms)": "12"}),
    ("run_02", "progression", "dense bi-encoder", "ravi", t(0, 15), {"Method": "Dense", "nDCG@10": "47.9", "Recall@100": "81.0", "Latency (ms)": "35"}),
    ("run_03", "release", "late-interaction retriever with distillation", "maya", t(1, 10), {"Method": "LI+D", "nDCG@10": "52.4", "Recall@100": "86.7", "Latency (ms)": "48"}),
    ("run_04", "analysis", "late-interaction retriever without distillation", "ravi", t(1, 14), {"Method": "LI", "nDCG@10": "50.1", "Recall@100": "85.2", "Latency (ms)": "61"}),
]


def fixture_plan() -> EventPlan:
    items = [PlanItem(id=i, kind=k, label=lab, owner=o, completed_at=w, dataset="TicketBench", table_id="table_1",
                      row_index=n, values=v) for n, (i, k, lab, o, w, v) in enumerate(ITEMS)]
    invented = [InventedFact(id="inv_01", name="annotation throughput", value="140", unit="tickets/hour", owner="lena",
                             channel="results", time=t(2, 9), rationale="measured on the pilot")]
    errors = [ScriptedError(id="err_01", kind="swapped_digits", target="run_03:nDCG@10", correct_value="52.4",
                            wrong_value="54.2", slipped_by="ravi", slipped_at=t(1, 10), slip_channel="results",
                            noticed_by="maya", noticed_at=t(1, 11), notice_channel="dm-maya-ravi",
                            fixed_at=t(1, 12), fix_channel="results")]
    decisions = [Decision(id="dec_01", title="release model choice", body="Ship LI+D at 52.4 nDCG@10.",
                          rationale="best quality within the latency budget; 52.4 vs 50.1", decided_by="maya",
                          time=t(2, 16), channel="results", cites=["52.4", "50.1"])]
    evolving = [
        EvolvingFact(id="ef_01", kind="deadline", subject="customer acceptance checklist deadline", versions=[
            FactVersion(value="Tue Sep 1 18:00", time=t(0, 10), channel="planning", speaker="omar", note="set", cause="initial"),
            FactVersion(value="Tue Sep 1 20:00", time=t(1, 9, 30), channel="planning", speaker="omar", note="typo", cause="correction"),
            FactVersion(value="Wed Sep 2 18:00", time=t(3, 15), channel="planning", speaker="omar", note="customer asked", cause="change"),
        ]),
        EvolvingFact(id="ef_02", kind="owner", subject="acceptance trace pack owner", versions=[
            FactVersion(value="Ravi Patel", time=t(0, 12), channel="planning", speaker="maya", note="set", cause="initial"),
            FactVersion(value="Omar Haddad", time=t(2, 11), channel="planning", speaker="maya", note="load", cause="change"),
        ]),
    ]
    documents = [
        DocumentPlan(id="chart_v1", doc_key="chart", kind="chart_image", version=1, title="Recall@100 by run",
                     author="ravi", time=t(1, 15), reflects_corrections=True, item_ids=["run_01", "run_02", "run_03", "run_04"]),
        DocumentPlan(id="report_v1", doc_key="report", kind="report", version=1, title="Kestrel results report v1",
                     author="lena", time=t(1, 11, 30), reflects_corrections=False, item_ids=["run_01", "run_02", "run_03"],
                     pending_item_ids=["run_04"], error_ids_shown_wrong=["err_01"]),
        DocumentPlan(id="report_v2", doc_key="report", kind="report", version=2, title="Kestrel results report v2",
                     author="lena", time=t(4, 10), reflects_corrections=True, item_ids=["run_01", "run_02", "run_03", "run_04"]),
        DocumentPlan(id="tracker_v1", doc_key="tracker", kind="notion_tracker", version=1, title="Kestrel run tracker",
                     author="ravi", time=t(1, 10, 30), reflects_corrections=False, item_ids=["run_03"], error_ids_shown_wrong=["err_01"]),
    ]
    ev = [
        Event(id="e01", time=t(0, 10), actor="omar", kind="fact_update", where="planning", summary="deadline set", refs=["ef_01"], must_contain=["Tue Sep 1 18:00"]),
        Event(id="e02", time=t(0, 11), actor="ravi", kind="result_posted", where="results", summary="baseline", refs=["run_01"], must_contain=["41.3", "72.5", "12"]),
        Event(id="e03", time=t(0, 12), actor="maya", kind="fact_update", where="planning", summary="owner", refs=["ef_02"], must_contain=["Ravi Patel"]),
        Event(id="e04", time=t(0, 15), actor="ravi", kind="result_posted", where="results", summary="dense", refs=["run_02"], must_contain=["47.9", "81.0", "35"]),
        Event(id="e05", time=t(1, 9, 30), actor="omar", kind="fact_update", where="planning", summary="deadline fix", refs=["ef_01"], must_contain=["Tue Sep 1 18:00", "Tue Sep 1 20:00"]),
        Event(id="e06", time=t(1, 10), actor="ravi", kind="error_slipped", where="results", summary="LI+D posted wrong", refs=["run_03", "err_01"], must_contain=["54.2"]),
        Event(id="e07", time=t(1, 10, 30), actor="ravi", kind="notion_update", where="notion", summary="tracker", refs=["run_03", "err_01"], attachment="tracker_v1"),
        Event(id="e08", time=t(1, 11), actor="maya", kind="error_noticed", where="dm-maya-ravi", summary="noticed", refs=["err_01"]),
        Event(id="e09", time=t(1, 11, 30), actor="lena", kind="document_posted", where="files", summary="report v1", refs=["report_v1"], attachment="report_v1"),
        Event(id="e10", time=t(1, 12), actor="ravi", kind="correction", where="results", summary="fix", refs=["run_03", "err_01"], must_contain=["54.2", "52.4"]),
        Event(id="e11", time=t(1, 14), actor="ravi", kind="result_posted", where="results", summary="LI", refs=["run_04"], must_contain=["50.1", "85.2", "61"]),
        Event(id="e12", time=t(1, 15), actor="ravi", kind="document_posted", where="results", summary="chart", refs=["chart_v1"],
              attachment="chart_v1", must_not_contain=["72.5", "81.0", "86.7", "85.2"]),
        Event(id="e13", time=t(2, 9), actor="lena", kind="invented_fact", where="results", summary="throughput", refs=["inv_01"], must_contain=["140"]),
        Event(id="e14", time=t(2, 11), actor="maya", kind="fact_update", where="planning", summary="owner change", refs=["ef_02"], must_contain=["Omar Haddad"]),
        Event(id="e15", time=t(2, 16), actor="maya", kind="decision", where="results", summary="release", refs=["dec_01"], must_contain=["52.4"]),
        Event(id="e16", time=t(3, 9), actor="omar", kind="welcome", where="email", summary="welcome", recipients=["sofia"]),
        Event(id="e17", time=t(3, 15), actor="omar", kind="fact_update", where="planning", summary="deadline moved", refs=["ef_01"], must_contain=["Wed Sep 2 18:00"]),
        Event(id="e18", time=t(4, 10), actor="lena", kind="document_posted", where="files", summary="report v2", refs=["report_v2"], attachment="report_v2"),
    ]
    return EventPlan(seed_id=SEED, provenance=_prov("simulation"), window_start=t(0, 9), window_end=t(6, 18),
                     items=items, invented=invented, errors=errors, decisions=decisions, evolving_facts=evolving,
                     documents=documents, events=ev)


_SLACK = {
    "e01": ("planning", "omar", "Customer acceptance checklist deadline: Tue Sep 1 18:00."),
    "e02": ("results", "ravi", "Lexical baseline (BM25) on TicketBench: nDCG@10 41.3, Recall@100 72.5, latency 12 ms."),
    "e03": ("planning", "maya", "Acceptance trace pack owner: Ravi Patel."),
    "e04": ("results", "ravi", "Dense bi-encoder on TicketBench: nDCG@10 47.9, Recall@100 81.0, latency 35 ms."),
    "e05": ("planning", "omar", "Correction: Tue Sep 1 18:00 was wrong; the customer acceptance checklist deadline is Tue Sep 1 20:00."),
    "e06": ("results", "ravi", "LI+D (late-interaction with distillation): nDCG@10 54.2, Recall@100 86.7, latency 48 ms."),
    "e08": ("dm-maya-ravi", "maya", "Ravi, the LI+D nDCG@10 looks swapped, can you recheck the log?"),
    "e10": ("results", "ravi", "Correction: LI+D nDCG@10 is 52.4, not 54.2 (digits swapped)."),
    "e11": ("results", "ravi", "LI without distillation: nDCG@10 50.1, Recall@100 85.2, latency 61 ms."),
    "e12": ("results", "ravi", "Chart of Recall@100 for all four runs attached."),
    "e13": ("results", "lena", "Pilot annotation throughput came in at 140 tickets/hour."),
    "e14": ("planning", "maya", "Acceptance trace pack owner reassigned to Omar Haddad."),
    "e15": ("results", "maya", "Decision: we ship LI+D; 52.4 nDCG@10 beats 50.1 and stays inside the latency budget."),
    "e17": ("planning", "omar", "Meridian asked for more time: the customer acceptance checklist deadline is now Wed Sep 2 18:00."),
}


def fixture_records() -> RecordSet:
    plan = fixture_plan()
    people = {p.id: p.name for p in fixture_organization().people}
    events = {e.id: e for e in plan.events}
    records: list[Record] = []

    def add(source, modality, event_ids, when, text, **kw):
        n = len(records) + 1
        records.append(Record(id=f"{SEED}-{source}-{n}", project=SEED, source=source, modality=modality,
                              timestamp=when, order=n, text=text, event_ids=event_ids, provenance=_prov("records"), **kw))

    for eid, (channel, actor, body) in _SLACK.items():
        name = people[actor]
        add("slack", "text", [eid], events[eid].time, f"[Slack #{channel}] {name} — {events[eid].time:%Y-%m-%d %H:%M}\n{body}",
            author=name, channel=channel)
    add("notion", "text", ["e07"], t(1, 10, 30), "[Notion Kestrel run tracker]\n| Run | nDCG@10 | Status |\n| LI+D | 54.2 | done |",
        author=people["ravi"], title="Kestrel run tracker", doc_id="tracker_v1")
    add("pdf_page", "visual", ["e09"], t(1, 11, 30),
        "[PDF Kestrel results report v1 p. 1]\nResults. BM25 41.3, Dense 47.9, LI+D 54.2 nDCG@10. LI pending.",
        author=people["lena"], title="Kestrel results report v1", filename="report_v1.pdf", page=1,
        image_path="files/report_v1_p1.png", doc_id="report_v1")
    add("image", "visual", ["e12"], t(1, 15), "[Image Recall@100 by run] chart image",
        author=people["ravi"], title="Recall@100 by run", filename="chart_v1.png", image_path="files/chart_v1.png",
        doc_id="chart_v1")
    add("email", "text", ["e16"], t(3, 9), "[Email] Omar Haddad to Sofia Marin — Welcome to Kestrel, Sofia! Start with #planning.",
        author=people["omar"], recipients=["sofia"], title="Welcome to Kestrel")
    add("pdf_page", "visual", ["e18"], t(4, 10),
        "[PDF Kestrel results report v2 p. 1]\nResults. BM25 41.3, Dense 47.9, LI+D 52.4, LI 50.1 nDCG@10.",
        author=people["lena"], title="Kestrel results report v2", filename="report_v2.pdf", page=1, version=2,
        image_path="files/report_v2_p1.png", doc_id="report_v2", supersedes=f"{SEED}-pdf_page-16")
    add("meeting", "text", [], t(2, 14), "[Meeting notes] Weekly sync. Discussed customer agenda and the release.",
        author=people["omar"], title="Weekly sync")
    records.sort(key=lambda r: (r.timestamp, r.order))
    return RecordSet(seed_id=SEED, provenance=_prov("records"), records=records, version_graph=[])


def fixture_project(seed: str = SEED) -> tuple[Organization, EventPlan, RecordSet]:
    """The fixture relabelled to another seed id (ids, projects and provenance follow)."""
    import json

    def relabel(model):
        text = json.dumps(model.model_dump(mode="json")).replace(SEED, seed)
        return type(model).model_validate(json.loads(text))

    return relabel(fixture_organization()), relabel(fixture_plan()), relabel(fixture_records())
