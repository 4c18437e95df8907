"""Statistics in the shapes of the paper's Table 3 (c)-(d) and appendix Tables 2-5.

Evidence statistics use the representative gold evidence set of each answerable item.
"""
from __future__ import annotations

import csv
import io
from collections import Counter
from statistics import mean, median

from pydantic import BaseModel

from mmeb_assets.qa.text import word_count
from mmeb_assets.schema import TASK_CATEGORY, TASKS, QAItem

TASK_TITLE = {"extraction": "Extraction", "attribution": "Attribution", "computation": "Computation",
              "comparison": "Comparison", "interpretation": "Interpretation",
              "cross_source_conflict": "Cross-source conflict", "temporal_conflict": "Temporal conflict",
              "unanswerable": "Unanswerability"}
CATEGORY_TITLE = {"ER": "Evidence Reasoning", "CR": "Conflict Resolution", "UNS": "Unanswerability"}
SOURCE_TITLE = {"slack": "Slack messages", "email": "Email", "notion": "Notion entries", "meeting": "Meeting notes",
                "txt": "TXT", "log": "LOG", "pdf_page": "PDF pages", "slide": "Slides", "image": "Standalone images"}


# The paper's Table 3 (d) and appendix Table 4 (shares in %), printed beside ours; a row more than
# PAPER_TOLERANCE points away is marked.
PAPER_3D = {("Evidence size", "1 unit"): 49.1, ("Evidence size", "2 units"): 32.4, ("Evidence size", "3+ units"): 18.5,
            ("Source types", "1"): 69.8, ("Source types", "2"): 25.8, ("Source types", "3+"): 4.4,
            ("Unit modality", "Text only"): 45.4, ("Unit modality", "Visual only"): 36.9,
            ("Unit modality", "Text + visual"): 17.7,
            ("Image units", "0"): 45.4, ("Image units", "1"): 40.7, ("Image units", "2+"): 13.9}
PAPER_4 = {"extraction": (58.2, 37.3, 4.5), "attribution": (97.5, 1.3, 1.3), "computation": (37.1, 49.0, 13.9),
           "comparison": (22.6, 56.1, 21.2), "interpretation": (40.1, 40.9, 19.0),
           "cross_source_conflict": (43.4, 24.1, 32.5), "temporal_conflict": (52.4, 21.2, 26.4),
           "all": (45.4, 36.9, 17.7)}
PAPER_TOLERANCE = 8.0


def beside_paper(n: int, d: int, paper: float) -> list[str]:
    """[our share, the paper's share, '' or '> 8 pts' when they are further apart than the tolerance]."""
    if not d:
        return ["–", f"{paper:.1f}%", ""]
    ours = 100.0 * n / d
    return [f"{ours:.1f}%", f"{paper:.1f}%", f"off {ours - paper:+.1f}" if abs(ours - paper) > PAPER_TOLERANCE else ""]


class StatTable(BaseModel):
    name: str
    title: str
    columns: list[str]
    rows: list[list[str]]

    def to_markdown(self) -> str:
        head = "| " + " | ".join(self.columns) + " |\n|" + "---|" * len(self.columns) + "\n"
        return f"**{self.title}**\n\n" + head + "".join("| " + " | ".join(r) + " |\n" for r in self.rows)

    def to_csv(self) -> str:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(self.columns)
        writer.writerows(self.rows)
        return buffer.getvalue()


class QAStatistics(BaseModel):
    projects: list[str]
    n_questions: int
    tables: list[StatTable]

    def table(self, name: str) -> StatTable:
        return next(t for t in self.tables if t.name == name)


def _pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:.1f}%" if d else "–"


def _answerable(items):
    return [i for i in items if i.answer_status == "answerable" and i.evidence_stats and i.evidence_stats.n_units]


def table_3c(items: list[QAItem]) -> StatTable:
    counts = Counter(TASK_CATEGORY[i.task] for i in items)
    rows = [[CATEGORY_TITLE[c], str(counts[c]), _pct(counts[c], len(items))] for c in ("ER", "CR", "UNS")]
    rows.append(["Total", str(len(items)), _pct(len(items), len(items))])
    return StatTable(name="table3c_questions", title="Table 3 (c) Questions", columns=["Category", "# Q", "Share"], rows=rows)


def table_3d(items: list[QAItem]) -> StatTable:
    ans = _answerable(items)
    n = len(ans)

    def bucket(values, labels):
        c = Counter(values)
        return [[group, label, str(c[label])] + beside_paper(c[label], n, PAPER_3D[(group, label)])
                for group, label in labels]

    size = ["1 unit" if i.evidence_stats.n_units == 1 else "2 units" if i.evidence_stats.n_units == 2 else "3+ units" for i in ans]
    srcs = [str(min(len(i.evidence_stats.source_types), 3)).replace("3", "3+") for i in ans]
    mod = [{"text": "Text only", "visual": "Visual only", "text+visual": "Text + visual"}[i.evidence_stats.modality] for i in ans]
    imgs = [str(min(i.evidence_stats.n_images, 2)).replace("2", "2+") for i in ans]
    rows = (bucket(size, [("Evidence size", b) for b in ("1 unit", "2 units", "3+ units")])
            + bucket(srcs, [("Source types", b) for b in ("1", "2", "3+")])
            + bucket(mod, [("Unit modality", b) for b in ("Text only", "Visual only", "Text + visual")])
            + bucket(imgs, [("Image units", b) for b in ("0", "1", "2+")]))
    return StatTable(name="table3d_evidence", title=f"Table 3 (d) Evidence ({n} answerable questions)",
                     columns=["Group", "Bucket", "# Q", "Share", "Paper", "> 8 pts"], rows=rows)


