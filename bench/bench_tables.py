"""Structure and naming accuracy of table reading against the hand-labelled tables (`bench/data/tables_labelled/`).

    python bench/bench_tables.py --all-sets [--jobs N]      # every label set, the never-tuned set first (headline)
    python bench/bench_tables.py [--labels DIR] [--extractors all|camelot|pymupdf|rules|slanet|slanet-combined]
                                 [--compare] [--seeds DIR] [--corpus DIR] [--cache DIR] [--no-cache] [--jobs N]
                                 [--json FILE] [--show N]

Runs the production path (ingest_pdf, then table_structure.cell_paths and facts.extract_facts) on every
labelled PDF (looked up by file name in --seeds, then --corpus; a missing PDF is skipped, not an error).
`--extractors` restricts ingestion's candidate extractors (MMEB_TABLE_EXTRACTORS): camelot = camelot-lattice,
camelot-stream, camelot-stream-ruled; pymupdf = pymupdf; all = every extractor. `--compare` runs the three
settings and prints one summary line each. rules / slanet / slanet-combined choose the structure reader
instead (`ingestion/table_model.py`: the rules alone, SLANet-plus for every table, the rules with the
model's columns where the two disagree, the default). Ingested documents are cached per (PDF sha256, setting, hash of
mmeb_assets/ingestion/*.py, facts/*.py and schema/source.py) under --cache.

Definitions (normalisation of values, paths and units: see bench/table_labels.py):

- matched tables: the parsed tables with the labelled printed number (all stacked parts), else those on the
  labelled page whose caption starts like the labelled caption. None: every labelled cell is wrong.
- parsed cell of a labelled cell: among the matched tables' cell_paths, those with the same value (a
  '12.4%' / '$45' label also takes a parsed '12.4' / '45' when nothing equals it exactly); of several, the one
  whose row path, column path and unit agree best.
- structure right: row path, column path and unit all equal. Row / column / unit accuracy count each alone.
- naming right: the fact extract_facts made from that cell (same table id and value; the one with the same
  paths if several) has (a) every content word of the labelled leaf and top column headers in its measure,
  (b) every content word of the labelled row leaf in its subject, (c) the labelled unit as its unit and scale
  (or as a bracketed unit inside its measure; a fact unit 'count' counts as no unit). A table the facts read
  transposed (its row labels name measures: facts/orientation.py) is checked with row and column exchanged.
- table fully right: a results table whose every labelled cell is structure right and naming right.
- example table read as results: a labelled example table with a matched parsed table of kind 'results'
  that extract_facts made at least one fact from.

Targets (issue 36): >= 95% of labelled cells structure right; 0 example tables read as results.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import re
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from table_labels import (CORPUS, LABELS, SEEDS, bare_value, header_words, load_labels, match_tables,  # noqa: E402
                          norm_path, norm_value, same_unit, unit_tokens, find_pdf, content_words)

# rules / slanet / slanet-combined choose the structure reader (ingestion/table_model.py; all = the default, combined)
SETTINGS = {"all": None, "camelot": "camelot-lattice,camelot-stream,camelot-stream-ruled", "pymupdf": "pymupdf",
            "rules": "rules", "slanet": "slanet", "slanet-combined": "slanet-combined"}
CODE_GLOBS = ("mmeb_assets/ingestion/*.py", "mmeb_assets/facts/*.py", "mmeb_assets/schema/source.py")
TARGET_STRUCTURE = 0.95


@dataclass
class CellResult:
    pdf: str
    number: int | None
    page: int
    value: str
    features: list[str]
    label_row: list[str]
    label_column: list[str]
    label_unit: str
    table_id: str = ""
    row: list[str] = field(default_factory=list)
    column: list[str] = field(default_factory=list)
    unit: str = ""
    row_ok: bool = False
    column_ok: bool = False
    unit_ok: bool = False
    naming_ok: bool = False
    measure: str = ""
    subject: str = ""
    fact_unit: str = ""
    reason: str = ""

    @property
    def structure_ok(self) -> bool:
        return self.row_ok and self.column_ok and self.unit_ok


@dataclass
class TableResult:
    pdf: str
    label: dict
    matched: list[str]
    cells: list[CellResult] = field(default_factory=list)
    read_as_results: bool = False
    note: str = ""


def code_hash() -> str:
    digest = hashlib.sha256()
    for pattern in CODE_GLOBS:
        for path in sorted(ROOT.glob(pattern)):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def _ingest_job(pdf: str, setting: str, out: str) -> str:
    """In a worker process: ingest one PDF with the extractors of `setting`; '' or the error."""
    value = SETTINGS[setting]
    if value is None:
        os.environ.pop("MMEB_TABLE_EXTRACTORS", None)
    else:
        os.environ["MMEB_TABLE_EXTRACTORS"] = value
    for name in ("pdfminer", "playa"):  # font-encoding chatter of the PDF readers under camelot
        logging.getLogger(name).setLevel(logging.ERROR)
    from mmeb_assets.ingestion.document import ingest_pdf
    try:
        ingest_pdf(Path(pdf), Path(out), Path(pdf).stem)
    except Exception as exc:  # a bench reports every failure and goes on
        return f"{type(exc).__name__}: {exc}"
    return ""


def ingest_all(pdfs: dict[str, Path], setting: str, cache: Path, use_cache: bool, jobs: int) -> tuple[dict, dict]:
    """Documents (by PDF name) for `setting`, from the cache where present; and errors by PDF name."""
    from mmeb_assets.ingestion.document import load_source_document
    code = code_hash()
    outs = {}
    for name, pdf in pdfs.items():
        sha = hashlib.sha256(pdf.read_bytes()).hexdigest()[:16]
        outs[name] = cache / f"{pdf.stem}-{sha}-{setting}-{code}"
    todo = [n for n in pdfs if not use_cache or not (outs[n] / "source_document.json").is_file()]
    errors = {}
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {n: pool.submit(_ingest_job, str(pdfs[n]), setting, str(outs[n])) for n in todo}
        for name, future in futures.items():
            if future.result():
                errors[name] = future.result()
    documents = {}
    for name in pdfs:
        if name in errors:
            continue
        try:
            documents[name] = load_source_document(outs[name])
        except (OSError, ValueError) as exc:
            errors[name] = f"cached document unreadable: {exc}"
    return documents, errors


def _agreement(label: dict, unit: str, cp) -> tuple[bool, bool, bool]:
    return (norm_path(label["row"]) == norm_path(cp.row_path),
            norm_path(label["column"], column=True) == norm_path(cp.column_path, column=True),
            same_unit(unit, cp.unit))


def _fact_unit_ok(label_unit: str, fact) -> bool:
    tokens = sorted(t for t in unit_tokens(f"{fact.unit} {fact.scale}") if t != "count")
    if tokens == unit_tokens(label_unit):
        return True
    return any(same_unit(label_unit, inner) for inner in re.findall(r"[(\[]([^()\[\]]+)[)\]]", fact.measure))


def naming(cell: dict, unit: str, fact, transposed: bool = False) -> str:
    """'' when the fact names the labelled cell right, else what is wrong. A fact read from the table
    transposed (its rows name the measures) is checked with the labelled row and column exchanged."""
    if transposed:
        cell = {**cell, "row": cell["column"][-1:], "column": cell["row"][-1:]}
    column = cell["column"] or [""]
    missing = (header_words(column[-1]) | header_words(column[0])) - content_words(fact.measure)
    if missing:
        return f"measure {fact.measure!r} lacks {sorted(missing)}"
    missing = content_words((cell["row"] or [""])[-1]) - content_words(fact.subject)
    if missing:
        return f"subject {fact.subject!r} lacks {sorted(missing)}"
    if not _fact_unit_ok(unit, fact):
        return f"fact unit {fact.unit!r} {fact.scale!r} != {unit!r}"
    return ""


def score_cell(result: CellResult, cell: dict, candidates: list, facts: list) -> None:
    """Fill `result` from the best parsed cell among `candidates` [(table, cell_path)] and its fact."""
    want = norm_value(cell["value"])
    same = [(t, cp) for t, cp in candidates if norm_value(cp.value) == want]
    same = same or [(t, cp) for t, cp in candidates if bare_value(cp.value) == bare_value(cell["value"])]
    if not same:
        result.reason = f"value {cell['value']!r} not among the parsed cells"
        return
    table, cp = max(same, key=lambda pair: sum(_agreement(cell, result.label_unit, pair[1])))
    result.table_id, result.row, result.column, result.unit = table.id, list(cp.row_path), list(cp.column_path), cp.unit
    result.row_ok, result.column_ok, result.unit_ok = _agreement(cell, result.label_unit, cp)
    if not result.row_ok:
        result.reason = f"row {result.row} != {cell['row']}"
    elif not result.column_ok:
        result.reason = f"col {result.column} != {cell['column']}"
    elif not result.unit_ok:
        result.reason = f"unit {cp.unit!r} != {result.label_unit!r}"
    own = [f for f in facts if f.table_id == table.id and norm_value(f.value) == norm_value(cp.value)]
    own.sort(key=lambda f: min((list(f.row_path) != list(cp.row_path)) + (list(f.column_path) != list(cp.column_path)),
                               (list(f.row_path) != list(cp.column_path)) + (list(f.column_path) != list(cp.row_path))))
    if not own:
        result.reason = result.reason or "name: no fact from this cell"
        return
    verdicts = [(naming(cell, result.label_unit, f, transposed=bool(f.row_path) and list(f.row_path) == list(cp.column_path)
                        and list(f.column_path) == list(cp.row_path)), f) for f in own]
    verdict, fact = next(((v, f) for v, f in verdicts if not v), verdicts[0])
    result.naming_ok = not verdict
    result.measure, result.subject, result.fact_unit = fact.measure, fact.subject, f"{fact.unit} {fact.scale}".strip()
    result.reason = result.reason or (f"name: {verdict}" if verdict else "")


def score_table(pdf: str, label: dict, document, facts: list, cell_paths) -> TableResult:
    matched = match_tables(label, document.tables) if document is not None else []
    result = TableResult(pdf, label, [t.id for t in matched])
    if label.get("kind") == "example":
        result.read_as_results = any(t.kind == "results" and any(f.table_id == t.id for f in facts) for t in matched)
        return result
    candidates = []
    for table in matched:
        try:
            candidates.extend((table, cp) for cp in cell_paths(table))
        except Exception as exc:  # reported, not raised: the bench goes on
            result.note = f"cell_paths({table.id}) failed: {type(exc).__name__}: {exc}"
    for cell in label["cells"]:
        unit = cell.get("unit", label.get("unit", "")) or ""
        cr = CellResult(pdf, label.get("number"), cell.get("page", label.get("page")), str(cell["value"]),
                        list(label["features"]), list(cell["row"]), list(cell["column"]), unit)
        if not matched:
            cr.reason = "table missed" if document is not None else "ingestion failed"
        else:
            score_cell(cr, cell, candidates, facts)
        result.cells.append(cr)
    return result


def run_setting(files: list[dict], pdfs: dict, setting: str, args, cell_paths) -> tuple[list[TableResult], float]:
    from mmeb_assets.facts.extract import extract_facts
    started = time.perf_counter()
    documents, errors = ingest_all(pdfs, setting, args.cache, not args.no_cache, args.jobs)
    for name, error in errors.items():
        print(f"error [{setting}] {name}: {error}")
    results = []
    for data in files:
        if data["pdf"] not in pdfs:
            continue
        document = documents.get(data["pdf"])
        facts = extract_facts(document)[0] if document is not None else []
        results.extend(score_table(data["pdf"], label, document, facts, cell_paths) for label in data.get("tables") or [])
    return results, time.perf_counter() - started


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "n/a"


def summary(results: list[TableResult]) -> dict:
    cells = [c for r in results for c in r.cells]
    results_tables = [r for r in results if r.label.get("kind") != "example"]
    return {"cells": len(cells), "structure": sum(c.structure_ok for c in cells), "row": sum(c.row_ok for c in cells),
            "column": sum(c.column_ok for c in cells), "unit": sum(c.unit_ok for c in cells),
            "naming": sum(c.naming_ok for c in cells), "results_tables": len(results_tables),
            "fully_right": sum(bool(r.cells) and all(c.structure_ok and c.naming_ok for c in r.cells)
                               for r in results_tables),
            "examples": len(results) - len(results_tables), "read_as_results": sum(r.read_as_results for r in results),
            "missed": sum(not r.matched for r in results)}


def targets_met(s: dict) -> bool:
    return bool(s["cells"]) and s["structure"] / s["cells"] >= TARGET_STRUCTURE and s["read_as_results"] == 0


def summary_line(setting: str, s: dict, seconds: float) -> str:
    return (f"| {setting} | {pct(s['structure'], s['cells'])} | {pct(s['row'], s['cells'])} "
            f"| {pct(s['column'], s['cells'])} | {pct(s['unit'], s['cells'])} | {pct(s['naming'], s['cells'])} "
            f"| {s['fully_right']}/{s['results_tables']} | {s['read_as_results']}/{s['examples']} | {s['missed']} "
            f"| {seconds:.0f}s | {'met' if targets_met(s) else 'NOT met'} |")


SUMMARY_HEAD = ("| extractors | structure | row path | column path | unit | naming | tables fully right "
                "| examples read as results | tables missed | seconds | targets |\n" + "|---" * 11 + "|")


def print_tables(results: list[TableResult], show: int) -> None:
    print("| pdf | table | page | kind | features | structure | naming | first wrong cell |")
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        lab = r.label
        if lab.get("kind") == "example":
            verdict = "READ AS RESULTS" if r.read_as_results else ("ok" if r.matched else "ok (not found)")
            print(f"| {r.pdf} | {lab.get('number')} | {lab.get('page')} | example | {', '.join(lab['features'])} "
                  f"| | | {verdict} |")
            continue
        wrong = [c for c in r.cells if not (c.structure_ok and c.naming_ok)]
        reason = r.note or (f"{wrong[0].value}: {wrong[0].reason}" if wrong else "")
        print(f"| {r.pdf} | {lab.get('number')} | {lab.get('page')} | results | {', '.join(lab['features'])} "
              f"| {sum(c.structure_ok for c in r.cells)}/{len(r.cells)} | {sum(c.naming_ok for c in r.cells)}/"
              f"{len(r.cells)} | {reason[:160]} |")
        for c in wrong[1:1 + show]:
            print(f"|   | | {c.page} | | | | | {c.value}: {c.reason[:160]} |")


def print_overall(results: list[TableResult], setting: str, seconds: float, n_pdfs: int, skipped: list[str]) -> None:
    s = summary(results)
    print(f"\nextractors: {setting}; PDFs: {n_pdfs} read, {len(skipped)} skipped; labelled tables: "
          f"{len(results)} ({s['results_tables']} results, {s['examples']} example), {s['missed']} not found; "
          f"labelled cells: {s['cells']}")
    for name, title in (("structure", "structure right"), ("row", "row path"), ("column", "column path"),
                        ("unit", "unit"), ("naming", "naming right")):
        print(f"  {title:<16} {s[name]}/{s['cells']} ({pct(s[name], s['cells'])})")
    print(f"  tables fully right: {s['fully_right']}/{s['results_tables']}")
    print(f"  example tables read as results: {s['read_as_results']}/{s['examples']}")
    by_feature: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for c in (c for r in results for c in r.cells):
        for feature in c.features or ["(none)"]:
            tally = by_feature[feature]
            tally[0], tally[1], tally[2] = tally[0] + c.structure_ok, tally[1] + c.naming_ok, tally[2] + 1
    print("  per feature (cells: structure right, naming right):")
    for feature, (st, nm, n) in sorted(by_feature.items()):
        print(f"    {feature:<18} {n:>4} cells  structure {pct(st, n):>6}  naming {pct(nm, n):>6}")
    structure_ok = bool(s["cells"]) and s["structure"] / s["cells"] >= TARGET_STRUCTURE
    print(f"\nTARGET structure >= {TARGET_STRUCTURE:.0%}: {'MET' if structure_ok else 'NOT MET'} "
          f"({pct(s['structure'], s['cells'])});  TARGET 0 example tables read as results: "
          f"{'MET' if s['read_as_results'] == 0 else 'NOT MET'} ({s['read_as_results']});  "
          f"overall: {'TARGETS MET' if targets_met(s) else 'TARGETS NOT MET'} ({seconds:.0f}s)")


# Label sets, the never-tuned first: its figure is the headline (folder READMEs say which were tuned on).
LABEL_SETS = (("tables_heldout5", "never tuned on"), ("tables_heldout4", "tuned from 2026-12-08"),
              ("tables_heldout3", "tuned from mid-session"),
              ("tables_heldout2", "tuned on"), ("tables_heldout", "tuned on"), ("tables_labelled", "written on"))


def label_files(labels: Path, args) -> tuple[list[dict], dict, list[str]]:
    """(label files with tables, PDF path by name, names of PDFs not found) for one label folder."""
    files = [f for f in load_labels(labels) if f.get("pdf") and f.get("tables")]
    pdfs, skipped = {}, []
    for name in sorted({f["pdf"] for f in files}):
        path = find_pdf(name, (args.seeds, args.corpus))
        if path is None:
            skipped.append(name)
            print(f"skip: {name} is in neither {args.seeds} nor {args.corpus}")
        else:
            pdfs[name] = path
    return files, pdfs, skipped


def all_sets(args, cell_paths) -> int:
    """One summary line per label set, the never-tuned set first as the headline."""
    lines = []
    for name, tuned in LABEL_SETS:
        files, pdfs, skipped = label_files(LABELS.parent / name, args)
        results, seconds = run_setting(files, pdfs, args.extractors, args, cell_paths)
        lines.append(f"| {name} ({tuned}; {len(skipped)} PDFs missing) " + summary_line(args.extractors, summary(results),
                                                                                       seconds))
    head = SUMMARY_HEAD.splitlines()
    print(f"HEADLINE, labels nobody tuned on: {lines[0]}\n" + "\n".join(["| label set " + head[0], "|---" + head[1],
                                                                        *lines]))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--seeds", type=Path, default=SEEDS)
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="non-seed PDFs by file name ($MMEB_TABLE_CORPUS)")
    parser.add_argument("--extractors", default="all", choices=sorted(SETTINGS))
    parser.add_argument("--compare", action="store_true", help="run all three settings, one summary line each")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/mmeb-bench-tables"))
    parser.add_argument("--no-cache", action="store_true", help="ingest again even where a cached document exists")
    parser.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1), help="ingestion processes")
    parser.add_argument("--show", type=int, default=0, help="also print N more wrong cells per table")
    parser.add_argument("--json", type=Path, help="write the per-cell results here")
    parser.add_argument("--all-sets", action="store_true", help="every label set, one line each, the never-tuned "
                                                                "set first as the headline")
    args = parser.parse_args()
    try:
        from mmeb_assets.ingestion.table_structure import cell_paths
    except ImportError as exc:
        print(f"bench_tables: mmeb_assets.ingestion.table_structure.cell_paths is not available ({exc}); "
              "it is what this bench measures (issue 36)", file=sys.stderr)
        return 1
    args.cache.mkdir(parents=True, exist_ok=True)
    if args.all_sets:
        return all_sets(args, cell_paths)
    files, pdfs, skipped = label_files(args.labels, args)
    rows, lines = [], []
    for setting in (("all", "camelot", "pymupdf") if args.compare else (args.extractors,)):
        results, seconds = run_setting(files, pdfs, setting, args, cell_paths)
        if args.compare:
            lines.append(summary_line(setting, summary(results), seconds))
        else:
            print_tables(results, args.show)
            print_overall(results, setting, seconds, len(pdfs), skipped)
        rows.extend({"extractors": setting, **asdict(c), "structure_ok": c.structure_ok} for r in results for c in r.cells)
        rows.extend({"extractors": setting, "pdf": r.pdf, "number": r.label.get("number"), "page": r.label.get("page"),
                     "kind": "example", "matched": r.matched, "read_as_results": r.read_as_results}
                    for r in results if r.label.get("kind") == "example")
    if args.compare:
        print(f"PDFs: {len(pdfs)} read, {len(skipped)} skipped; targets: structure >= {TARGET_STRUCTURE:.0%}, "
              "0 example tables read as results\n" + SUMMARY_HEAD + "\n" + "\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"per-cell results: {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
