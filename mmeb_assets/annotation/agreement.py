"""Pure computation of the paper's Table 4 and per-criterion agreement.

Reject: an annotator rejects an item when C1 (derivable) is No, or C2 (answer correct) is No, or C3
finds the answer present in the question (a leak). "Cannot judge" is not a rejection. An item is
human-rejected when at least one of its annotators rejects it.

Per criterion we report (a) agreement between annotators: for every pair of annotators, percent
agreement and Cohen's kappa over the items both judged (labels as given: yes / no / cannot_judge;
absent / present), then the mean over pairs; and (b) agreement with the automatic validation: the
item is flagged on the criterion when any annotator gives the failing label (No / present), compared
with "rejected by the LLM". Kappa is None (undefined) when the chance agreement is 1.
"""
from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from typing import Iterable, Sequence

from pydantic import BaseModel

from mmeb_assets.annotation.db import Judgment
from mmeb_assets.schema.common import Provenance

CRITERIA: dict[str, tuple[str, str]] = {
    "c1": ("C1 derivable from evidence", "no"),
    "c2": ("C2 answer correct", "no"),
    "c3": ("C3 leak (answer in question)", "present"),
}


def is_reject(judgment: Judgment) -> bool:
    return judgment.c1 == "no" or judgment.c2 == "no" or judgment.c3 == "present"


def percent_agreement(a: Sequence[object], b: Sequence[object]) -> float | None:
    if len(a) != len(b):
        raise ValueError(f"label lists differ in length: {len(a)} vs {len(b)}")
    if not a:
        return None
    return 100.0 * sum(x == y for x, y in zip(a, b)) / len(a)


def cohen_kappa(a: Sequence[object], b: Sequence[object]) -> float | None:
    """(p_o - p_e) / (1 - p_e); None when there are no items or p_e == 1 (one label throughout)."""
    if len(a) != len(b):
        raise ValueError(f"label lists differ in length: {len(a)} vs {len(b)}")
    n = len(a)
    if n == 0:
        return None
    observed = sum(x == y for x, y in zip(a, b)) / n
    count_a, count_b = Counter(a), Counter(b)
    expected = sum(count_a[label] * count_b[label] for label in set(count_a) | set(count_b)) / (n * n)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


class Table4Row(BaseModel):
    llm_decision: str
    questions: int
    human_zero_reject: int
    human_any_reject: int

    @property
    def zero_pct(self) -> float | None:
        return 100.0 * self.human_zero_reject / self.questions if self.questions else None

    @property
    def any_pct(self) -> float | None:
        return 100.0 * self.human_any_reject / self.questions if self.questions else None


class PairAgreement(BaseModel):
    criterion: str
    annotator_a: str
    annotator_b: str
    items: int
    percent_agreement: float | None
    kappa: float | None


class CriterionAgreement(BaseModel):
    criterion: str
    label: str
    pairs: int
    pair_items: int
    mean_percent_agreement: float | None
    mean_kappa: float | None
    items_vs_llm: int
    percent_agreement_vs_llm: float | None
    kappa_vs_llm: float | None


class HumanAgreement(BaseModel):
    annotators: list[str]
    reviewers_per_item: int  # the most reviewers any judged item has
    fewest_reviewers: int = 0  # the fewest reviewers a judged item has
    sampled_items: int
    judged_items: int
    table4: list[Table4Row]
    criteria: list[CriterionAgreement]
    pairs: list[PairAgreement]
    notes: list[str] = []
    provenance: Provenance | None = None


def group_by_item(judgments: Iterable[Judgment]) -> dict[str, list[Judgment]]:
    grouped: dict[str, list[Judgment]] = defaultdict(list)
    for judgment in judgments:
        grouped[judgment.item_id].append(judgment)
    return dict(grouped)