def table_2(items: list[QAItem]) -> StatTable:
    rows = []
    for task in TASKS:
        group = [i for i in items if i.task == task]
        ans = _answerable(group)
        q_len = f"{mean(word_count(i.q) for i in group):.1f}" if group else "–"
        a_len = f"{mean(word_count(i.gold.answer) for i in group):.1f}" if group else "–"
        if task == "unanswerable" or not ans:
            rows.append([TASK_TITLE[task], str(len(group)), q_len, a_len, "–", "–", "–", "–"])
            continue
        rows.append([TASK_TITLE[task], str(len(group)), q_len, a_len,
                     f"{mean(i.evidence_stats.n_units for i in ans):.2f}",
                     _pct(sum(i.evidence_stats.n_units >= 2 for i in ans), len(ans)),
                     _pct(sum(i.evidence_stats.n_images >= 1 for i in ans), len(ans)),
                     _pct(sum(len(i.evidence_stats.source_types) >= 2 for i in ans), len(ans))])
    if items:
        rows.append(["All questions", str(len(items)), f"{mean(word_count(i.q) for i in items):.1f}",
                     f"{mean(word_count(i.gold.answer) for i in items):.1f}", "–", "–", "–", "–"])
    return StatTable(name="table2_tasks", title="Appendix Table 2: question and answer lengths, gold evidence by task",
                     columns=["Task", "N", "Question", "Answer", "Mean records", "2+ records", "Visual", "2+ sources"],
                     rows=rows)


def table_sources(items: list[QAItem]) -> StatTable:
    multi = [i for i in _answerable(items) if len(i.evidence_stats.source_types) >= 2]
    combos = Counter(" + ".join(SOURCE_TITLE.get(s, s) for s in sorted(i.evidence_stats.source_types,
                                                                      key=lambda s: SOURCE_TITLE.get(s, s)))
                     for i in multi)
    rows = [[combo, str(n), _pct(n, len(multi))] for combo, n in sorted(combos.items(), key=lambda kv: (-kv[1], kv[0]))]
    rows.append(["Total", str(len(multi)), _pct(len(multi), len(multi))])
    return StatTable(name="table3_source_combinations", title="Appendix Table 3: evidence source combinations",
                     columns=["Source combination", "# Q", "Share"], rows=rows)


def table_4(items: list[QAItem]) -> StatTable:
    rows = []
    ans_all = _answerable(items)
    for task in TASKS[:-1]:
        ans = [i for i in ans_all if i.task == task]
        rows.append([TASK_TITLE[task], str(len(ans))] + _modality_cells(ans, PAPER_4[task]))
    rows.append(["All answerable questions", str(len(ans_all))] + _modality_cells(ans_all, PAPER_4["all"]))
    return StatTable(name="table4_modality", title="Appendix Table 4: gold evidence modality by task, ours (paper)",
                     columns=["Task", "# Q", "Text only", "Visual only", "Text + visual", "> 8 pts"], rows=rows)


def _modality_cells(ans: list[QAItem], paper: tuple[float, float, float]) -> list[str]:
    """'45.0% (45.4%)' per modality, and the modalities more than 8 points from the paper."""
    c = Counter(i.evidence_stats.modality for i in ans)
    cells, off = [], []
    for name, key, ref in zip(("text", "visual", "text+visual"), ("text", "visual", "text+visual"), paper):
        ours, theirs, mark = beside_paper(c[key], len(ans), ref)
        cells.append(f"{ours} ({theirs})")
        if mark:
            off.append(f"{name} {mark.removeprefix('off ')}")
    return cells + ["; ".join(off)]


def table_5(items: list[QAItem]) -> StatTable:
    spans = [i.evidence_stats.span_hours for i in _answerable(items) if i.evidence_stats.n_units >= 2]
    n = len(spans)
    edges = [("< 1 h", 0, 1), ("1-6 h", 1, 6), ("6-24 h", 6, 24), ("24-48 h", 24, 48), (">= 48 h", 48, float("inf"))]
    rows = [[label, str(sum(lo <= s < hi for s in spans)), _pct(sum(lo <= s < hi for s in spans), n)] for label, lo, hi in edges]
    rows += [["Median span (h)", f"{median(spans):.1f}" if spans else "–", ""],
             [">= 24 h", str(sum(s >= 24 for s in spans)), _pct(sum(s >= 24 for s in spans), n)],
             [">= 48 h", str(sum(s >= 48 for s in spans)), _pct(sum(s >= 48 for s in spans), n)]]
    return StatTable(name="table5_temporal_span", title=f"Appendix Table 5: temporal span of gold evidence ({n} questions with 2+ records)",
                     columns=["Span", "# Q", "Share"], rows=rows)


def table_projects(items: list[QAItem], projects: list[str]) -> StatTable:
    rows = []
    for project in projects:
        c = Counter(i.task for i in items if i.project == project)
        rows.append([project] + [str(c[t]) for t in TASKS] + [str(sum(c.values()))])
    return StatTable(name="questions_per_project", title="Questions per task and project",
                     columns=["Project"] + [TASK_TITLE[t] for t in TASKS] + ["Total"], rows=rows)


def compute_statistics(items: list[QAItem], projects: list[str]) -> QAStatistics:
    tables = [table_3c(items), table_3d(items), table_2(items), table_sources(items), table_4(items),
              table_5(items), table_projects(items, projects)]
    return QAStatistics(projects=projects, n_questions=len(items), tables=tables)
