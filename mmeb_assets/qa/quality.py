"""Per-seed quality of a question set: does it still look like the paper's benchmark on a new seed?

Measured per project: questions per task; among answerable items, the share whose gold evidence spans
3+ records and the share whose evidence comes from 2+ source types (paper Table 3: 18.5% and 30.2%);
the oracle-vs-shortcut gap per task; and how often a cross-source conflict's gold is the value posted
first. The gap compares the diagnostic readers of `judge/readers.py` judged by the rules judge:
the oracle reader (latest mention over the gold evidence) against the better of the first- and
latest-mention readers over a lexical top-k of the project's records (an in-process stand-in for the
retriever, so no index or Dagster run is needed). A task whose shortcut reader beats the oracle can
be solved by position alone; a cross-source gold that is (almost) always the first- or always the
last-posted value leaks position the same way.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from mmeb_assets.judge.llm import judge_rules
from mmeb_assets.judge.readers import read_answer
from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.text import contains_value
from mmeb_assets.schema import TASKS, QAItem, Record

SHORTCUT_K = 10
TARGETS = {"multi_record": 0.18, "multi_source": 0.30, "first_posted_low": 0.40, "first_posted_high": 0.60}
WORD = re.compile(r"[a-z0-9@_.%-]+")


@dataclass
class ReaderScores:
    """Accuracy of the oracle and the two shortcut readers on one task (rules judge)."""
    n: int = 0
    oracle: int = 0
    first: int = 0
    latest: int = 0

    @property
    def gap(self) -> float | None:
        """Oracle accuracy minus the better shortcut's, in points; None without items."""
        if not self.n:
            return None
        return 100.0 * (self.oracle - max(self.first, self.latest)) / self.n


@dataclass
class SeedQuality:
    seed: str
    per_task: dict[str, int]
    n_answerable: int
    n_multi_record: int
    n_multi_source: int
    readers: dict[str, ReaderScores]
    n_conflict_values: int = 0
    n_first_posted: int = 0
    misses: list[str] = field(default_factory=list)

    @property
    def multi_record(self) -> float:
        return self.n_multi_record / self.n_answerable if self.n_answerable else 0.0

    @property
    def multi_source(self) -> float:
        return self.n_multi_source / self.n_answerable if self.n_answerable else 0.0

    @property
    def first_posted(self) -> float | None:
        return self.n_first_posted / self.n_conflict_values if self.n_conflict_values else None


class LexicalRanker:
    """BM25 over each record's title and text: what a retriever would likely put in the top k."""

    def __init__(self, records: list[Record], k1: float = 1.2, b: float = 0.75):
        self.records = records
        self.docs = [Counter(WORD.findall(f"{r.title}\n{r.text}".lower())) for r in records]
        self.lengths = [sum(d.values()) for d in self.docs]
        self.avg = sum(self.lengths) / len(self.lengths) if self.lengths else 1.0
        df = Counter(w for d in self.docs for w in d)
        n = len(records)
        self.idf = {w: math.log(1 + (n - c + 0.5) / (c + 0.5)) for w, c in df.items()}
        self.k1, self.b = k1, b

    def top(self, query: str, k: int) -> list[Record]:
        words = set(WORD.findall(query.lower()))
        scores = []
        for n, (doc, length) in enumerate(zip(self.docs, self.lengths)):
            score = 0.0
            for w in words:
                tf = doc.get(w, 0)
                if tf:
                    norm = tf + self.k1 * (1 - self.b + self.b * length / self.avg)
                    score += self.idf[w] * tf * (self.k1 + 1) / norm
            scores.append((-score, n))
        return [self.records[n] for _, n in sorted(scores)[:k]]


def reader_scores(items: list[QAItem], index: ProjectIndex, k: int = SHORTCUT_K,
                  retrieved_ids: dict[str, list[str]] | None = None) -> dict[str, ReaderScores]:
    """Per task: how many items the oracle and the two shortcut readers answer correctly. The shortcut
    readers read `retrieved_ids[item.id]` (a stored retrieval of the same build) when given, else the
    lexical top k."""
    ranker = LexicalRanker(index.ordered)
    out = {task: ReaderScores() for task in TASKS}
    for item in items:
        gold = [index.by_id[i] for i in item.evidence if i in index.by_id]
        stored = [index.by_id[i] for i in (retrieved_ids or {}).get(item.id, []) if i in index.by_id][:k]
        retrieved = stored or ranker.top(item.q, k)
        scores = out[item.task]
        scores.n += 1
        scores.oracle += judge_rules(item, read_answer(item.q, gold, "latest", sees_pixels=True)).correct
        scores.first += judge_rules(item, read_answer(item.q, retrieved, "first")).correct
        scores.latest += judge_rules(item, read_answer(item.q, retrieved, "latest")).correct
    return out


