"""What a table's caption adds to a column's name, where the header alone does not say it.

Statistical reports print short column heads ('No.', 'Rate') and put the measure in the caption
('Number of deaths and age-specific death rates for stroke ...'), and often print twin tables with
the same columns, one per topic (coronary heart disease, then stroke). A question that names the
value 'White Rate' cannot say which table it means; 'death rate (White) for stroke' can.
"""
from __future__ import annotations

import re
from difflib import SequenceMatcher

from mmeb_assets.facts.measure_words import names_a_measure
from mmeb_assets.schema.source import Table, caption_title
COUNT_HEADS = {"no", "n", "number", "#", "count"}
RATE_HEADS = {"rate", "rates", "ratio", "ratios", "share", "index", "score"}
NOT_A_QUALIFIER = {"and", "or", "the", "a", "an", "of", "for", "by", "in", "with", "per", "to", "at", "on"}
MAX_TOPIC_WORDS = 6


def _caption(table: Table) -> str:
    return caption_title(table.caption)


def expanded_head(table: Table, head: str) -> str:
    """The caption's own phrase for a short column head: 'No.' -> 'number of deaths' where the
    caption says 'number of deaths'; 'Rate' -> 'death rate' where it says 'age-specific death
    rates'; '' when the caption does not name it."""
    key = head.strip().lower().rstrip(".")
    caption = _caption(table)
    if key in COUNT_HEADS:
        match = re.search(r"\bnumbers? of ([a-z][\w-]+)", caption, re.I)
        if match and match.group(1).lower() not in NOT_A_QUALIFIER:
            return f"number of {match.group(1).lower()}"
    if key in RATE_HEADS:
        stem = key.rstrip("s")
        for match in re.finditer(rf"\b([a-z][\w-]+) {stem}s?\b", caption, re.I):
            if match.group(1).lower() not in NOT_A_QUALIFIER:
                return f"{match.group(1).lower()} {stem}"
    return ""


def _leaves(table: Table) -> list[str]:
    return [p[-1].strip().lower() for p in table.column_paths if p]


def _twins(a: Table, b: Table) -> bool:
    """Two results tables printed with the same value columns (twin layouts for two topics)."""
    if a.id == b.id or a.number is not None and a.number == b.number or a.kind != "results" or b.kind != "results":
        return False
    left, right = _leaves(a), _leaves(b)
    return len(left) >= 2 and len(left) == len(right) and sum(x == y for x, y in zip(left, right)) >= 0.8 * len(left)


def _own_words(caption: str, other: str) -> str:
    """The run of words `caption` has where `other` has others ('coronary heart disease' against
    'stroke'); '' when they differ in more than one place or by too much."""
    mine, theirs = caption.split(), other.split()
    runs = [mine[i1:i2] for tag, i1, i2, _j1, _j2 in SequenceMatcher(a=mine, b=theirs, autojunk=False).get_opcodes()
            if tag in ("replace", "delete")]
    if len(runs) != 1:
        return ""
    words = [w.strip(",;:") for w in runs[0] if w.strip(",;:")]
    while words and words[0].lower() in NOT_A_QUALIFIER:
        words = words[1:]
    while words and words[-1].lower() in NOT_A_QUALIFIER:
        words = words[:-1]
    if not words or len(words) > MAX_TOPIC_WORDS or not re.search(r"[A-Za-z]{3,}", " ".join(words)):
        return ""
    return " ".join(words)


def with_topics(tables: list[Table]) -> list[Table]:
    """Each table with `topic` set where a twin table shares its columns: the words of its caption
    that the twin's caption lacks, unless the column headers already say them (twins split by race
    and by Hispanic ethnicity differ in what their columns name, not in topic)."""
    out = []
    for table in tables:
        headers = set(re.findall(r"[a-z]{4,}", " ".join(" ".join(p) for p in table.column_paths).lower()))
        for other in tables:
            topic = _own_words(_caption(table), _caption(other)) if _twins(table, other) else ""
            if topic and not set(re.findall(r"[a-z]{4,}", topic.lower())) & headers:
                table = table.model_copy(update={"topic": topic})
                break
        out.append(table)
    return out


BENCHMARK = re.compile(r"\b(?:on)\s+(?:the\s+)?((?:[A-Z][a-z]*[A-Z\d][\w.\-]*|[A-Z]+-[\w.\-]+)"
                       r"(?:\s+(?:v\d[\w.]*|\d[\w.]*))?)(?=[\s,.;:)]|$)")


def caption_benchmark(table: Table) -> str:
    """The benchmark or dataset a caption says its values were measured on, when its name is a
    coined one ('MT-Bench', 'SQuAD', 'HumanEval', 'GLUE'): the measure of a table whose heads name
    only rounds or conditions ('1st Round', 'Avg.') is its result there. One benchmark only, and only
    where the caption names no measure of its own ('Accuracy and throughput on ChartBench-S' names two)."""
    caption = caption_title(table.caption)
    if names_a_measure(caption):
        return ""
    found = {m.group(1).rstrip(".") for m in BENCHMARK.finditer(caption)}
    return found.pop() if len(found) == 1 else ""
