"""The Hugging Face `Features` of every exported config, fixed here so that every build (a project
with no image, a question with no evidence) gives the same schema: an empty list stays
`List(string)`, never `List(null)`; nested objects whose shape varies by kind (validation,
derivation, provenance) travel as their JSON text."""
from __future__ import annotations

from datasets import Features, Image, List, Value

STRING = Value("string")
STRINGS = List(STRING)

QUESTIONS = Features({
    "id": STRING, "project": STRING, "task": STRING, "category": STRING, "q": STRING,
    "answer_status": STRING, "gold_answer": STRING, "gold_value": STRING, "gold_unit": STRING,
    "evidence": STRINGS, "evidence_paths": List(STRINGS),
    "solution": List({"step": STRING, "record_ids": STRINGS}),
    "boundary": STRING, "generator": STRING, "validation_decision": STRING, "validation_category": STRING,
    "validation_rounds": Value("int32"), "n_evidence": Value("int32"), "source_types": STRINGS,
    "evidence_modality": STRING, "n_images": Value("int32"), "evidence_span_hours": Value("float64"),
    "perturbed_from": STRING, "validation": STRING, "derivation": STRING, "provenance": STRING,
})

CORPUS = Features({
    "id": STRING, "project": STRING, "source": STRING, "modality": STRING, "timestamp": STRING,
    "order": Value("int32"), "author": STRING, "channel": STRING, "recipients": STRINGS, "title": STRING,
    "filename": STRING, "page": Value("int32"), "text": STRING, "image": Image(), "image_path": STRING,
    "doc_id": STRING, "version": Value("int32"), "supersedes": STRING, "event_ids": STRINGS,
    "access": STRINGS, "doc_key": STRING, "reply_to": STRING, "provenance": STRING,
})

QRELS = Features({"query_id": STRING, "corpus_id": STRING, "score": Value("int32")})

JUDGMENTS = Features({
    "model": STRING, "k": Value("int32"), "retriever": STRING, "evidence": STRING, "question_id": STRING,
    "answer": STRING, "record_ids": STRINGS, "correct": Value("bool"), "judge": STRING, "reason": STRING,
    "rules_correct": Value("bool"), "llm_correct": Value("bool"), "llm_reason": STRING,
    "sampled": Value("bool"), "provenance": STRING,
})

LEADERBOARD = Features({
    "table": STRING, "model": STRING, "group": STRING, "k": Value("int32"), "retriever": STRING,
    "column": STRING, "n": Value("int32"), "correct": Value("int32"), "accuracy": Value("float64"),
    "ci_low": Value("float64"), "ci_high": Value("float64"), "interval": STRING, "vs_best": STRING,
})

CONFIG_FEATURES: dict[str, Features] = {
    "questions": QUESTIONS, "corpus": CORPUS, "qrels": QRELS, "judgments": JUDGMENTS, "leaderboard": LEADERBOARD,
}
