"""The measure the running text says a table reports, for heads and captions that never say it.

Why: a results table is often captioned by what it compares ('Results with different weights') and
headed by benchmarks or conditions ('Formula', '1st Round', 'baseline'), while the sentence that
introduces it names the measure: 'Table 6 reports the accuracy of each weighting'. A question that
asks for 'the Formula of the Consistency-heavy weights' names no measure; 'the accuracy (Formula)'
does. Only sentences that cite the table by its number count, and only measure words.
"""
from __future__ import annotations

import re
from collections import Counter

from mmeb_assets.ingestion.numbers import sentences
from mmeb_assets.schema.source import SourceDocument, Table

MEASURE = re.compile(
    r"\b(?:(?:average|mean|overall|top-1|top-5)\s+)?(?:accuracy|accuracies|precision|recall|F1(?:\s+scores?)?|F-scores?|"
    r"BLEU(?:-\d)?|ROUGE(?:-\w+)?|METEOR|perplexity|(?:win|success|error|pass|acceptance|response)\s+rates?|"
    r"exact\s+match|AUC|MRR|nDCG(?:@\d+)?|correlations?|latency|throughput)\b", re.I)


CITED = re.compile(r"\b(?:Table|Tab\.)\s*(\d+)(?!\d|\.\d)")  # 'Table 6', not 'Table 6.2' nor the '1' of 'Table 12'


def _cited(sentence: str) -> set[int]:
    return {int(m.group(1)) for m in CITED.finditer(sentence)}


def introduced_measures(document: SourceDocument) -> dict[int, str]:
    """Table number -> the measure word the sentences citing that table use most (lower case)."""
    numbers = {t.number for t in document.tables if t.number is not None}
    found: dict[int, Counter] = {n: Counter() for n in numbers}
    for page in document.pages:
        for sentence in sentences(" ".join(page.text.split())):
            for number in _cited(sentence) & numbers:
                found[number].update(" ".join(m.group().lower().split()) for m in MEASURE.finditer(sentence))
    return {n: words.most_common(1)[0][0] for n, words in found.items() if words}


def with_introduced(tables: list[Table], measures: dict[int, str]) -> list[Table]:
    return [t.model_copy(update={"measure_hint": measures[t.number]}) if t.number in measures else t for t in tables]
