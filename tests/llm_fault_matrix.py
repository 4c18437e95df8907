"""The fault matrix: every LLM stage against the local OpenAI-compatible server with each fault of
`openai_test_server.FAULTS`, through the production client over real HTTP.

Each stage case supplies the replies a well-behaved model would give (`handler`) and a runner that
calls the stage's LLM path and says what came out: how many items, which were made by the rules
twin (or recorded as failed) and why. `run_cell` runs one (stage, fault, transient|persistent) cell
and checks the promises: the stage completes with every item present, a transient fault costs only
extra requests, a persistent one is recorded with its reason, the ledger counts exactly the requests
the server received, and nothing but valid replies is cached (a rerun asks again). Used by
tests/test_llm_faults.py (every cell) and bench/bench_faults.py (the table).
"""
from __future__ import annotations

import contextlib
import functools
import json
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from mmeb_resources.llm import LLMResource
from openai_test_server import CONTENT_FAULTS, FAULTS, FaultSchedule, OpenAITestServer

# short limits so the whole matrix runs in seconds. The read timeout is generous (a loaded machine must
# not turn a slow reply into a retry) except in the hang cells, where 1 s is outlasted by a 3 s hang.
HANG_TIMEOUT_S = 1.0
CLIENT = dict(timeout_s=10.0, max_retries=1, backoff_base_s=0.001, backoff_max_s=0.002, max_json_tries=2,
              concurrency=4)


@dataclass
class Outcome:
    items: int                      # items the stage produced (must equal `expected`)
    expected: int
    fallbacks: list[str] = field(default_factory=list)   # items made by the rules twin / recorded as failed


@dataclass
class Cell:
    stage: str
    fault: str
    mode: str                       # 'transient' (first request only) | 'persistent' (every request)
    survived: bool
    lost: int                       # items missing from the output (must be 0)
    extra_requests: int             # requests beyond a clean run of the same stage
    server_requests: int
    ledger_requests: int            # requests + retries the client's ledger counted
    fallbacks: int
    expect_fallback: bool           # the fault must leave a recorded failure (persistent, or an answer refused)
    rerun_requests: int             # requests a rerun with the same cache made (healthy server; -1: not rerun)
    problems: list[str] = field(default_factory=list)


@dataclass
class StageCase:
    name: str
    handler: Callable[[], Callable[[dict], object]]
    run: Callable[[LLMResource], Outcome]
    reasks_content: bool = True     # content faults are re-asked (generate_json); answering records them


def _llm(server: OpenAITestServer, home: Path, fault: str = "") -> LLMResource:
    settings = {**CLIENT, "timeout_s": HANG_TIMEOUT_S} if fault == "hang past timeout" else CLIENT
    return LLMResource(backend="openai", base_url=server.base_url, model="test-model", home=str(home), **settings)


def served(llm: LLMResource) -> int:
    usage = llm.usage()
    return usage.requests + usage.retries


# --- source facts -----------------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _aurora():
    from mmeb_assets.seedgen.demo_seeds import demo_figure_hints, write_demo_seed
    from mmeb_assets.ingestion.document import ingest_pdf

    folder = Path(tempfile.mkdtemp(prefix="faults-aurora-"))
    pdf = write_demo_seed("aurora-retrieval", folder / "aurora.pdf")
    return ingest_pdf(pdf, folder / "out", "aurora-retrieval"), demo_figure_hints("aurora-retrieval")


def _source_facts_handler():
    from mmeb_assets.facts.source_facts_rules import RulesSourceFacts

    document, hints = _aurora()
    rules = RulesSourceFacts().extract(document, figure_hints=hints)
    visuals = {v.figure_id: v.model_dump_json() for v in rules.visual}

    def handler(payload: dict) -> str:
        user = payload["messages"][-1]["content"]
        found = re.search(r"Figure id: (\S+)", user)
        return visuals[found.group(1)] if found else rules.textual.model_dump_json()
    return handler


def _source_facts_run(llm: LLMResource) -> Outcome:
    from mmeb_assets.facts.source_facts import extract_source_facts

    document, hints = _aurora()
    facts = extract_source_facts(document, llm, figure_hints=hints)
    items = int(bool(facts.textual.method_name)) + len(facts.visual)
    return Outcome(items, 1 + len(document.figures), list(facts.provenance.fallbacks))


