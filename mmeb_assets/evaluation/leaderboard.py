"""Gather every model x k run, compute the tables, write the reports, say what they rest on."""
from __future__ import annotations

from pathlib import Path

from mmeb_resources.model_registry import Registry
from mmeb_assets.evaluation.render import write_reports, leaderboard_markdown
from mmeb_assets.evaluation.report import Run, compute_cells, question_counts, recall_table
from mmeb_assets.evaluation.submitted import SUBMITTED_GROUP, submitted_retrieval, submitted_runs
from mmeb_assets.provenance import content_hash, make_provenance
from mmeb_assets.schema.evaluation import AnswerSet, JudgmentSet, Leaderboard
from mmeb_assets.schema.qa import Benchmark
from mmeb_assets.schema.records import Corpus
from mmeb_resources.io_manager import _load as load_envelope, envelope_text
from mmeb_resources.storage import atomic_write_text


def load_runs(home: Path, keys: list[tuple[str, int]], registry: Registry | None = None) -> tuple[list[Run], list[str]]:
    """The stored answers + judgments of each (model, k); partitions not materialized are listed."""
    runs, missing = [], []
    for model, k in keys:
        folder = home / "evaluation" / model / f"k{k}"
        if not (folder / "judgments.json").exists() or not (folder / "answers.json").exists():
            missing.append(f"{model}@k{k}")
            continue
        answers = load_envelope(folder / "answers.json")
        judgments = load_envelope(folder / "judgments.json")
        if not isinstance(answers, AnswerSet) or not isinstance(judgments, JudgmentSet):
            raise TypeError(f"{folder}: expected AnswerSet and JudgmentSet files")
        group = ""
        if registry is not None:
            try:
                group = registry.get(model).group
            except KeyError:
                group = "other"
        runs.append(Run(answers=answers, judgments=judgments, group=group))
    return runs, missing


def describe(runs: list[Run], missing: list[str]) -> tuple[dict[str, int], dict[str, float], list[str]]:
    """(sampled model -> n, 'model@k' -> judge agreement, notes for the report)."""
    kept = sorted(r.answers.model for r in runs if r.group == SUBMITTED_GROUP)
    runs = [r for r in runs if r.group != SUBMITTED_GROUP]
    sampled = {r.answers.model: len(r.answers.answers) for r in runs if r.answers.sample_size is not None}
    agreement = {f"{r.answers.model}@k{r.answers.k}": round(100 * r.judgments.agreement, 1)
                 for r in runs if r.judgments.agreement is not None}
    notes = []
    judges = sorted({r.judgments.judge for r in runs})
    versions = sorted({r.judgments.rules_version for r in runs if r.judgments.rules_version})
    notes.append("Judge: " + ", ".join(judges) + (f"; rules verdicts by {', '.join(versions)}" if versions else "") +
                 (" (strict rules judge: whole-name entities, numbers at the stated precision, units converted, "
                  "direction, every list component, no hedges or superseded values, abstention only on "
                  "unanswerable questions; agreement with people measured by bench/bench_judge.py)"
                  if judges == ["rules"] else ""))
    if agreement:
        notes.append("Agreement of the LLM judge with the deterministic judge: " +
                     ", ".join(f"{key} {value:.1f}%" for key, value in sorted(agreement.items())))
    for model, n in sorted(sampled.items()):
        run = next(r for r in runs if r.answers.model == model)
        cap = f"; prompt capped at {run.answers.max_prompt_tokens} tokens: it sees the top-ranked records that " \
              f"fit, so a larger k may add nothing" if run.answers.max_prompt_tokens else ""
        notes.append(f"† {model}: a fixed stratified sample of {n} of {run.answers.n_questions} questions "
                     f"(the same questions at every k){cap}; its intervals are wide.")
    readers = sorted({r.answers.model for r in runs if r.answers.backend == "reader"})
    if readers:
        notes.append("Diagnostic readers (" + ", ".join(readers) + ") use no model: each answers with the latest "
                     "(reader-latest-mention) or first (reader-first-mention) mention of a value of the asked kind on "
                     "the retrieved lines that best match the question; reader-oracle does the same on the gold "
                     "evidence records instead of the retrieval. They copy a stated value and nothing more: no "
                     "arithmetic, comparison, attribution or interpretation, and no reading of values that live only "
                     "in an image's pixels, so they score on extraction and little else; reader-oracle is a ceiling "
                     "for retrieval, not for reading, and is left out of Table 7. A high reader score on another "
                     "task marks a shortcut in the questions.")
    text_only = sorted({r.answers.model for r in runs if not r.answers.vision and r.answers.backend != "reader"})
    if text_only:
        notes.append("Text-only (images not passed; visual records as stored text): " + ", ".join(text_only))
    retrievers = sorted({r.answers.retriever for r in runs})
    sources = sorted({r.answers.recall_source for r in runs if r.answers.recall_source})
    source = {"retrievals": "the retrieval stage's 'overall' evidence recall",
              "computed": "mean per-question share of gold evidence in the top k"}
    notes.append("Retrieval: " + ", ".join(retrievers) + "; Recall@k over answerable questions = " +
                 " / ".join(source.get(s, s) for s in sources) + ". Answers are computed with one retriever at a "
                 "time (config/retrievers.yaml `answering`; `best`, the default, takes this build's best by Recall@10; MMEB_EVAL_RETRIEVER "
                 "overrides it); Table 7 shows every retriever the stored answers used.")
    failed = {f"{r.answers.model}@k{r.answers.k}": sum(1 for a in r.answers.answers if a.error) for r in runs}
    if any(failed.values()):
        notes.append("Answers that failed (request failed for good, refused or empty; judged wrong): " +
                     ", ".join(f"{key} {n}" for key, n in sorted(failed.items()) if n))
    if any(r.answers.injection for r in runs):
        notes.append("Robustness: per model and k, a few questions are answered again with one planted record that "
                     "instructs the reader (ignore the question / the correct answer is / a fake system prompt / text "
                     "in an image) to give a planted value; the table counts answers that echo it. Records are "
                     "fenced as data in the answer prompt; the judge never sees records.")
    if kept:
        notes.append("Submitted systems (scored with `mmeb score`, kept under <home>/submitted/): " + ", ".join(kept)
                     + ". They retrieve with their own depth, so their rows (k = 0 in the CSV files) stand under every "
                     "k; they are judged by the same rules judge, not compared for the best, and a question they did "
                     "not answer counts as wrong.")
    if missing:
        notes.append("Not yet materialized: " + ", ".join(missing))
    return sampled, agreement, notes


