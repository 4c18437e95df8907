"""Source facts: the rules twin on the demo seeds and SPECTER, and the LLM path over real HTTP."""
from __future__ import annotations

import json
import re

import pytest

from mmeb_assets.seedgen.demo_seeds import demo_figure_hints, demo_seed_spec, write_demo_seed
from mmeb_assets.ingestion.document import ingest_pdf
from mmeb_assets.facts.source_checks import check_textual, source_text
from mmeb_assets.facts.source_facts import extract_source_facts
from mmeb_assets.facts.source_facts_llm import LLMSourceFacts
from mmeb_assets.facts.source_facts_rules import RulesSourceFacts, claim_label, method_name
from mmeb_assets.prompts import load_prompt
from mmeb_assets.schema.source import Claim, ConfigFact, TextualExtraction
from mmeb_resources.llm import LLMOutputError, LLMResource
from openai_test_server import OpenAITestServer


@pytest.fixture(scope="module")
def aurora(tmp_path_factory):
    folder = tmp_path_factory.mktemp("aurora")
    pdf = write_demo_seed("aurora-retrieval", folder / "aurora.pdf")
    return ingest_pdf(pdf, folder / "out", "aurora-retrieval")


def test_rules_textual_extraction(aurora):
    facts = RulesSourceFacts().extract(aurora, domain="Information retrieval",
                                       figure_hints=demo_figure_hints("aurora-retrieval"))
    textual = facts.textual
    assert facts.provenance.generator == "rules" and facts.domain == "Information retrieval"
    assert textual.method_name == "Aurora"
    assert textual.one_sentence.startswith("Aurora, a late-interaction retriever")
    assert "HelpDesk-40K" in textual.task_summary and "Recall@10" in textual.task_summary
    assert {"token pruning module", "MaxSim scorer", "cross-encoder reranker"} <= set(textual.components)
    config = {(c.name, c.value) for c in textual.config_facts}
    assert {("batch size", "64"), ("learning rate", "2e-5"), ("training epochs", "12")} <= config
    assert check_textual(textual, source_text(aurora)) == []
    assert all(not re.search(r"\d", c.label) and c.label for c in textual.claims)
    values = {v for c in textual.claims for v in c.value_strings}
    assert {"0.842", "0.611", "21.4", "40,000"} <= values
    assert textual.pipeline_steps and "four components" in textual.pipeline_steps[0]
    assert facts.tables == aurora.tables and facts.figures == aurora.figures


def test_rules_visual_uses_generator_hints(aurora):
    facts = RulesSourceFacts().extract(aurora, figure_hints=demo_figure_hints("aurora-retrieval"))
    spec = demo_seed_spec("aurora-retrieval").figures[0]
    first = facts.visual[0]
    assert first.figure_id == "figure_1"
    assert first.key_numbers == spec.key_numbers and "Billing" in first.text_labels
    assert ("value printed for Billing", "0.871") in {(f.fact, f.value) for f in first.image_only_facts}
    assert all(f.value not in aurora.figures[0].caption for f in first.image_only_facts)
    plain = RulesSourceFacts().extract(aurora)  # no hints: a raster figure has no text to read
    assert plain.visual[0].image_only_facts == [] and plain.visual[0].description


def test_rules_are_deterministic(aurora):
    one = RulesSourceFacts().extract(aurora).model_dump_json()
    assert one == RulesSourceFacts().extract(aurora).model_dump_json()


def test_offline_llm_resource_uses_rules(aurora):
    assert extract_source_facts(aurora, LLMResource()).provenance.generator == "rules"


def test_helpers():
    assert method_name("SPECTER: Document-level Representation Learning") == "SPECTER"
    assert method_name("Artificial Intelligence Risk Management Framework (AI RMF 1.0)") == "AI RMF 1.0"
    assert claim_label("Aurora reaches a Recall@10 of 0.842 on the test set.", "0.842") == "Recall"
    label = claim_label("Total emissions fell to 412.6 kt CO2e in 2025.", "412.6")
    assert label == "Total emissions" and not re.search(r"\d", label)
    assert claim_label("NOx emissions fell to 1,512 t in 2025.", "1,512") == "NOx emissions"


def test_checker_catches_invented_numbers_and_digit_labels(aurora):
    bad = TextualExtraction(
        method_name="Aurora", one_sentence="x", task_summary="x", components=[], pipeline_steps=[],
        config_facts=[ConfigFact(name="batch size", value="128000")],
        claims=[Claim(text="Recall is 0.99", value_strings=["0.99"], label="Recall@10")],
    )
    errors = check_textual(bad, source_text(aurora))
    assert any("'0.99' does not occur verbatim" in e for e in errors)
    assert any("contains a digit" in e for e in errors)
    assert any("config_facts[0].value '128000'" in e for e in errors)
    # a prefix of a printed number is not the number: 0.84 is not in '0.842'
    partial = bad.model_copy(update={"claims": [Claim(text="t", value_strings=["0.84"], label="recall")],
                                     "config_facts": []})
    assert check_textual(partial, source_text(aurora))


def test_specter_rules(specter_pdf, tmp_path):
    doc = ingest_pdf(specter_pdf, tmp_path, "specter")
    facts = RulesSourceFacts().extract(doc)
    assert facts.textual.method_name == "SPECTER"
    assert "SCIDOCS" in facts.textual.task_summary
    assert check_textual(facts.textual, source_text(doc)) == []
    assert len(facts.visual) == 2 and facts.visual[0].text_labels  # vector figure: labels from its text layer