# --- simulation --------------------------------------------------------------------------------------

def _simulation_handler():
    from mmeb_assets.simulation import SimulationConfig
    from mmeb_assets.simulation.samples import sample_research_facts
    from test_simulation_llm import scripted_replies, step_of

    replies = scripted_replies(sample_research_facts(), SimulationConfig())
    return lambda payload: replies[step_of(payload)]


def _simulation_run(llm: LLMResource) -> Outcome:
    from mmeb_assets.simulation import SimulationConfig, build_event_plan, build_organization
    from mmeb_assets.simulation.samples import sample_research_facts
    from test_simulation_llm import SEED

    facts, config = sample_research_facts(), SimulationConfig()
    org = build_organization(facts, random_seed=SEED, config=config, llm=llm)
    plan = build_event_plan(facts, org, random_seed=SEED, config=config, llm=llm)
    items = int(bool(org.people)) + int(bool(org.archetype)) + int(bool(plan.items)) + int(bool(plan.errors)) \
        + int(bool(plan.evolving_facts))
    return Outcome(items, 5, [*org.provenance.fallbacks, *plan.provenance.fallbacks])


# --- records -----------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _records_ctx_parts():
    from mmeb_assets import simulation
    from mmeb_assets.simulation import samples

    facts = samples.sample_research_facts("llm-project")
    org = simulation.build_organization(facts, random_seed=3)
    plan = simulation.build_event_plan(facts, org, random_seed=3)
    project = Path(tempfile.mkdtemp(prefix="faults-records-")) / facts.seed_id
    return facts, org, plan, project


def _records_ctx():
    from mmeb_assets.records.context import RenderContext

    facts, org, plan, project = _records_ctx_parts()
    return RenderContext(facts=facts, org=org, plan=plan, project_dir=project, random_seed=3)


def _records_days(ctx) -> list[str]:
    from mmeb_assets.records.slack import is_slack_event

    days = {(e.where, e.time.date()) for e in ctx.plan.events if is_slack_event(ctx, e)}
    return sorted(f"{c} {d}" for c, d in days)


RECORDS_DAYS = 3  # the first channel-days of the project: enough to exercise the path, cheap to run


def _records_handler():
    from mmeb_assets.records.report_spec import rules_report_spec
    from mmeb_assets.records.slack import message_text

    ctx = _records_ctx()
    events = {e.id: e for e in ctx.plan.events}
    line = re.compile(r"^- (\S+) \| (\d\d:\d\d) \| (\S+) ", re.MULTILINE)

    def handler(payload: dict) -> str:
        system, user = payload["messages"][0]["content"], payload["messages"][-1]["content"]
        if "one working day of one Slack channel" in system:
            ids = [m.group(1) for m in line.finditer(user.split("Today's scripted events", 1)[1])]
            return json.dumps({"messages": [{"event_id": i, "time": events[i].time.strftime("%H:%M"),
                                             "actor": events[i].actor, "text": message_text(ctx, events[i])}
                                            for i in ids]})
        if "review a day of workplace chat" in system:
            return json.dumps({"score": 4, "problems": []})
        doc_id = "report_v1" if "This is version 1" in user else "report_v2"
        return rules_report_spec(ctx, ctx.document(doc_id)).model_dump_json()
    return handler


def _records_run(llm: LLMResource) -> Outcome:
    from mmeb_assets.records import llm_steps
    from mmeb_assets.records.slack import is_slack_event

    ctx = _records_ctx()
    keep = set(_records_days(ctx)[:RECORDS_DAYS])
    events = [e for e in ctx.plan.events
              if not is_slack_event(ctx, e) or f"{e.where} {e.time.date()}" in keep]
    ctx.plan = ctx.plan.model_copy(update={"events": events})
    texts = llm_steps.slack_messages_llm(ctx, llm)
    report = next(d for d in ctx.plan.documents if d.kind == "report")
    spec, _meta = llm_steps.report_spec_llm(ctx, llm, report)
    wanted = [e.id for e in events if is_slack_event(ctx, e)]
    fell_back = [f.split(":", 1)[0] for f in ctx.llm_fallbacks if f.startswith("slack ")]
    present = 0
    for day in sorted(keep):
        channel, date = day.split(" ")
        day_events = [e for e in events if e.where == channel and str(e.time.date()) == date and e.id in wanted]
        by_llm = all(e.id in texts for e in day_events)
        by_rules = not any(e.id in texts for e in day_events) and any(f.startswith(f"slack {channel} ") and f.endswith(date) for f in fell_back)
        present += int(by_llm or by_rules)  # every message of the day from one source, none missing
    return Outcome(present + int(bool(spec.pages)), len(keep) + 1,
                   [f for f in ctx.llm_fallbacks if f.startswith(("slack ", "report "))])


