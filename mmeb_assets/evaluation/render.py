"""Markdown, CSV and PNG renderings of the leaderboard (under `<home>/evaluation/reports/`)."""
from __future__ import annotations

import csv
import io
from pathlib import Path

from mmeb_assets.evaluation.report import TABLE6_COLUMNS
from mmeb_assets.evaluation.submitted import SUBMITTED_GROUP, SUBMITTED_K
from mmeb_assets.schema.evaluation import Leaderboard, LeaderboardCell
from mmeb_assets.schema.qa import TASKS
from mmeb_resources.storage import atomic_write_bytes, atomic_write_text

TASK_LABELS = {"extraction": "Extraction", "attribution": "Attr.", "computation": "Comput.",
               "comparison": "Compar.", "interpretation": "Interp.", "cross_source_conflict": "Cross-source",
               "temporal_conflict": "Temporal", "unanswerable": "UNS", "overall": "Overall"}
T6_LABELS = {"text:1": "Text 1", "text:2+": "Text 2+", "visual:1": "Image 1", "visual:2+": "Image 2+",
             "text+visual:2+": "Text+Image 2+"}
GROUPS = (("proprietary", "Proprietary models"), ("open-source", "Open-source models"),
          ("offline", "Offline models (CPU)"), ("diagnostic", "Diagnostic readers (no model)"),
          (SUBMITTED_GROUP, "Submitted systems (mmeb score; own retrieval)"))
CSV_FIELDS = ("table", "model", "group", "k", "retriever", "column", "n", "correct", "accuracy", "ci_low", "ci_high",
              "interval", "vs_best")
RETRIEVAL_METRICS = (("recall@10", "Recall@10"), ("recall@50", "Recall@50"), ("recall@100", "Recall@100"),
                     ("ndcg@10", "nDCG@10"), ("mrr", "MRR"))
LEGEND = ("Cells: accuracy % (95% interval: bootstrap of 10,000 resamples seeded from the question ids, so the "
          "same outcomes give the same interval in every table; Wilson score interval under 30 questions and where all or none are right). "
          "**Bold**: the best model of the column, when it scores above 0 (gold-evidence readers left out); ≈: its difference to the best "
          "is not significant (paired bootstrap, 95%).")


def fmt(cell: LeaderboardCell | None) -> str:
    if cell is None or cell.n == 0:
        return "–"
    value = f"**{cell.accuracy:.1f}**" if cell.vs_best == "best" else f"{cell.accuracy:.1f}"
    return f"{value} ({cell.ci_low:.1f}–{cell.ci_high:.1f})" + (" ≈" if cell.vs_best == "ns" else "")


def _index(board: Leaderboard, table: str) -> dict[tuple[str, int, str], LeaderboardCell]:
    return {(c.model, c.k, c.column): c for c in board.cells if c.table == table}


def _model_label(board: Leaderboard, model: str) -> str:
    return f"{model} † (n={board.sampled[model]})" if model in board.sampled else model


def _grouped_models(board: Leaderboard, table: str, k: int) -> list[tuple[str, list[str]]]:
    seen: dict[str, list[str]] = {}
    for cell in board.cells:
        if cell.table == table and cell.k == k and cell.model not in seen.get(cell.group, []):
            seen.setdefault(cell.group, []).append(cell.model)
    return [(label, seen[g]) for g, label in GROUPS if g in seen] + \
        [(g, models) for g, models in seen.items() if g not in dict(GROUPS)]


def _table_ks(board: Leaderboard, table: str) -> list[int]:
    """The k of each printed table: the built-in runs' k values (a submitted system's rows, at its own
    depth, stand under each); SUBMITTED_K alone when only submitted systems were scored."""
    ks = {c.k for c in board.cells if c.table == table and c.group != SUBMITTED_GROUP}
    if not ks:
        ks = {c.k for c in board.cells if c.table == table}
    return sorted(ks)


