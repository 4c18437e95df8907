"""Evidence Recall@k, grouped as in the paper (Table 7 recall row, plus task and modality breakdowns).

Definition. For an answerable question q with gold evidence set G_q (`QAItem.evidence`, record ids)
and retrieved list R_q (best first), recall_q@k = |G_q ∩ R_q[:k]| / |G_q|. Evidence Recall@k of a
group is the mean of recall_q@k over the answerable questions of that group that have at least one
gold record; unanswerable questions (no gold evidence) are left out. Gold ids absent from the corpus
count as not retrieved. The groups: overall; category (ER, CR); task type; gold-evidence modality
(text only, visual only, text + visual, from the corpus records' `modality`); evidence size (1, 2+).
"""
from __future__ import annotations

import csv
import io
from typing import Mapping, Sequence

from mmeb_assets.schema.qa import TASK_CATEGORY, TASKS, QAItem

KS: tuple[int, ...] = (10, 50, 100)
RECALL_DEFINITION = ("Recall@k = mean over answerable questions with gold evidence of "
                     "|gold ∩ top-k| / |gold| (gold = QAItem.evidence record ids)")
MODALITY_GROUPS = {"text": "Text only", "visual": "Visual only", "text+visual": "Text + visual"}


def evidence_modality(evidence: Sequence[str], modality_by_id: Mapping[str, str]) -> str:
    kinds = {modality_by_id.get(rid, "missing") for rid in evidence}
    kinds.discard("missing")
    if kinds == {"text"}:
        return "text"
    if kinds == {"visual"}:
        return "visual"
    return "text+visual" if kinds else "missing"


def question_recall(evidence: Sequence[str], retrieved: Sequence[str], k: int) -> float:
    gold = set(evidence)
    return len(gold & set(retrieved[:k])) / len(gold)


def groups_of(item: QAItem, modality_by_id: Mapping[str, str]) -> list[str]:
    size = "1" if len(set(item.evidence)) == 1 else "2+"
    return ["overall", f"category:{TASK_CATEGORY[item.task]}", f"task:{item.task}",
            f"modality:{evidence_modality(item.evidence, modality_by_id)}", f"evidence:{size}"]


def recall_by_group(items: Sequence[QAItem], retrieved: Mapping[str, Sequence[str]],
                    modality_by_id: Mapping[str, str], ks: Sequence[int] = KS
                    ) -> tuple[dict[str, dict[str, float]], dict[str, int]]:
    """({str(k): {group: Recall@k}}, {group: number of questions}); questions missing from
    `retrieved` count as retrieving nothing."""
    sums: dict[str, dict[int, float]] = {}
    counts: dict[str, int] = {}
    for item in items:
        if item.answer_status != "answerable" or not item.evidence:
            continue
        ranked = list(retrieved.get(item.id, []))
        for group in groups_of(item, modality_by_id):
            counts[group] = counts.get(group, 0) + 1
            row = sums.setdefault(group, {k: 0.0 for k in ks})
            for k in ks:
                row[k] += question_recall(item.evidence, ranked, k)
    recall = {str(k): {g: round(sums[g][k] / counts[g], 6) for g in _ordered(counts)} for k in ks}
    return recall, {g: counts[g] for g in _ordered(counts)}


def _ordered(groups: Mapping[str, int]) -> list[str]:
    order = ["overall", "category:ER", "category:CR", *[f"task:{t}" for t in TASKS],
             *[f"modality:{m}" for m in (*MODALITY_GROUPS, "missing")], "evidence:1", "evidence:2+"]
    return [g for g in order if g in groups] + sorted(g for g in groups if g not in order)


def group_label(group: str) -> str:
    kind, _, value = group.partition(":")
    if kind == "overall":
        return "Overall"
    if kind == "task":
        return "  " + value.replace("_", "-").capitalize()
    if kind == "modality":
        return "  " + MODALITY_GROUPS.get(value, "Gold not in corpus")
    if kind == "evidence":
        return f"  {value} gold record{'s' if value != '1' else ''}"
    return "  " + value


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}"


def recall_markdown(retriever: str, recall: Mapping[str, Mapping[str, float]], counts: Mapping[str, int]) -> str:
    ks = list(recall)
    lines = [f"### Evidence Recall@k — retriever `{retriever}`", "",
             "| Retriever | " + " | ".join(f"k = {k}" for k in ks) + " |",
             "|---|" + "---:|" * len(ks),
             f"| {retriever} | " + " | ".join(_pct(recall[k].get("overall")) for k in ks) + " |", "",
             "| Group | n | " + " | ".join(f"R@{k}" for k in ks) + " |",
             "|---|---:|" + "---:|" * len(ks)]
    headers = {"category": "**By category**", "task": "**By task type**", "modality": "**By gold-evidence modality**",
               "evidence": "**By gold-evidence size**"}
    seen: set[str] = set()
    for group, n in counts.items():
        kind = group.split(":")[0]
        if kind in headers and kind not in seen:
            seen.add(kind)
            lines.append(f"| {headers[kind]} | | " + " | ".join("" for _ in ks) + " |")
        lines.append(f"| {group_label(group)} | {n} | " + " | ".join(_pct(recall[k].get(group)) for k in ks) + " |")
    lines += ["", f"{RECALL_DEFINITION}; values in %. Unanswerable questions are excluded."]
    return "\n".join(lines) + "\n"


def recall_csv(retriever: str, recall: Mapping[str, Mapping[str, float]], counts: Mapping[str, int]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["retriever", "group", "n", *[f"recall@{k}" for k in recall]])
    for group, n in counts.items():
        writer.writerow([retriever, group, n, *[f"{recall[k][group]:.6f}" for k in recall]])
    return out.getvalue()


def table7_row(overall: Mapping[str, Mapping[str, float]]) -> str:
    """The paper's Table 7 recall row over several retrievers: {retriever: {k: Recall@k}} ->
    markdown with a column per (k, retriever), retrievers side by side within each k."""
    retrievers = list(overall)
    ks = sorted({k for row in overall.values() for k in row}, key=int)
    head = "| Retriever | " + " | ".join(f"k = {k} · {r}" for k in ks for r in retrievers) + " |"
    rule = "|---|" + "---:|" * (len(ks) * len(retrievers))
    cells = " | ".join(_pct(overall[r].get(k)) for k in ks for r in retrievers)
    return "\n".join([head, rule, f"| Evidence Recall@k | {cells} |"]) + "\n"


def read_overall(csv_text: str) -> dict[str, float]:
    """{k: overall Recall@k} from a recall.csv written by `recall_csv`."""
    rows = list(csv.DictReader(io.StringIO(csv_text)))
    for row in rows:
        if row["group"] == "overall":
            return {key.split("@")[1]: float(value) for key, value in row.items() if key.startswith("recall@")}
    return {}