# --- QA generation and validation ----------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _qa_index():
    from mmeb_assets.qa.evidence import ProjectIndex
    from mmeb_assets.qa.fixture import fixture_organization, fixture_plan, fixture_records

    return ProjectIndex(fixture_plan(), fixture_organization(), fixture_records())


def _qa_generate_handler():
    def handler(payload: dict) -> str:
        text = " ".join(m["content"] for m in payload["messages"])
        found = re.search(r"\b([a-z]+_llm)_01\b", text)
        if "qa_spec_v1" in text and found:
            return json.dumps({"schema_version": "qa_spec_v1", "items": [],
                               "omitted": [{"id": f"{found.group(1)}_01", "reason": "no such question here"}]})
        return json.dumps({"items": []})
    return handler


def _qa_generate_run(llm: LLMResource) -> Outcome:
    from mmeb_assets.qa.llm_generate import FAMILIES, generate_llm_items

    fallbacks: list[str] = []
    generate_llm_items(_qa_index(), llm, existing=[], per_family=1, records_chars=3_000, fallbacks=fallbacks)
    calls = len(FAMILIES) + 1
    return Outcome(calls, calls, fallbacks)  # a skipped family is recorded, the rules items stand


QA_VALIDATE_ITEMS = 2


@functools.lru_cache(maxsize=1)
def _qa_items():
    from mmeb_assets.provenance import make_provenance
    from mmeb_assets.qa.fixture import SEED
    from mmeb_assets.qa.generate import generate_rule_items, make_context

    items = generate_rule_items(make_context(_qa_index(), make_provenance(SEED, "qa", "rules")))
    return [i for i in items if i.answer_status == "answerable"][:QA_VALIDATE_ITEMS]


def _qa_validate_handler():
    from test_qa_llm import S3_PASS, _stage

    gold = {i.q: i.gold.answer for i in _qa_items()}

    def handler(payload: dict) -> str:
        stage = _stage(payload)
        if stage == "s1":
            user = payload["messages"][-1]["content"]
            answer = next((a for q, a in gold.items() if q in user), "")
            return json.dumps({"answer": answer, "knowable": True, "reason": "stated"})
        if stage == "s2":
            return json.dumps({"asked_object": "value", "verdict": "match", "cause": "none", "reason": "same"})
        return json.dumps(S3_PASS)
    return handler


def _qa_validate_run(llm: LLMResource) -> Outcome:
    from mmeb_assets.qa.validate_llm import LLMValidator
    from mmeb_assets.qa.validation import validate_item

    validator = LLMValidator(llm, _qa_index())
    done = [validate_item(item, _qa_index(), validator) for item in _qa_items()]
    failed = [f"{d.id}: {s.reason}" for d in done for s in d.validation.stages if s.cause == "llm_error"]
    return Outcome(sum(1 for d in done if d.validation.decision), len(done), failed)


# --- answering and judging -------------------------------------------------------------------------------

def _answer_handler():
    return lambda payload: "0.412"


def _answering_run(llm: LLMResource) -> Outcome:
    from mmeb_assets.evaluation.answering import build_answers
    from mmeb_resources.model_registry import ModelSpec
    from test_evaluation_fixtures import benchmark, corpus, retrieval_set

    spec = ModelSpec(name="faulty", backend="openai", model="test-model", max_tokens=64)
    answers, _ = build_answers(spec, 10, benchmark(), retrieval_set(), corpus(),
                               llm_factory=lambda: contextlib.nullcontext(llm))
    return Outcome(len(answers.answers), len(benchmark().items),
                   [f"{a.question_id}: {a.error}" for a in answers.answers if a.error])


def _judge_handler():
    return lambda payload: json.dumps({"correct": True, "reason": "same value"})


