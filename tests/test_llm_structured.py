"""Structured outputs: every LLM stage sends its reply model as a strict, bounded json_schema
`response_format`, through the production client, to a real (local) OpenAI-compatible server."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from pydantic import BaseModel, Field

from mmeb_assets.judge.llm import JudgeVerdict, judge_llm_batch
from mmeb_assets.prompts import PromptTemplate, load_prompt
from mmeb_resources.llm import LLMResource
from mmeb_resources.llm_schema import MAX_ITEMS, MAX_STRING, response_format, strict_schema
from openai_test_server import OpenAITestServer

ROOT = Path(__file__).resolve().parents[1]


class Inner(BaseModel):
    label: str
    tags: list[str] = []


class Outer(BaseModel):
    name: str = "x"
    code: str = Field(pattern=r"^\d{2}:\d{2}$")
    short: str = Field(max_length=12)
    kind: str | None = None
    inner: Inner
    many: list[Inner] = Field(default_factory=list, min_length=10)


def walk(node):
    yield node
    for value in node.values():
        if isinstance(value, dict):
            yield from walk(value)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, dict):
                    yield from walk(item)


def assert_strict(schema: dict) -> None:
    for node in walk(schema):
        if "properties" in node:
            assert node["additionalProperties"] is False and node["required"] == list(node["properties"])
        kinds = node.get("type") if isinstance(node.get("type"), list) else [node.get("type")]
        if "string" in kinds and not {"enum", "const", "pattern"} & set(node):
            assert isinstance(node.get("maxLength"), int), node
        if "array" in kinds:
            assert isinstance(node.get("maxItems"), int), node
        assert "default" not in node


def test_strict_schema_requires_every_field_and_bounds_strings_and_arrays():
    schema = strict_schema(Outer)
    assert_strict(schema)
    props, inner = schema["properties"], schema["$defs"]["Inner"]
    assert props["name"]["maxLength"] == MAX_STRING and props["short"]["maxLength"] == 12
    assert "maxLength" not in props["code"] and props["code"]["pattern"] == r"^\d{2}:\d{2}$"
    assert props["many"]["maxItems"] == 10, "a bound never undercuts the field's own minItems"
    assert inner["properties"]["tags"]["maxItems"] == MAX_ITEMS
    assert {"type": "null"} in props["kind"]["anyOf"]
    fmt = response_format(Outer, max_string=50, max_items=3)
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    assert fmt["json_schema"]["name"] == "Outer" and fmt["json_schema"]["schema"]["properties"]["name"]["maxLength"] == 50


class Pick(BaseModel):
    choice: str


def test_generate_json_sends_the_schema_and_off_switch_does_not(tmp_path):
    template = PromptTemplate(stage="t", name="pick", system="Return JSON.", user="Pick one of {{options}}.")
    with OpenAITestServer(lambda payload: '{"choice": "a"}') as server:
        llm = LLMResource(backend="openai", base_url=server.base_url, model="m", home=str(tmp_path))
        assert llm.generate_json(template, {"options": "a, b"}, Pick, stage="t").value.choice == "a"
        plain = LLMResource(backend="openai", base_url=server.base_url, model="m", home=str(tmp_path / "b"),
                            structured_outputs=False)
        plain.generate_json(template, {"options": "a, b"}, Pick, stage="t")
    sent, unsent = server.requests
    assert sent["response_format"] == {"type": "json_schema", "json_schema": {
        "name": "Pick", "strict": True, "schema": strict_schema(Pick)}}
    assert sent["response_format"]["json_schema"]["schema"]["properties"]["choice"]["maxLength"] == MAX_STRING
    assert "response_format" not in unsent


def test_a_reply_that_fails_validation_is_evicted_under_the_same_schema_key(tmp_path):
    """The eviction of an invalid reply must hit the key it was cached under (schema included):
    a rerun asks the server again instead of being served the invalid reply."""
    template = PromptTemplate(stage="t", name="pick", system="Return JSON.", user="Pick {{options}}.")
    with OpenAITestServer(lambda payload: '{"choice": "z"}') as server:
        for _ in range(2):
            llm = LLMResource(backend="openai", base_url=server.base_url, model="m", home=str(tmp_path),
                              max_json_tries=1)
            with pytest.raises(Exception, match="z is not"):
                llm.generate_json(template, {"options": "a"}, Pick, stage="t",
                                  validate=lambda v: [f"{v.choice} is not an option"])
    assert len(server.requests) == 2


def test_judge_batch_sends_the_verdict_schema(tmp_path):
    item = SimpleNamespace(q="What is the codename?", gold=SimpleNamespace(answer="Falcon"))
    with OpenAITestServer(lambda payload: '{"correct": true, "reason": "same"}') as server:
        llm = LLMResource(backend="openai", base_url=server.base_url, model="judge", home=str(tmp_path))
        verdicts = judge_llm_batch(llm, [item, item], ["Falcon", "falcon"])
    assert [v.correct for v in verdicts] == [True, True]
    assert all(r["response_format"]["json_schema"]["schema"] == strict_schema(JudgeVerdict) for r in server.requests)


def _bench():
    spec = importlib.util.spec_from_file_location("bench_smollm_stages", ROOT / "bench" / "bench_smollm_stages.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("structured", [True, False])
def test_every_llm_stage_of_a_demo_seed_sends_its_schema(tmp_path, monkeypatch, structured):
    """The bench's stages (source facts, simulation, records, QA generation and validation,
    answering, judging) against a local server: every request but the free-text answers carries
    a strict schema, and the schemas cover the reply models of every JSON prompt it used."""
    monkeypatch.setenv("MMEB_HOME", str(tmp_path / "home"))
    bench = _bench()
    with OpenAITestServer(lambda payload: "not json at all") as server:
        args = SimpleNamespace(base_url=server.base_url, model="m", max_tokens=64, context=8192, json_tries=1, days=1, families=1,
                               validate=1, answers=1, model_cache=str(tmp_path))
        results, _ = bench.run_stages(args, structured)
    assert not [r.crash for r in results if r.crash]
    answer_system = load_prompt("evaluation", "answer").system.strip()
    answers = [r for r in server.requests if r["messages"][0]["content"].strip() == answer_system]
    others = [r for r in server.requests if r not in answers]
    assert answers and all("response_format" not in r for r in answers), "answers are free text"
    if not structured:
        assert all("response_format" not in r for r in others)
        return
    assert all(r["response_format"]["json_schema"]["strict"] is True for r in others)
    for request in others:
        assert_strict(request["response_format"]["json_schema"]["schema"])
    names = {r["response_format"]["json_schema"]["name"] for r in others}
    assert {"TextualExtraction", "VisualExtraction", "OrgDraft", "ScheduleDraft", "ErrorsDecisionsDraft",
            "EvolvingFactsDraft", "SlackDayOut", "ReportSpec", "QASpec", "Stage1Reply", "JudgeVerdict"} <= names, names


def test_full_project_validation_cuts_the_records_to_the_models_context(monkeypatch):
    """An 8k server refused the 60,000-character record dump (HTTP 400); the budget follows the
    LLM's context, and an endpoint of unknown (large) context keeps the full default."""
    from mmeb_assets.qa.validate_llm import ALL_RECORDS_CHARS, records_budget
    from mmeb_resources.defaults import llm_from_env

    small = LLMResource(backend="openai", base_url="http://127.0.0.1:9/v1", max_context_tokens=8192, max_tokens=1024)
    assert records_budget(small) == (8192 - 1024 - 1500) * 2 < ALL_RECORDS_CHARS
    monkeypatch.setenv("MMEB_LLM_BACKEND", "openai")
    monkeypatch.delenv("MMEB_LLM_CONTEXT_TOKENS", raising=False)
    assert records_budget(llm_from_env()) == ALL_RECORDS_CHARS
    monkeypatch.setenv("MMEB_LLM_CONTEXT_TOKENS", "8192")
    assert records_budget(llm_from_env()) < ALL_RECORDS_CHARS
