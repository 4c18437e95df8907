"""LLM paths of the qa stage over real HTTP (tests/openai_test_server.py): generation and validation."""
from __future__ import annotations

import json

import pytest

from mmeb_assets.provenance import make_provenance
from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.fixture import SEED, fixture_organization, fixture_plan, fixture_records
from mmeb_assets.qa.generate import generate_rule_items, make_context
from mmeb_assets.qa.llm_generate import generate_family, generate_llm_items
from mmeb_assets.qa.validate_llm import LLMValidator
from mmeb_assets.qa.validation import validate_item
from mmeb_resources.llm import LLMResource
from openai_test_server import Fault, OpenAITestServer

SLACK_LID = f"{SEED}-slack-6"      # LI+D posted (wrong value 54.2)
SLACK_FIX = f"{SEED}-slack-8"      # the correction 54.2 -> 52.4


@pytest.fixture(scope="module")
def index():
    return ProjectIndex(fixture_plan(), fixture_organization(), fixture_records())


@pytest.fixture(autouse=True)
def _home(mmeb_home):
    return mmeb_home


def llm_for(server, **kw) -> LLMResource:
    return LLMResource(backend="openai", base_url=server.base_url, model="test-model", api_key="x", timeout_s=20,
                       use_cache=False, backoff_base_s=0.01, backoff_max_s=0.05, **kw)


def spec(evidence, paths, q="Which nDCG@10 applies to LI+D after the correction?", answer="52.4"):
    return json.dumps({"schema_version": "qa_spec_v1", "items": [{
        "id": "xsc_llm_01", "q": q, "answer_status": "answerable", "gold": {"answer": answer},
        "solution": [{"step": "The first post says 54.2.", "record_ids": [SLACK_LID]},
                     {"step": "The correction says 52.4.", "record_ids": [SLACK_FIX]}],
        "evidence_paths": paths, "evidence": evidence}],
        "omitted": [{"id": "xsc_llm_02", "reason": "no second conflict"}]})


def test_generation_regenerates_with_errors_then_converts(index):
    replies = iter([
        spec([SLACK_FIX], [[SLACK_LID, SLACK_FIX]]),                 # evidence != evidence_paths[0]
        spec([SLACK_LID, SLACK_FIX], [[SLACK_LID, SLACK_FIX]]),
    ])
    with OpenAITestServer(lambda payload: next(replies)) as server:
        items = generate_family(index, llm_for(server), "cross_source_conflict", 2, existing=[], records_chars=20_000)
        assert len(server.requests) == 2
        retry = server.requests[1]["messages"][-1]["content"]
        assert "evidence must equal evidence_paths[0]" in retry
        first = server.requests[0]["messages"][-1]["content"]
        assert SLACK_FIX in first and "xsc_llm_01" in first
    assert len(items) == 1
    item = items[0]
    assert item.task == "cross_source_conflict" and item.generator == "llm:test-model"
    assert item.evidence == [SLACK_LID, SLACK_FIX] and item.evidence_stats.n_units == 2
    assert item.provenance.prompt_hash and item.provenance.model == "test-model"
    kept = validate_item(item, index)   # deterministic stages accept an honest LLM item
    assert kept.validation.decision == "pass", kept.validation


def test_generation_survives_429_and_skips_a_family_that_never_validates(index):
    calls = {"n": 0}

    def handler(payload):
        calls["n"] += 1
        if calls["n"] == 1:
            return Fault(429, {"Retry-After": "0"})
        return "not json at all"
    with OpenAITestServer(handler) as server:
        llm = llm_for(server, max_json_tries=1)
        items = generate_llm_items(index, llm, existing=[], per_family=1, records_chars=5_000)
    assert items == [] and calls["n"] >= 8   # one retry after the 429, then one call per family


def _stage(payload) -> str:
    system = payload["messages"][0]["content"]
    return "s1" if "ONLY the records" in system else "s2" if "grade one candidate" in system else "s3"