def table4(judgments: Iterable[Judgment], decisions: dict[str, str], min_annotators: int = 1) -> list[Table4Row]:
    """Rows Accepted, Rejected, Total over items with a decision and >= min_annotators judgments."""
    counts = {d: [0, 0, 0] for d in ("accepted", "rejected")}
    for item_id, item_judgments in group_by_item(judgments).items():
        decision = decisions.get(item_id)
        if decision not in counts or len(item_judgments) < min_annotators:
            continue
        rejected = any(is_reject(j) for j in item_judgments)
        counts[decision][0] += 1
        counts[decision][2 if rejected else 1] += 1
    rows = [Table4Row(llm_decision=d.capitalize(), questions=c[0], human_zero_reject=c[1], human_any_reject=c[2])
            for d, c in counts.items()]
    rows.append(Table4Row(llm_decision="Total", questions=sum(r.questions for r in rows),
                          human_zero_reject=sum(r.human_zero_reject for r in rows),
                          human_any_reject=sum(r.human_any_reject for r in rows)))
    return rows


def pair_agreements(judgments: Iterable[Judgment]) -> list[PairAgreement]:
    by_annotator: dict[str, dict[str, Judgment]] = defaultdict(dict)
    for judgment in judgments:
        by_annotator[judgment.annotator][judgment.item_id] = judgment
    rows = []
    for criterion in (*CRITERIA, "reject"):
        for a, b in itertools.combinations(sorted(by_annotator), 2):
            shared = sorted(set(by_annotator[a]) & set(by_annotator[b]))
            labels_a = [_label(by_annotator[a][i], criterion) for i in shared]
            labels_b = [_label(by_annotator[b][i], criterion) for i in shared]
            rows.append(PairAgreement(criterion=criterion, annotator_a=a, annotator_b=b, items=len(shared),
                                      percent_agreement=percent_agreement(labels_a, labels_b),
                                      kappa=cohen_kappa(labels_a, labels_b)))
    return rows


def _label(judgment: Judgment, criterion: str) -> object:
    return is_reject(judgment) if criterion == "reject" else getattr(judgment, criterion)