def _fact_refs(item: QAItem, index: ProjectIndex) -> set[str]:
    """Plan ids the item's fact is about: its items or facts, and the errors that target them."""
    key = item.derivation.fact_key if item.derivation else ""
    refs = {part.partition(":")[0] for part in key.split("|") if part}
    refs |= {e.id for e in index.plan.errors if e.target == key or e.target.partition(":")[0] in refs}
    return refs


def first_posted_value(item: QAItem, index: ProjectIndex) -> str | None:
    """The value of the item's conflict that the project states first, or None when unclear.

    Candidates are the gold value and the competing values; records are those realizing an event or a
    document about the fact (plus the gold evidence), in time order; the first record that shows
    exactly one candidate decides.
    """
    d = item.derivation
    if d is None or not item.gold.value or not d.competing_values:
        return None
    candidates = list(dict.fromkeys([item.gold.value] + d.competing_values))
    refs = _fact_refs(item, index)
    related = {r for r in item.evidence}
    for event in index.plan.events:
        if refs & set(event.refs):
            related |= {r.id for r in index.event_records(event.id)}
    for doc in index.plan.documents:
        if refs & set(doc.item_ids):
            related |= {r.id for r in index.doc_records(doc.id)}
    for record in index.ordered:
        if record.id not in related:
            continue
        shown = [v for v in candidates if contains_value(index.surface(record), v)]
        if len(shown) == 1:
            return shown[0]
    return None


def seed_quality(seed: str, items: list[QAItem], index: ProjectIndex, k: int = SHORTCUT_K,
                 retrieved_ids: dict[str, list[str]] | None = None) -> SeedQuality:
    answerable = [i for i in items if i.answer_status == "answerable" and i.evidence]
    sources = [{index.by_id[e].source for e in i.evidence if e in index.by_id} for i in answerable]
    conflicts = [i for i in items if i.task == "cross_source_conflict" and i.answer_status == "answerable"]
    firsts = [first_posted_value(i, index) for i in conflicts]
    decided = [(i, f) for i, f in zip(conflicts, firsts) if f is not None]
    quality = SeedQuality(
        seed=seed, per_task={t: sum(i.task == t for i in items) for t in TASKS}, n_answerable=len(answerable),
        n_multi_record=sum(len(set(i.evidence)) >= 3 for i in answerable),
        n_multi_source=sum(len(s) >= 2 for s in sources), readers=reader_scores(items, index, k, retrieved_ids),
        n_conflict_values=len(decided), n_first_posted=sum(i.gold.value == f for i, f in decided))
    quality.misses = target_misses(quality)
    return quality


def target_misses(q: SeedQuality) -> list[str]:
    """One line per missed target (empty when the seed meets them all)."""
    misses = []
    if q.multi_record < TARGETS["multi_record"]:
        misses.append(f"3+ records {100 * q.multi_record:.1f}% < {100 * TARGETS['multi_record']:.0f}%")
    if q.multi_source < TARGETS["multi_source"]:
        misses.append(f"2+ sources {100 * q.multi_source:.1f}% < {100 * TARGETS['multi_source']:.0f}%")
    share = q.first_posted
    if share is not None and not TARGETS["first_posted_low"] <= share <= TARGETS["first_posted_high"]:
        misses.append(f"first-posted {100 * share:.0f}% outside 40-60%")
    for task, scores in q.readers.items():
        if scores.gap is not None and scores.gap < 0:
            misses.append(f"{task}: shortcut beats oracle by {-scores.gap:.0f} pts")
    return misses


def selection_bucket(index: ProjectIndex):
    """The mix's bucket: conflict items first by where their gold was posted (first / later / unclear),
    so the kept set does not let position answer them, then by evidence shape; others by evidence size,
    then by family (items read off two or more images as one family), so one prolific family does not
    fill a size.
    Cross-source items take turns between first- and later-posted gold (the target is 40-60%); temporal
    items whose gold is the first-stated version are kept only when nothing else is left. Conflicts read
    off two or more images are a shape of their own, so they take turns too."""
    from mmeb_assets.qa.mix import DEFERRED, evidence_shape, evidence_size, n_images

    def bucket(item: QAItem) -> str:
        if item.task not in ("cross_source_conflict", "temporal_conflict"):
            return f"{evidence_size(item)}|{'images' if n_images(item) >= 2 else item.generator.rpartition(':')[2]}"
        first = first_posted_value(item, index)
        where = "unclear" if first is None else "first" if first == item.gold.value else "later"
        if item.task == "temporal_conflict" and where == "first":
            where = DEFERRED   # the value stated first is what a first-mention shortcut answers
        shape = evidence_shape(item)
        if shape == "plain" and n_images(item) >= 2:
            shape = "images"   # versions read off two screenshots (Table 6's Image 2+ column)
        return f"{where}|{shape}"
    return bucket
