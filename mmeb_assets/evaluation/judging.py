"""Judgments for one model at one k: the deterministic judge always, the LLM judge when configured.

When both run, the LLM judge decides (as in the paper) and their agreement is reported. LLM judge
calls go through the shared client, so an unchanged (question, reference, candidate) is never
judged twice.
"""
from __future__ import annotations

from mmeb_assets.judge.llm import (RULES_JUDGE, RULES_JUDGE_VERSION, Verdict, judge_llm_batch, judge_prompt,
                                          judge_rules)
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
    rules = [Verdict(False, f"no_answer: {a.error}", code="no_answer") if a.error else judge_rules(item, a.answer)
             for item, a in zip(qa_items, answers.answers)]
    asked = [i for i, a in enumerate(answers.answers) if not a.error]  # a failed answer needs no LLM judge
    llm_verdicts: dict[int, Verdict] = {}
    if judge_llm and asked:
        found = judge_llm_batch(judge_llm, [qa_items[i] for i in asked], [answers.answers[i].answer for i in asked])
        llm_verdicts = dict(zip(asked, found))
    judge_name = f"llm:{judge_llm.model}" if judge_llm else RULES_JUDGE
    judgments = []
    for index, (answer, verdict) in enumerate(zip(answers.answers, rules)):
        llm = llm_verdicts.get(index)
        decided = llm if llm is not None and llm.ok else verdict
        judgments.append(Judgment(
            question_id=answer.question_id, model=answers.model, k=answers.k, correct=decided.correct,
            reason=decided.reason, judge=judge_name if decided is llm else RULES_JUDGE,
            code=decided.code if decided is verdict else "llm", rules_correct=verdict.correct,
            llm_correct=llm.correct if llm is not None and llm.ok else None, llm_reason=llm.reason if llm else ""))
    n = len(judgments)
    compared = [j for j in judgments if j.llm_correct is not None]
    agreement = sum(j.rules_correct == j.llm_correct for j in compared) / len(compared) if compared else None
    template_hash = judge_prompt().hash if judge_llm else ""
    return JudgmentSet(
        model=answers.model, k=answers.k, judge=judge_name, rules_version=RULES_JUDGE_VERSION, judgments=judgments,
        accuracy=sum(j.correct for j in judgments) / n if n else 0.0,
        agreement=agreement, n_compared=len(compared),
        provenance=make_provenance("benchmark", "evaluation", judge_name,
                                   model=judge_llm.model if judge_llm else "", prompt_hash=template_hash,
                                   code=RULES_JUDGE_VERSION,
                                   inputs={"answers": content_hash(answers),
                                           "benchmark": content_hash([i.id for i in benchmark.items])},
                                   fallbacks=[f"{j.question_id}: rules verdict used ({j.llm_reason[:160]})"
                                              for j in judgments if j.llm_reason and j.llm_correct is None]),
    )