def _model_rows(board: Leaderboard, table: str, k: int, columns) -> list[list[str]]:
    """Group heading rows and one row per model at k, then the submitted systems (at SUBMITTED_K)."""
    index = _index(board, table)
    groups = [(label, models, k) for label, models in _grouped_models(board, table, k)]
    if k != SUBMITTED_K:
        groups += [(label, models, SUBMITTED_K) for label, models in _grouped_models(board, table, SUBMITTED_K)]
    rows = []
    for label, models, at in groups:
        rows.append([f"*{label}*"] + [""] * len(columns))
        rows += [[_model_label(board, m)] + [fmt(index.get((m, at, c))) for c in columns] for m in models]
    return rows


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def table5_md(board: Leaderboard, counts: dict[str, int]) -> str:
    columns = list(TASKS) + ["overall"]
    parts = []
    for k in _table_ks(board, "table5"):
        rows = [["# questions"] + [str(counts.get(c, 0)) for c in columns]] + _model_rows(board, "table5", k, columns)
        parts.append(f"### Table 5 — accuracy (%) by task, k = {k} retrieved records\n\n"
                     + _md_table(["Model"] + [TASK_LABELS[c] for c in columns], rows))
    return "\n\n".join(parts)


def table6_md(board: Leaderboard, counts: dict[str, int]) -> str:
    ks = _table_ks(board, "table6")
    if not ks:
        return ""
    k = 10 if 10 in ks else ks[0]
    rows = [["# questions"] + [str(counts.get(c, 0)) for c in TABLE6_COLUMNS]]
    rows += _model_rows(board, "table6", k, TABLE6_COLUMNS)
    return (f"### Table 6 — accuracy (%) by gold evidence count and modality, k = {k}\n\n"
            + _md_table(["Model"] + [T6_LABELS[c] for c in TABLE6_COLUMNS], rows))


def retrieval_md(retrieval: dict[str, dict[str, float]]) -> str:
    """One row per retriever: evidence Recall@10/50/100, nDCG@10 and MRR (%)."""
    if not retrieval:
        return ""
    rows = [[name] + [_pct(metrics.get(key)) for key, _ in RETRIEVAL_METRICS] for name, metrics in retrieval.items()]
    return _md_table(["Retriever"] + [label for _, label in RETRIEVAL_METRICS], rows)


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def table7_md(board: Leaderboard) -> str:
    cells = [c for c in board.cells if c.table == "table7"]
    columns = sorted({(c.k, c.retriever) for c in cells})
    parts = []
    if board.retrieval:
        parts.append("### Table 7a — retrieval: evidence Recall@k, nDCG@10 and MRR (%) per retriever\n\n"
                     + retrieval_md(board.retrieval) + "\n\nOver answerable questions with gold evidence; relevance is "
                     "binary (a gold evidence record); MRR over the top 100.")
    if columns:
        index = {(c.model, c.k, c.retriever): c for c in cells}
        header = ["Retriever / k"] + [f"{r} k={k}" for k, r in columns]
        rows = [["Evidence Recall@k"] + [_pct(board.recall.get(r, {}).get(str(k))) for k, r in columns]]
        k0 = columns[0][0]
        for label, models in _grouped_models(board, "table7", k0):
            rows.append([f"*{label}*"] + [""] * len(columns))
            rows += [[_model_label(board, m)] + [fmt(index.get((m, k, r))) for k, r in columns] for m in models]
        parts.append("### Table 7b — evidence Recall@k and overall accuracy (%) per retriever and k\n\n"
                     + _md_table(header, rows))
    return "\n\n".join(parts)


def robustness_md(board: Leaderboard) -> str:
    if not board.robustness:
        return ""
    rows = [[r["model"], str(r["k"]), str(r["probes"]), f"{r['echoed']} ({100 * r['echoed'] / r['probes']:.0f}%)",
             str(r["changed"]), ", ".join(r["echoed_kinds"]) or "–"] for r in board.robustness]
    return ("### Robustness — injected records (answers echoing a planted value)\n\n"
            + _md_table(["Model", "k", "probes", "echoed planted value", "answer changed", "echoed by"], rows))


def leaderboard_markdown(board: Leaderboard, counts: dict[str, int]) -> str:
    notes = "\n".join(f"- {n}" for n in board.notes)
    body = "\n\n".join(p for p in (table5_md(board, counts), table6_md(board, counts), table7_md(board),
                                    robustness_md(board)) if p)
    return f"# MMEB leaderboard\n\n{LEGEND}\n\n{notes}\n\n{body}\n"


