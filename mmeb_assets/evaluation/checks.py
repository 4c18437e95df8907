"""Checks of the evaluation stage."""

import dagster as dg

from mmeb_assets.evaluation.assets import answers, judgments
from mmeb_assets.schema.evaluation import AnswerSet, JudgmentSet


@dg.asset_check(asset=answers, blocking=True, description="one answer per (sampled) question, no duplicates")
def answers_cover_sample(answers: AnswerSet) -> dg.AssetCheckResult:
    ids = [a.question_id for a in answers.answers]
    expected = answers.sample_size if answers.sample_size is not None else answers.n_questions
    empty = sum(1 for a in answers.answers if not a.answer.strip())
    passed = len(ids) == len(set(ids)) == expected
    return dg.AssetCheckResult(passed=passed, metadata={"answers": len(ids), "expected": expected,
                                                         "duplicates": len(ids) - len(set(ids)), "empty": empty})


@dg.asset_check(asset=judgments, blocking=False, description="every answer is judged; judges agree often")
def judgments_cover_answers(judgments: JudgmentSet) -> dg.AssetCheckResult:
    low_agreement = judgments.agreement is not None and judgments.agreement < 0.7
    return dg.AssetCheckResult(passed=not low_agreement, severity=dg.AssetCheckSeverity.WARN,
                               metadata={"judged": len(judgments.judgments), "judge": judgments.judge,
                                         "agreement": judgments.agreement if judgments.agreement is not None
                                         else "n/a"})
