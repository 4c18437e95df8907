"""`mmeb judge --questions Q.jsonl --answers A.jsonl --out V.jsonl [--judge rules|<model>] [--explain]`.

Judges any system's answers against the benchmark's questions: the strict rules judge by default, or a
model of the registry (config/models.yaml) through the LLM judge path. Bad input stops with one line
naming the file, the line and the field (exit 2).
"""
from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from mmeb_assets.judge.llm import RULES_JUDGE


def _cmd_judge(args: argparse.Namespace) -> int:
    from mmeb_assets.evaluation.judge_files import judge_answers, read_questions
    from mmeb_assets.evaluation.submission import SubmissionError, read_answers
    from mmeb_resources.storage import atomic_write_jsonl

    try:
        items = read_questions(Path(args.questions))
        answers = read_answers(Path(args.answers), {i.id for i in items})
    except SubmissionError as exc:
        print(f"mmeb judge: {exc}", file=sys.stderr)
        return 2
    try:
        with _judge_client(args.judge) as llm:
            verdicts = judge_answers(items, answers, llm)
    except KeyError as exc:
        print(f"mmeb judge: --judge: {exc.args[0]}", file=sys.stderr)
        return 2
    atomic_write_jsonl(Path(args.out), [v.row() for v in verdicts])
    if args.explain:
        from mmeb_assets.evaluation.judge_explain import explain_line
        by_id = {i.id: i for i in items}
        for v in verdicts:
            print(explain_line(by_id[v.id], answers.get(v.id), v))
    missing = [v.id for v in verdicts if v.code == "no_answer" and v.id not in answers]
    if missing:
        print(f"{len(missing)} question(s) had no answer (judged wrong): {', '.join(missing)}", file=sys.stderr)
    n, right = len(verdicts), sum(v.correct for v in verdicts)
    judges = sorted({v.judge for v in verdicts})
    print(f"judged {n} question(s): {right} correct ({100.0 * right / n:.1f}%), judge {', '.join(judges)} "
          f"-> {args.out}")
    return 0


@contextlib.contextmanager
def _judge_client(name: str):
    if name == RULES_JUDGE:
        yield None
        return
    from mmeb_assets.evaluation.answering import model_client
    from mmeb_resources.model_registry import load_registry
    from mmeb_resources.storage import default_home

    spec = load_registry().get(name)
    with model_client(spec, default_home()) as llm:
        yield llm


def register(subparsers) -> None:
    judge = subparsers.add_parser("judge", help="judge a system's answers (JSONL) against the benchmark questions")
    judge.add_argument("--questions", required=True, help="questions.jsonl as the benchmark writes it")
    judge.add_argument("--answers", required=True, help='JSONL of {"id": ..., "answer": ...}')
    judge.add_argument("--out", required=True, help='verdicts, JSONL of {"id", "correct", "reason", "code", "judge"}')
    judge.add_argument("--judge", default=RULES_JUDGE,
                       help="'rules' (default: the strict rules judge) or a model name of config/models.yaml")
    judge.add_argument("--explain", action="store_true",
                       help="print, per answer, the verdict, its reason code and the gold parts it matched or missed")
    judge.set_defaults(func=_cmd_judge)
