"""Judgments for one model at one k: the deterministic judge always, the LLM judge when configured.

When both run, the LLM judge decides (as in the paper) and their agreement is reported. LLM judge
calls go through the shared client, so an unchanged (question, reference, candidate) is never
judged twice.
"""
from __future__ import annotations

from mmeb_assets.evaluation.judge import RULES_JUDGE, judge_llm_batch, judge_prompt, judge_rules
from mmeb_assets.provenance import content_hash, make_provenance
from mmeb_assets.schema.evaluation import AnswerSet, Judgment, JudgmentSet
from mmeb_assets.schema.qa import Benchmark
from mmeb_resources.llm import LLMResource


def build_judgments(answers: AnswerSet, benchmark: Benchmark, judge_llm: LLMResource | None = None) -> JudgmentSet:
    items = {i.id: i for i in benchmark.items}
    missing = [a.question_id for a in answers.answers if a.question_id not in items]
    if missing:
        raise KeyError(f"answers for {answers.model}@k{answers.k}: question ids not in the benchmark: {missing[:5]}")
    qa_items = [items[a.question_id] for a in answers.answers]
    rules = [judge_rules(item, a.answer) for item, a in zip(qa_items, answers.answers)]
    llm_verdicts = judge_llm_batch(judge_llm, qa_items, [a.answer for a in answers.answers]) if judge_llm else None
    judge_name = f"llm:{judge_llm.model}" if judge_llm else RULES_JUDGE
    judgments = []
    for index, (answer, verdict) in enumerate(zip(answers.answers, rules)):
        llm = llm_verdicts[index] if llm_verdicts else None
        decided = llm or verdict
        judgments.append(Judgment(
            question_id=answer.question_id, model=answers.model, k=answers.k, correct=decided.correct,
            reason=decided.reason, judge=judge_name, rules_correct=verdict.correct,
            llm_correct=llm.correct if llm else None, llm_reason=llm.reason if llm else ""))
    n = len(judgments)
    agreement = None
    if llm_verdicts:
        agreement = sum(j.rules_correct == j.llm_correct for j in judgments) / n if n else None
    template_hash = judge_prompt().hash if judge_llm else ""
    return JudgmentSet(
        model=answers.model, k=answers.k, judge=judge_name, judgments=judgments,
        accuracy=sum(j.correct for j in judgments) / n if n else 0.0,
        agreement=agreement, n_compared=n if llm_verdicts else 0,
        provenance=make_provenance("benchmark", "evaluation", judge_name,
                                   model=judge_llm.model if judge_llm else "", prompt_hash=template_hash,
                                   inputs={"answers": content_hash(answers),
                                           "benchmark": content_hash([i.id for i in benchmark.items])}),
    )