def cells_csv(cells: list[LeaderboardCell]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for cell in cells:
        writer.writerow({f: getattr(cell, f) for f in CSV_FIELDS})
    return buffer.getvalue()


def _bar_plot(path: Path, title: str, groups: list[str], series: dict[str, list[LeaderboardCell | None]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(max(6.0, 1.1 * len(groups) * max(1, len(series)) ** 0.5), 4.2))
    width = 0.8 / max(1, len(series))
    for offset, (name, cells) in enumerate(series.items()):
        xs = [i + offset * width for i in range(len(groups))]
        acc = [c.accuracy if c and c.n else 0.0 for c in cells]
        err = [[max(0.0, a - (c.ci_low if c and c.n else a)) for a, c in zip(acc, cells)],
               [max(0.0, (c.ci_high if c and c.n else a) - a) for a, c in zip(acc, cells)]]
        ax.bar(xs, acc, width, yerr=err, capsize=2, label=name)
    ax.set_xticks([i + width * (len(series) - 1) / 2 for i in range(len(groups))])
    ax.set_xticklabels(groups, rotation=25, ha="right", fontsize=8)
    ax.set_ylabel("accuracy (%)")
    ax.set_ylim(0, 100)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7)
    _save_png(fig, path)


def _save_png(fig, path: Path) -> None:
    """Deterministic bytes (no software stamp), written atomically."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, metadata={"Software": None})
    plt.close(fig)
    atomic_write_bytes(path, buffer.getvalue())


def _recall_plot(path: Path, board: Leaderboard) -> bool:
    """Table 7b as a picture: overall accuracy against evidence Recall@k, one line per model and retriever."""
    cells = [c for c in board.cells if c.table == "table7" and c.n]
    lines: dict[str, list[tuple[float, float]]] = {}
    for cell in cells:
        recall = board.recall.get(cell.retriever, {}).get(str(cell.k))
        if recall is not None:
            lines.setdefault(f"{cell.model} ({cell.retriever})", []).append((recall, cell.accuracy))
    if not lines:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for name, points in sorted(lines.items()):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=name)
    ax.set_xlabel("evidence Recall@k (%) — k = 10, 50, 100")
    ax.set_ylabel("overall accuracy (%)")
    ax.set_ylim(0, 100)
    ax.set_title("Recall@k vs accuracy (Table 7b)", fontsize=10)
    ax.legend(fontsize=7)
    _save_png(fig, path)
    return True


def write_reports(board: Leaderboard, counts: dict[str, int], folder: Path) -> dict[str, str]:
    """Markdown, one CSV per table, and PNG plots; returns name -> path."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {"markdown": folder / "leaderboard.md"}
    atomic_write_text(files["markdown"], leaderboard_markdown(board, counts))
    for table in ("table5", "table6", "table7"):
        files[f"{table}_csv"] = folder / f"{table}.csv"
        atomic_write_text(files[f"{table}_csv"], cells_csv([c for c in board.cells if c.table == table]))
    builtin = [c for c in board.cells if c.group != SUBMITTED_GROUP]  # the plots show the built-in runs' k values
    ks = sorted({c.k for c in builtin})
    models = sorted({c.model for c in builtin})
    overall = _index(board, "table5")
    if models:
        files["overall_png"] = folder / "overall_accuracy.png"
        _bar_plot(files["overall_png"], "Overall accuracy by model and k (95% interval)", models,
                  {f"k={k}": [overall.get((m, k, "overall")) for m in models] for k in ks})
        t6 = _index(board, "table6")
        k6 = 10 if 10 in ks else ks[0]
        files["table6_png"] = folder / "evidence_modality.png"
        _bar_plot(files["table6_png"], f"Accuracy by gold evidence count and modality (k={k6})",
                  [T6_LABELS[c] for c in TABLE6_COLUMNS],
                  {m: [t6.get((m, k6, c)) for c in TABLE6_COLUMNS] for m in models})
        if _recall_plot(folder / "recall_vs_accuracy.png", board):
            files["table7_png"] = folder / "recall_vs_accuracy.png"
    return {name: str(path) for name, path in files.items()}
