"""The records LLM path over real HTTP (tests/openai_test_server.py): Slack days per channel with
regeneration on validation errors and the naturalness rewrite, and the report content spec."""
from __future__ import annotations

import json
import re

import pytest
from PIL import Image

from mmeb_assets.records import checks as C
from mmeb_assets.records.context import RenderContext
from mmeb_assets.records.llm_steps import SlackDayOut, SlackMessageOut, slack_day_errors
from mmeb_assets.records.render import render_records
from mmeb_assets.records.report_spec import rules_report_spec
from mmeb_assets.records.slack import message_text
from mmeb_resources.llm import LLMResource
from openai_test_server import OpenAITestServer

simulation = pytest.importorskip("mmeb_assets.simulation")
samples = pytest.importorskip("mmeb_assets.simulation.samples")

EVENT_LINE = re.compile(r"^- (\S+) \| (\d\d:\d\d) \| (\S+) ", re.MULTILINE)


def _project(tmp_path):
    facts = samples.sample_research_facts("llm-project")
    org = simulation.build_organization(facts, random_seed=3)
    plan = simulation.build_event_plan(facts, org, random_seed=3)
    project = tmp_path / "projects" / facts.seed_id
    for fig in facts.figures:
        (project / fig.image_path).parent.mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (320, 200), "white").save(project / fig.image_path)
    return facts, org, plan, project


class ScriptedModel:
    """Answers like a model would, with one planted fault per step to exercise the retry loops."""

    def __init__(self, facts, org, plan, project):
        self.ctx = RenderContext(facts=facts, org=org, plan=plan, project_dir=project, random_seed=3)
        self.events = {e.id: e for e in plan.events}
        self.slack_calls = self.review_calls = self.report_calls = 0
        self.planted = False

    def __call__(self, request: dict) -> str:
        system, user = request["messages"][0]["content"], request["messages"][-1]["content"]
        if "one working day of one Slack channel" in system:
            return self._slack(user)
        if "review a day of workplace chat" in system:
            self.review_calls += 1
            if self.review_calls == 1:
                return json.dumps({"score": 2, "problems": ["every message opens the same way"]})
            return json.dumps({"score": 4, "problems": []})
        self.report_calls += 1
        doc_id = "report_v1" if "This is version 1" in user else "report_v2"
        spec = rules_report_spec(self.ctx, self.ctx.document(doc_id))
        if self.report_calls == 1:  # planted fault: drop the results table
            spec.pages = [p for p in spec.pages if not any(b.kind == "table" and "Item" in b.header for b in p.blocks)]
        return "```json\n" + spec.model_dump_json() + "\n```"

    def _slack(self, user: str) -> str:
        self.slack_calls += 1
        ids = [m.group(1) for m in EVENT_LINE.finditer(user.split("Today's scripted events", 1)[1])]
        messages = [{"event_id": i, "time": self.events[i].time.strftime("%H:%M"), "actor": self.events[i].actor,
                     "text": "LLM: " + message_text(self.ctx, self.events[i])} for i in ids]
        if not self.planted and len(messages) > 1:
            self.planted = True
            messages = messages[1:]  # planted fault: one event left without a message
        return json.dumps({"messages": messages})


def test_llm_path_regenerates_reviews_and_passes_checks(mmeb_home):
    facts, org, plan, project = _project(mmeb_home)
    model = ScriptedModel(facts, org, plan, project)
    with OpenAITestServer(model) as server:
        llm = LLMResource(backend="openai", base_url=server.base_url, model="test-model", max_json_tries=3,
                          use_cache=False)
        rs = render_records(facts, org, plan, project, random_seed=3, llm=llm)
        requests = server.requests
    users = [r["messages"][-1]["content"] for r in requests]
    assert any("failed validation" in u and "needs exactly one message" in u for u in users)
    assert any("scored the previous draft of today 2/5" in u and "opens the same way" in u for u in users)
    assert any("failed validation" in u and "must appear exactly" in u for u in users)
    slack = [r for r in rs.records if r.source == "slack" and r.event_ids]
    assert slack and all(r.provenance.generator == "openai:test-model" for r in slack)
    assert all(r.provenance.prompt_hash for r in slack)
    assert any("LLM: " in r.text for r in slack)
    pages = [r for r in rs.records if r.source == "pdf_page"]
    assert pages and all(r.provenance.generator == "openai:test-model" for r in pages)
    findings = C.all_findings(rs, facts, org, plan, project)
    assert {k: v for k, v in findings.items() if k != "scale" and v} == {}


def test_slack_validator_names_each_problem():
    from datetime import datetime

    from mmeb_assets.schema.workspace import Event

    event = Event(id="ev_1", time=datetime(2026, 3, 2, 10, 5), actor="maya", kind="correction", where="results",
                  summary="Maya corrects recall: 0.268 -> 0.628", must_contain=["0.268", "0.628"],
                  must_not_contain=["0.871"])
    good = SlackDayOut(messages=[SlackMessageOut(event_id="ev_1", time="10:05", actor="maya",
                                                 text="Correction: 0.268 -> 0.628, sorry!")])
    assert slack_day_errors(good, [event]) == []
    bad = SlackDayOut(messages=[SlackMessageOut(event_id="ev_1", time="10:06", actor="leo",
                                                text="as in the paper, 0.268 is 0.62 and 0.871 at 42")])
    errors = " | ".join(slack_day_errors(bad, [event]))
    for fragment in ("actor must be 'maya'", "time must be 10:05", "must contain '0.628'", "must not contain '0.871'",
                     "publication", "numbers not in the event description"):
        assert fragment in errors