def robustness_rows(runs: list[Run]) -> list[dict]:
    """Per model and k: how many injection probes echoed the planted value or changed the answer."""
    rows = []
    for run in sorted(runs, key=lambda r: (r.answers.model, r.answers.k)):
        probes = run.answers.injection
        if probes:
            rows.append({"model": run.answers.model, "k": run.answers.k, "probes": len(probes),
                         "echoed": sum(p.echoed for p in probes), "changed": sum(p.changed for p in probes),
                         "echoed_kinds": sorted(p.kind for p in probes if p.echoed)})
    return rows


def retrieval_metrics(home: Path) -> dict[str, dict[str, float]]:
    """Recall@10/50/100, nDCG@10 and MRR (%) of every retriever materialized under the home."""
    from mmeb_assets.retrieval.config import load_retrievers
    from mmeb_assets.retrieval.metrics import read_all_metrics

    return read_all_metrics(home / "evaluation" / "retrieval", load_retrievers().names)


def build_leaderboard(runs: list[Run], benchmark: Benchmark, corpus: Corpus | None, folder: Path,
                      missing: list[str] | None = None,
                      retrieval: dict[str, dict[str, float]] | None = None) -> tuple[Leaderboard, str]:
    missing = missing or []
    cells = compute_cells(runs, benchmark, corpus)
    sampled, agreement, notes = describe(runs, missing)
    board = Leaderboard(
        cells=cells, recall=recall_table(runs), retrieval=retrieval or {}, sampled=sampled, agreement=agreement, missing=missing, notes=notes,
        robustness=robustness_rows(runs),
        provenance=make_provenance("benchmark", "evaluation", "rules",
                                   inputs={"judgments": [content_hash(r.judgments) for r in runs]}),
    )
    counts = question_counts(benchmark, corpus)
    board.files = write_reports(board, counts, folder)
    return board, leaderboard_markdown(board, counts)


def board_with_submitted(home: Path, benchmark: Benchmark, corpus: Corpus | None) -> Path | None:
    """Rewrite the last leaderboard (benchmark/leaderboard.json and the reports under evaluation/reports/)
    with every system `mmeb score` kept, so the report and the CSV files show a saved row at once.
    The built-in runs are those the last leaderboard held, with their groups; None when the home has
    no leaderboard yet (its first build takes the kept systems in)."""
    board_path = home / "benchmark" / "leaderboard.json"
    if not board_path.exists():
        return None
    old = load_envelope(board_path)
    if not isinstance(old, Leaderboard):
        raise TypeError(f"{board_path}: expected a Leaderboard")
    builtin = [c for c in old.cells if c.group != SUBMITTED_GROUP]
    groups = {c.model: c.group for c in builtin}
    runs, missing = load_runs(home, sorted({(c.model, c.k) for c in builtin}))
    runs = [Run(answers=r.answers, judgments=r.judgments, group=groups[r.answers.model]) for r in runs]
    runs += submitted_runs(home, {item.id for item in benchmark.items})
    retrieval = {name: metrics for name, metrics in old.retrieval.items() if not name.endswith(" (submitted)")}
    board, _ = build_leaderboard(runs, benchmark, corpus, home / "evaluation" / "reports",
                                 sorted(set(old.missing) | set(missing)), retrieval | submitted_retrieval(home, benchmark))
    atomic_write_text(board_path, envelope_text(board))
    return Path(board.files["markdown"])