def _valid_textual() -> dict:
    return {
        "method_name": "Aurora", "one_sentence": "Finds earlier support tickets that answer a new one.",
        "task_summary": "Ticket retrieval on HelpDesk-40K measured by Recall@10 and MRR.",
        "components": ["MaxSim scorer", "cross-encoder reranker"],
        "config_facts": [{"name": "batch size", "value": "64"}, {"name": "learning rate", "value": "2e-5"}],
        "claims": [{"text": "Aurora reaches a Recall@10 of 0.842.", "value_strings": ["0.842"],
                    "label": "Recall at ten of the full system", "source_hint": "page 1"}],
        "pipeline_steps": ["encode tokens", "prune vectors", "score with MaxSim", "rerank top candidates"],
    }


def test_llm_path_regenerates_with_errors_fed_back(aurora, mmeb_home):
    textual_replies = []

    def handler(request):
        system = request["messages"][0]["content"]
        user = request["messages"][-1]["content"]
        if "working facts" in system:
            textual_replies.append(user)
            reply = _valid_textual()
            if len(textual_replies) == 1:  # first try: an invented number and a label with digits
                reply["claims"][0].update(value_strings=["0.999"], label="Recall@10")
            return json.dumps(reply)
        figure_id = re.search(r"Figure id: (\S+)", user).group(1)
        return json.dumps({"figure_id": figure_id, "description": "A bar chart of recall per category.",
                           "image_only_facts": [{"fact": "Billing recall", "value": "0.871"}] if figure_id == "figure_1" else [],
                           "text_labels": ["Billing"] if figure_id == "figure_1" else [],
                           "key_numbers": ["0.871"] if figure_id == "figure_1" else []})

    with OpenAITestServer(handler) as server:
        llm = LLMResource(backend="openai", base_url=server.base_url, model="test-model", use_cache=False)
        facts = extract_source_facts(aurora, llm, figure_hints=demo_figure_hints("aurora-retrieval"))
    assert len(textual_replies) == 2
    assert "failed validation" in textual_replies[1] and "'0.999' does not occur verbatim" in textual_replies[1]
    assert "contains a digit" in textual_replies[1]
    assert facts.provenance.generator == "openai:test-model" and facts.provenance.prompt_hash
    assert facts.textual.claims[0].value_strings == ["0.842"]
    assert facts.visual[0].image_only_facts[0].value == "0.871" and len(facts.visual) == 2
    assert "Figure 1: Recall@10 of run R5 by ticket category." in server.requests[-2]["messages"][-1]["content"]


def test_llm_path_gives_up_after_bounded_tries(aurora, mmeb_home):
    def handler(request):
        return "not json at all"

    with OpenAITestServer(handler) as server:
        llm = LLMResource(backend="openai", base_url=server.base_url, model="test-model", use_cache=False,
                          max_json_tries=2)
        with pytest.raises(LLMOutputError, match="source_facts.textual"):
            LLMSourceFacts(llm).textual(aurora)
        assert len(server.requests) == 2
        facts = LLMSourceFacts(llm).extract(aurora)  # every part falls back to the rules twin, with the reason
    rules = RulesSourceFacts().extract(aurora)
    assert facts.textual == rules.textual and facts.visual == rules.visual
    assert facts.provenance.fallbacks[0].startswith("textual: no valid output")
    assert len(facts.provenance.fallbacks) == 1 + len(aurora.figures)
    assert len(server.requests) == 2 + 2 * (1 + len(aurora.figures))


def test_prompts_load():
    for name in ("textual", "visual"):
        template = load_prompt("source_facts", name)
        assert template.hash and template.variables


def test_rules_visual_reads_vector_figure_text(tmp_path):
    """A vector chart carries its labels and values as PDF text: read them without any hint."""
    pdf = write_demo_seed("lumen-vision", tmp_path / "lumen.pdf")
    doc = ingest_pdf(pdf, tmp_path / "out", "lumen-vision")
    spec = demo_seed_spec("lumen-vision").figures[0]
    visual = RulesSourceFacts().extract(doc).visual[0]
    assert visual.text_labels == spec.text_labels
    assert visual.key_numbers == spec.key_numbers
    pairs = {(f.fact, f.value) for f in visual.image_only_facts}
    assert ("value printed for 64 tok", "61.7") in pairs and len(pairs) == 4


def test_a_figure_value_another_caption_states_is_not_pixel_only(tmp_path):
    """A value printed in one figure and written in another figure's or a table's caption ('the feedback
    coefficient is λ = 0.8') is in the document's text: it is no fact that lives only in the pixels."""
    pdf = write_demo_seed("lumen-vision", tmp_path / "lumen.pdf")
    doc = ingest_pdf(pdf, tmp_path / "out", "lumen-vision")
    first = RulesSourceFacts().extract(doc).visual[0].image_only_facts[0]
    other = doc.figures[0].model_copy(update={"id": "figure_99", "caption": f"Figure 99: the same run at {first.value}."})
    stated = doc.model_copy(update={"figures": [*doc.figures, other]})
    values = {f.value for f in RulesSourceFacts().extract(stated).visual[0].image_only_facts}
    assert first.value not in values and values
