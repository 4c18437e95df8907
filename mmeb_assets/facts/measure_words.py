"""Which words name a measure: what a column head or a caption must say before a value is asked by it.

Why: a head that names only a split, a condition or a statistic ('dev', '1st Round', 'Mean') leaves
the measure to the caption; one that names a metric ('MAG F1', 'Avg. score') is the measure. Table
naming (`tables`), caption readings (`caption_names`) and row groups ask the same question here.
"""
from __future__ import annotations

import re

METRIC_WORDS = {
    "accuracy", "precision", "recall", "f1", "f-score", "f-measure", "bleu", "bleu-4", "rouge", "rouge-l", "meteor",
    "cider", "bertscore", "score", "scores", "rate", "rates", "ratio", "ratios", "percent", "percentage", "share",
    "count", "counts", "number", "total", "mean", "average", "median", "error", "loss", "time", "latency", "cost",
    "costs", "size", "length", "perplexity", "auc", "map", "mrr", "ndcg", "em", "wer", "cer", "correlation",
    "agreement", "kappa", "value", "values", "amount", "spending", "emissions", "growth", "change", "frequency",
    "freq", "proportion", "probability", "sum", "budget", "revenue", "funding", "population", "rank", "ranking",
    "rating", "ratings", "expenditure", "expenditures", "income", "wealth", "savings", "price", "prices", "%",
    "responses", "votes", "judgments", "judgements", "preferences", "counts", "return", "returns", "yield", "yields",
    "wage", "wages", "earnings", "profit", "profits", "sales",
}
STATISTICS = {"mean", "average", "median", "maximum", "minimum", "max", "min", "total", "std", "skewness", "kurtosis",
              "variance", "st.dev", "sd", "s.d", "stdev"}
PERCENTILE = re.compile(r"^P\d{2}(?:\.\d)?$")  # "P80": a statistic of the caption's measure; "P1" may be a participant
GROUP_ONLY = re.compile(r"^(?:descriptive|summary)\s+statistics$", re.I)  # a spanning head naming no measure
NAMED_METRIC = re.compile(r"\b(?:BLEU|ROUGE|METEOR|CIDEr|chrF|SPICE|BERTScore|F1|F-?score|nDCG|MAP|MRR|AUC|WER|"
                          r"CER|PPL|Pyramid|Acc\.?)(?:-?\d+|@\d+|-[A-Z\d]+)?(?![\w-])")


def names_a_measure(words: str) -> bool:
    """Does a header say what its values measure ('MAG F1', 'Avg. score'), not only which split,
    corpus or condition they are for ('phil', 'dev', 'NOGA')?"""
    tokens = {t.lower().rstrip(".") for t in re.findall(r"[%\w\-]+", words)}
    return bool(tokens & METRIC_WORDS - STATISTICS) or bool(re.search(r"@\d|\(%\)|%", words)) or bool(NAMED_METRIC.search(words))
