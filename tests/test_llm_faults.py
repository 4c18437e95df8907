"""A hostile endpoint: every fault of the test server's schedule on every LLM stage, over real HTTP
through the production client (tests/llm_fault_matrix.py runs the cells and names broken promises).

Transient (the first request faults): retried within the limits, or re-asked with the error; the
item comes from the model. Persistent (every request faults): the stage completes, the item is made
by the rules twin or recorded as failed, with the reason. Always: no item lost, the ledger counts
exactly the requests the server received, and nothing but valid replies is cached (a rerun asks again).
"""
from __future__ import annotations

import pytest

from llm_fault_matrix import ALL_FAULTS, STAGES, run_cell
from openai_test_server import CONTENT_FAULTS


@pytest.fixture(autouse=True)
def _home(mmeb_home):
    return mmeb_home


# a persistent hang costs a full timeout per attempt: two stages here, all of them in bench/bench_faults.py
SLOW = {("hang past timeout", "persistent", s) for s in STAGES if s not in ("source facts", "judging")}


def _cells():
    for stage in STAGES:
        for fault in ALL_FAULTS:
            for mode in ("transient", "persistent"):
                marks = [pytest.mark.heavy] if (fault, mode, stage) in SLOW else []
                yield pytest.param(stage, fault, mode, marks=marks, id=f"{stage}-{fault}-{mode}")


@pytest.mark.parametrize(("stage", "fault", "mode"), list(_cells()))
def test_stage_survives_fault(stage, fault, mode):
    cell = run_cell(stage, fault, mode)
    assert cell.problems == [], cell
    assert cell.lost == 0 and cell.server_requests == cell.ledger_requests
    if cell.expect_fallback:
        assert cell.fallbacks > 0 and cell.rerun_requests > 0   # recorded, and asked again next time
    else:
        assert cell.fallbacks == 0
    if mode == "transient":
        assert cell.extra_requests == (1 if fault not in CONTENT_FAULTS or STAGES[stage].reasks_content else 0)


def test_invalid_replies_are_evicted_but_valid_ones_are_served_from_the_cache(tmp_path):
    """The cache half of the promise, on the client alone: a refused or schema-breaking reply is
    asked again on the next call, a valid one is not."""
    import json

    from pydantic import BaseModel

    from mmeb_assets.prompts import PromptTemplate
    from mmeb_resources.llm import LLMOutputError, LLMResource
    from openai_test_server import FaultSchedule, OpenAITestServer

    class Answer(BaseModel):
        value: int

    template = PromptTemplate(stage="t", name="t", system="Reply with JSON.", user="Give {{what}}.")
    good = lambda payload: json.dumps({"value": 7})  # noqa: E731
    with OpenAITestServer(FaultSchedule(good, "schema-breaking JSON", times=None)) as server:
        llm = LLMResource(backend="openai", base_url=server.base_url, model="m", home=str(tmp_path), max_json_tries=2)
        with pytest.raises(LLMOutputError, match="invalid JSON for Answer"):
            llm.generate_json(template, {"what": "seven"}, Answer, stage="t")
        assert len(server.requests) == 2
    with OpenAITestServer(good) as server:
        llm = LLMResource(backend="openai", base_url=server.base_url, model="m", home=str(tmp_path), max_json_tries=2)
        assert llm.generate_json(template, {"what": "seven"}, Answer, stage="t").value.value == 7
        assert len(server.requests) == 1          # the invalid reply was not served from the cache
        llm.generate_json(template, {"what": "seven"}, Answer, stage="t")
        assert len(server.requests) == 1          # the valid one is


def test_a_ledger_written_before_failures_were_counted_is_migrated(tmp_path):
    import sqlite3

    from mmeb_resources.llm_ledger import UsageLedger

    path = tmp_path / "ledger.sqlite"
    old = sqlite3.connect(path)
    old.execute("CREATE TABLE calls (stage TEXT, backend TEXT, model TEXT, cached INTEGER, prompt_tokens INTEGER, "
                "completion_tokens INTEGER, cost_usd REAL, retries INTEGER)")
    old.execute("INSERT INTO calls VALUES ('s', 'openai', 'm', 0, 10, 5, 0.0, 2)")
    old.commit()
    old.close()
    ledger = UsageLedger(path)
    ledger.record(stage="s", backend="openai", model="m", cached=False, prompt_tokens=0, completion_tokens=0,
                  cost_usd=0.0, retries=1, failed=True)
    totals = ledger.totals("s")
    assert (totals.requests, totals.retries, totals.failures, totals.prompt_tokens) == (2, 3, 1, 10)