S3_PASS = {"competing_answer": {"answer": None, "records": [], "equally_valid": False},
           "numbers": {"wrong_or_unverified": [], "note": ""}, "status": {"ok": True, "note": ""},
           "evidence_sufficient": True, "verdict": "pass", "category": "none",
           "fix": {"q": None, "gold": None, "evidence_add": None, "note": ""}}


@pytest.fixture(scope="module")
def rule_items(index):
    return generate_rule_items(make_context(index, make_provenance(SEED, "qa", "rules")))


def test_llm_validation_pass_records_all_stages(index, rule_items):
    item = next(i for i in rule_items if i.generator == "rules:extraction.cell")

    def handler(payload):
        stage = _stage(payload)
        if stage == "s1":
            return json.dumps({"answer": item.gold.answer, "knowable": True, "reason": "stated"})
        if stage == "s2":
            return json.dumps({"asked_object": "value", "verdict": "match", "cause": "none", "reason": "same"})
        return json.dumps(S3_PASS)
    with OpenAITestServer(handler) as server:
        done = validate_item(item, index, LLMValidator(llm_for(server), index))
        assert len(server.requests) == 3
    assert done.validation.decision == "pass"
    validators = [s.validator for s in done.validation.stages]
    assert validators.count("rules") == 3 and validators.count("openai:test-model") == 3


def test_llm_fix_is_applied_and_revalidated(index, rule_items):
    item = next(i for i in rule_items if i.generator == "rules:cross_source.applies")
    extra = next(r.id for r in index.ordered if r.source == "email")
    state = {"audits": 0}

    def handler(payload):
        stage = _stage(payload)
        if stage == "s1":
            return json.dumps({"answer": "52.4", "knowable": True, "reason": ""})
        if stage == "s2":
            return json.dumps({"asked_object": "value", "verdict": "match", "cause": "none", "reason": ""})
        state["audits"] += 1
        if state["audits"] <= 2:
            return json.dumps({**S3_PASS, "verdict": "fix", "category": "ambiguous_question",
                               "fix": {"q": item.q.replace("Which value applies", "Which nDCG@10 value applies"),
                                       "gold": None, "evidence_add": ["bogus-id"] if state["audits"] == 1 else None,
                                       "note": "name the metric"}})
        return json.dumps(S3_PASS)
    with OpenAITestServer(handler) as server:
        done = validate_item(item, index, LLMValidator(llm_for(server), index))
        audit_requests = [r for r in server.requests if _stage(r) == "s3"]
    # the bogus id is rejected by the stage validator, the model is re-asked, and the fix then applies
    assert done.validation.decision == "fix" and done.validation.category == "ambiguous_question"
    assert "Which nDCG@10 value applies" in done.q and done.validation.rounds == 2
    assert len(audit_requests) == 3 and "bogus-id" in audit_requests[1]["messages"][-1]["content"]
    assert extra not in done.evidence and "bogus-id" not in done.evidence


def test_llm_perturbation_keeps_only_premises_no_record_mentions(index, rule_items):
    from mmeb_assets.qa.llm_generate import llm_perturb

    source = next(i for i in rule_items if i.generator == "rules:extraction.cell")
    reply = json.dumps({"items": [
        {"source_id": source.id, "q": source.q.replace("TicketBench", "the Zephyr archive"),
         "changed_term": "Zephyr archive", "change": "dataset"},
        {"source_id": source.id, "q": "What annotation throughput did the Oslo office measure?",
         "changed_term": "annotation throughput", "change": "answerable: term is in the records"},
    ]})
    with OpenAITestServer(lambda payload: reply) as server:
        items = llm_perturb(index, llm_for(server), rule_items, n=2)
    assert [i.derivation.absent_terms for i in items] == [["Zephyr archive"]]
    uns = items[0]
    assert uns.task == "unanswerable" and uns.perturbed_from == source.id and uns.evidence == []
    assert validate_item(uns, index).validation.decision == "pass"