def _mean(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def criterion_agreements(judgments: Sequence[Judgment], decisions: dict[str, str]) -> list[CriterionAgreement]:
    pairs = pair_agreements(judgments)
    grouped = {i: js for i, js in group_by_item(judgments).items() if decisions.get(i) in ("accepted", "rejected")}
    rows = []
    for criterion, (label, failing) in (*CRITERIA.items(), ("reject", ("Any criterion (reject)", True))):
        mine = [p for p in pairs if p.criterion == criterion and p.items]
        flagged = [any(_label(j, criterion) == failing for j in js) for js in grouped.values()]
        llm = [decisions[i] == "rejected" for i in grouped]
        rows.append(CriterionAgreement(
            criterion=criterion, label=label, pairs=len(mine), pair_items=sum(p.items for p in mine),
            mean_percent_agreement=_mean(p.percent_agreement for p in mine),
            mean_kappa=_mean(p.kappa for p in mine), items_vs_llm=len(llm),
            percent_agreement_vs_llm=percent_agreement(flagged, llm), kappa_vs_llm=cohen_kappa(flagged, llm)))
    return rows


def compute_agreement(judgments: Sequence[Judgment], decisions: dict[str, str], *, sampled_items: int,
                      min_annotators: int = 1) -> HumanAgreement:
    grouped = group_by_item(judgments)
    notes = []
    unknown = sorted(i for i in grouped if i not in decisions)
    if unknown:
        notes.append(f"{len(unknown)} judged item(s) have no automatic decision and are left out: "
                     f"{', '.join(unknown[:5])}")
    known = [j for j in judgments if j.item_id in decisions]
    annotators = sorted({j.annotator for j in known})
    per_item = max((len(v) for k, v in grouped.items() if k in decisions), default=0)
    fewest = min((len(v) for k, v in grouped.items() if k in decisions), default=0)
    thin = sum(1 for k, v in grouped.items() if k in decisions and len(v) < len(annotators))
    if thin:
        notes.append(f"{thin} item(s) were judged by fewer than all {len(annotators)} annotators")
    if not known:
        notes.append("no human judgments yet: run `mmeb annotate` and judge some items")
    return HumanAgreement(
        annotators=annotators, reviewers_per_item=per_item, fewest_reviewers=fewest, sampled_items=sampled_items,
        judged_items=sum(1 for k in grouped if k in decisions), table4=table4(known, decisions, min_annotators),
        criteria=criterion_agreements(known, decisions), pairs=pair_agreements(known), notes=notes)


def _pct(count: int, total: int) -> str:
    return f"{count} ({100.0 * count / total:.0f}%)" if total else f"{count} (-)"


def _num(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def table4_markdown(result: HumanAgreement) -> str:
    most, fewest = result.reviewers_per_item, result.fewest_reviewers or result.reviewers_per_item
    reviewers = (f"{most} reviewer{'' if most == 1 else 's'}" if fewest == most
                 else f"{fewest}-{most} reviewers per item")
    lines = [f"| LLM decision | # questions | Human decision ({reviewers}): none rejects "
             f"| Human decision ({reviewers}): at least one rejects |", "| --- | ---: | ---: | ---: |"]
    for row in result.table4:
        lines.append(f"| {row.llm_decision} | {row.questions} | {_pct(row.human_zero_reject, row.questions)} "
                     f"| {_pct(row.human_any_reject, row.questions)} |")
    return "\n".join(lines)


def criteria_markdown(result: HumanAgreement) -> str:
    lines = ["| Criterion | Annotator pairs | Mean % agreement | Mean Cohen's kappa | Items vs LLM "
             "| % agreement with LLM | Kappa with LLM |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for row in result.criteria:
        lines.append(f"| {row.label} | {row.pairs} | {_num(row.mean_percent_agreement, 1)} | {_num(row.mean_kappa)} "
                     f"| {row.items_vs_llm} | {_num(row.percent_agreement_vs_llm, 1)} | {_num(row.kappa_vs_llm)} |")
    return "\n".join(lines)


def markdown(result: HumanAgreement) -> str:
    parts = ["**Table 4: automatic validation vs human decision**", "", table4_markdown(result), "",
             "**Per-criterion agreement**", "", criteria_markdown(result)]
    if result.notes:
        parts += ["", *[f"- {note}" for note in result.notes]]
    return "\n".join(parts)


PAPER_TABLE4 = ("| LLM decision | # questions | Human decision (3 reviewers): 0/3 reject "
                "| Human decision (3 reviewers): >=1/3 reject |\n| --- | ---: | ---: | ---: |\n"
                "| Accepted | 50 | 50 (100%) | 0 (0%) |\n| Rejected | 50 | 21 (42%) | 29 (58%) |\n"
                "| Total | 100 | 71 (71%) | 29 (29%) |")


def table4_csv(result: HumanAgreement) -> str:
    lines = ["llm_decision,questions,human_zero_reject,human_zero_reject_pct,human_any_reject,human_any_reject_pct"]
    for row in result.table4:
        lines.append(f"{row.llm_decision},{row.questions},{row.human_zero_reject},{_num(row.zero_pct, 1)},"
                     f"{row.human_any_reject},{_num(row.any_pct, 1)}")
    return "\n".join(lines) + "\n"


def criteria_csv(result: HumanAgreement) -> str:
    lines = ["criterion,pairs,pair_items,mean_percent_agreement,mean_kappa,items_vs_llm,"
             "percent_agreement_vs_llm,kappa_vs_llm"]
    for r in result.criteria:
        lines.append(f"{r.criterion},{r.pairs},{r.pair_items},{_num(r.mean_percent_agreement, 2)},"
                     f"{_num(r.mean_kappa, 4)},{r.items_vs_llm},{_num(r.percent_agreement_vs_llm, 2)},"
                     f"{_num(r.kappa_vs_llm, 4)}")
    return "\n".join(lines) + "\n"