def _judging_run(llm: LLMResource) -> Outcome:
    from mmeb_assets.evaluation.judging import build_judgments
    from mmeb_assets.provenance import make_provenance
    from mmeb_assets.schema.evaluation import Answer, AnswerSet
    from test_evaluation_fixtures import benchmark

    bench = benchmark()
    answers = AnswerSet(model="m", k=10, retriever="minilm", backend="reader", provenance=make_provenance(
        "benchmark", "evaluation", "test"), answers=[Answer(question_id=i.id, model="m", k=10, answer=i.gold.answer)
                                                    for i in bench.items])
    result = build_judgments(answers, bench, llm)
    return Outcome(len(result.judgments), len(bench.items), list(result.provenance.fallbacks))


STAGES: dict[str, StageCase] = {c.name: c for c in (
    StageCase("source facts", _source_facts_handler, _source_facts_run),
    StageCase("simulation", _simulation_handler, _simulation_run),
    StageCase("records", _records_handler, _records_run),
    StageCase("qa generation", _qa_generate_handler, _qa_generate_run),
    StageCase("qa validation", _qa_validate_handler, _qa_validate_run),
    StageCase("answering", _answer_handler, _answering_run, reasks_content=False),
    StageCase("judging", _judge_handler, _judging_run),
)}


@functools.lru_cache(maxsize=None)
def clean_requests(stage: str) -> int:
    """Requests a fault-free run of the stage makes (the baseline for 'extra requests')."""
    case = STAGES[stage]
    with tempfile.TemporaryDirectory() as home, OpenAITestServer(case.handler()) as server:
        outcome = case.run(_llm(server, Path(home)))
        if outcome.fallbacks or outcome.items != outcome.expected:
            raise AssertionError(f"{stage}: the clean run is not clean: {outcome}")
        return len(server.requests)


def run_cell(stage: str, fault: str, mode: str) -> Cell:
    """One stage against one fault; `problems` lists every broken promise (empty: the cell passes)."""
    case = STAGES[stage]
    times = 1 if mode == "transient" else None
    baseline = clean_requests(stage)
    problems: list[str] = []
    with tempfile.TemporaryDirectory() as home:
        with OpenAITestServer(FaultSchedule(case.handler(), fault, times)) as server:
            llm = _llm(server, Path(home), fault)
            try:
                outcome = case.run(llm)
            except Exception as exc:  # a crash is the failure this matrix exists to catch
                outcome = Outcome(0, 1, [])
                problems.append(f"crashed: {type(exc).__name__}: {str(exc)[:200]}")
            seen, counted = len(server.requests), served(llm)
        rerun, rerun_requests = Outcome(0, 0), -1
        if outcome.fallbacks or fault in CONTENT_FAULTS:  # something was refused or failed: a rerun must ask
            with OpenAITestServer(case.handler()) as healthy:
                rerun = case.run(_llm(healthy, Path(home)))
                rerun_requests = len(healthy.requests)
    lost = max(0, outcome.expected - outcome.items)
    if lost:
        problems.append(f"{lost} item(s) lost")
    if seen != counted:
        problems.append(f"server saw {seen} requests, the ledger counted {counted}")
    if rerun.fallbacks:
        problems.append(f"the rerun against a healthy server still fell back: {rerun.fallbacks[:2]}")
    content = fault in CONTENT_FAULTS
    expect_fallback = mode == "persistent" or (content and not case.reasks_content)
    if fault == "schema-breaking JSON" and not case.reasks_content:
        expect_fallback = False  # a JSON-looking answer is still an answer (judged, not rejected)
    if expect_fallback and not outcome.fallbacks and not problems:
        problems.append("persistent fault but no item recorded as failed")
    if not expect_fallback and outcome.fallbacks:
        problems.append(f"transient fault not absorbed: {outcome.fallbacks[:2]}")
    if outcome.fallbacks and not all(len(f) > 10 for f in outcome.fallbacks):
        problems.append("a failure was recorded without its reason")
    if outcome.fallbacks and rerun_requests == 0:
        problems.append("the rerun made no request: a failed or invalid reply was served from the cache")
    return Cell(stage, fault, mode, survived=not problems, lost=lost, extra_requests=seen - baseline,
                server_requests=seen, ledger_requests=counted, fallbacks=len(outcome.fallbacks),
                expect_fallback=expect_fallback, rerun_requests=rerun_requests, problems=problems)


ALL_FAULTS = tuple(FAULTS)
