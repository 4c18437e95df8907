"""Table structure of the project's reader against the ICDAR 2013 Table Competition ground truth.

    python bench/bench_icdar.py [--data DIR] [--only STEM ...] [--readers project stream lattice pymupdf]
                                [--jobs N] [--cache DIR] [--no-cache] [--json FILE] [--grids]

Ground truth: ../shared/icdar2013/competition-dataset-{eu,us}/ (67 PDFs; for each `<stem>.pdf` its
`<stem>-str.xml`; the 'b' files without a PDF of their own are a second labelling of the 'a' PDF and
are not read). Read in place, never copied. Scoring (bench/icdar_scoring.py): the competition's
adjacency relations, precision / recall / F1 per ground-truth table.

Readers, each run on the pages that hold a ground-truth table:
- project: the production path, `ingest_pdf` (every extractor), its `SourceDocument.tables` read back
  with `load_source_document`. Cached per (PDF sha256, hash of mmeb_assets/ingestion/*.py and
  schema/source.py) under --cache.
- stream, lattice: camelot's two flavours (`camelot.read_pdf(flavor=...)`, each table's `df`).
- pymupdf: `page.find_tables()`, each table's `extract()` grid.
- oracle: per table the better of stream and lattice, picked knowing the answer (no reader can).
Baseline grids are cached per (PDF sha256, reader, library version) under --cache as well.

Matching: a ground-truth table is scored against every table the reader found on its page and keeps
the best F1 (the competition's rule); a reader with no table on that page scores 0 and is marked 'not
found'. Overall F1 = mean of the per-table F1s; the micro figure pools the relations of all tables.

The project's printed grid, rebuilt from its Table record (schema/source.py, table_structure.py),
since the record keeps the parts of the page apart:
- header_rows on top (a spanning header is stored repeated over each column it spans; a run of equal
  adjacent header cells becomes one spanning cell again, as the ground truth has it, where a header
  row below it names those columns apart: equal leaf cells, 'kg/year' over each column, stay apart);
  `header` alone when a record has no header_rows;
- then the body rows: stub (row label) cells first, then the values, as `rows` holds them;
- a group heading printed on a line of its own ('Males' over its rows) is kept only in the row paths:
  where a row's path opens with labels that are no row's own label (indent parents are rows already),
  a row with that label in the first column goes in before it, once per change of group;
- with two or more stub columns, the outer stub label written into every row of its block is printed
  once: a run of equal labels becomes one cell spanning those rows;
- the parts 'a', 'b', ... of one printed table (stacked sub-tables) are also offered stacked, in order,
  as one more candidate, besides each part alone.
Multi-page tables: the ground truth here prints every table on one page (us-035a's table 2 is three
side-by-side regions on page 3, put together with their column shifts); a table with regions on
several pages would be scored once per page. The project appends a '(continued)' table's rows to the
table on its first page; such a table is offered on each later page too, cut to the rows whose texts
are printed on that page (the header rows kept).
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
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from icdar_scoring import Cell, TruthTable, best_match, grid_cells, grid_text, read_structure  # noqa: E402

DATA = ROOT.parent / "shared" / "icdar2013"
READERS = ("project", "stream", "lattice", "pymupdf")
CODE_GLOBS = ("mmeb_assets/ingestion/*.py", "mmeb_assets/schema/source.py")


def code_hash() -> str:
    """What the project's ingestion is: its code (facts/ and qa/ do not change what ingest_pdf reads)."""
    digest = hashlib.sha256()
    for pattern in CODE_GLOBS:
        for path in sorted(ROOT.glob(pattern)):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def truth_tables(data: Path, only: list[str]) -> dict[Path, list[TruthTable]]:
    """Ground-truth tables by PDF, for the PDFs that have both the PDF and its -str.xml."""
    out = {}
    for pdf in sorted(data.glob("competition-dataset-*/*.pdf")):
        xml = pdf.with_name(f"{pdf.stem}-str.xml")
        if xml.is_file() and (not only or pdf.stem in only):
            out[pdf] = read_structure(xml)
    return out


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text or "")


def _runs(values: list[str]) -> list[tuple[int, int]]:
    """(first, last) index of each run of equal non-empty values."""
    out, i = [], 0
    while i < len(values):
        j = i
        while values[i] and j + 1 < len(values) and values[j + 1] == values[i]:
            j += 1
        out.append((i, j))
        i = j + 1
    return out


def _spans_lower(lower: list[list[str]], a: int, b: int) -> bool:
    """Equal header cells over columns a..b are one spanning cell when a header row under them
    names those columns apart; equal leaf cells ('kg/year' over each column) are printed each."""
    return any(len({c for c in row[a:b + 1] if c}) >= 2 for row in lower)


def printed_grid(table, keep: list[int] | None = None, all_labels: set[str] | None = None) -> list[Cell]:
    """The project's table as printed (see the module docstring): header rows with their spans merged,
    group headings put back as rows of their own, outer stub labels printed once per block; `keep`:
    only these body rows (by index)."""
    keep = range(len(table.rows)) if keep is None else keep
    header = [list(r) for r in table.header_rows] or ([list(table.header)] if any(table.header) else [])
    stub = table.stub_columns
    labels = all_labels if all_labels is not None else {c for row in table.rows for c in row[:max(stub, 1)] if c}
    grid, spans, printed_groups = [], {}, []
    for k, row in enumerate(header):
        for a, b in [(a, b) for a, b in _runs(row) if b > a and _spans_lower(header[k + 1:], a, b)]:
            spans[(len(grid), a)] = (len(grid), b)
            row[a + 1:b + 1] = [""] * (b - a)
        grid.append(row)
    body_top = len(grid)
    for i in keep:
        row = table.rows[i]
        path = table.row_paths[i] if i < len(table.row_paths) else []
        groups = [p for p in path if p not in labels and p not in row[:max(stub, 1)]]
        for depth, group in enumerate(groups):
            if printed_groups[depth:depth + 1] != [group]:
                grid.append([group])
                printed_groups = printed_groups[:depth] + [group]
        grid.append(list(row))
    for col in range(max(stub - 1, 0)):  # outer stub columns printed once per block
        body = [(r, grid[r][col] if col < len(grid[r]) and len(grid[r]) > 1 else "") for r in range(body_top, len(grid))]
        for a, b in _runs([v for _r, v in body]):
            if b > a and body[b][0] - body[a][0] == b - a:
                spans[(body[a][0], col)] = (body[b][0], col)
                for r, _v in body[a + 1:b + 1]:
                    grid[r][col] = ""
    return grid_cells(grid, spans)


def _printed_on(row: list[str], text: str) -> bool:
    return any(c for c in row) and all(_squash(c) in text for c in row if c)


def project_candidates(document, page: int, texts: dict[int, str]) -> list[tuple[str, list[Cell]]]:
    """(table id, printed grid) of each table on the page, its stacked parts together, and a table
    continued from an earlier page (rows not printed on its own page) cut to the rows printed on this one."""
    out, parts = [], {}
    for t in document.tables:
        if t.page == page:
            out.append((t.id, printed_grid(t)))
            if t.part:
                parts.setdefault((t.number, t.caption), []).append(t)
        elif t.page < page and not all(_printed_on(r, texts.get(t.page, "")) for r in t.rows):
            kept = [i for i, r in enumerate(t.rows) if _printed_on(r, texts.get(page, ""))]
            if len(kept) >= 2:
                out.append((f"{t.id} (continued)", printed_grid(t, kept)))
    for group in (g for g in parts.values() if len(g) > 1):
        labels = {c for t in group for row in t.rows for c in row[:max(t.stub_columns, 1)] if c}
        cells, top = [], 0
        for t in group:
            grid = printed_grid(t, all_labels=labels)
            cells += [Cell(c.r0 + top, c.r1 + top, c.c0, c.c1, c.text) for c in grid]
            top += max((c.r1 for c in grid), default=-1) + 1
        out.append(("+".join(t.id for t in group), cells))
    return out


def _quiet() -> None:
    for name in ("pdfminer", "playa", "camelot", "mmeb_assets"):  # font chatter; ingestion's 'no grid' warnings
        logging.getLogger(name).setLevel(logging.ERROR)


def _grid(rows) -> list[list[str]]:
    return [["" if c is None else str(c) for c in row] for row in rows]


def _baseline(reader: str, pdf: Path, pages: list[int]) -> dict[int, list[tuple[str, list[list[str]]]]]:
    """Grids by page of one baseline reader."""
    out: dict[int, list] = {p: [] for p in pages}
    if reader == "pymupdf":
        import pymupdf
        with pymupdf.open(pdf) as doc:
            for p in pages:
                for i, tab in enumerate(doc[p - 1].find_tables().tables):
                    out[p].append((f"t{i + 1}", _grid(tab.extract())))
        return out
    import camelot
    for p in pages:  # page by page: a page camelot fails on costs only that page
        try:
            tables = camelot.read_pdf(str(pdf), pages=str(p), flavor=reader)
        except Exception as exc:  # reported in the grid list: the bench goes on
            out[p].append((f"error: {type(exc).__name__}: {exc}"[:200], []))
            continue
        out[p] += [(f"t{i + 1}", _grid(t.df.values.tolist())) for i, t in enumerate(tables)]
    return out


def _version(reader: str) -> str:
    if reader == "pymupdf":
        import pymupdf
        return pymupdf.__version__
    import camelot
    return camelot.__version__


def read_job(reader: str, pdf: str, pages: list[int], cache: str, use_cache: bool, code: str) -> dict:
    """In a worker: one reader on one PDF; {'grids': {page: [(id, cells)]}, 'error': str, 'seconds': float}.
    `code`: the project's code hash, taken once when the run starts (the cache key of every document)."""
    _quiet()
    started, pdf_path = time.perf_counter(), Path(pdf)
    sha = hashlib.sha256(pdf_path.read_bytes()).hexdigest()[:16]
    try:
        if reader == "project":
            os.environ.pop("MMEB_TABLE_EXTRACTORS", None)  # production: every extractor
            from mmeb_assets.ingestion.document import SOURCE_DOCUMENT_FILE, ingest_pdf, load_source_document
            out = Path(cache) / f"{pdf_path.stem}-{sha}-project-{code}"
            if not (use_cache and (out / SOURCE_DOCUMENT_FILE).is_file()):
                ingest_pdf(pdf_path, out, pdf_path.stem)
            document = load_source_document(out)
            texts = {p.page: _squash(p.text) for p in document.pages}
            grids = {p: project_candidates(document, p, texts) for p in pages}
        else:
            path = Path(cache) / f"{pdf_path.stem}-{sha}-{reader}-{_version(reader)}.json"
            cached = json.loads(path.read_text()) if use_cache and path.is_file() else {}
            todo = [p for p in pages if str(p) not in cached]
            if todo:
                cached.update({str(p): v for p, v in _baseline(reader, pdf_path, todo).items()})
                path.write_text(json.dumps(cached, ensure_ascii=False))
            grids = {p: [(name, grid_cells(grid)) for name, grid in cached[str(p)]] for p in pages}
    except Exception as exc:  # a bench reports every failure and goes on
        return {"grids": {}, "error": f"{type(exc).__name__}: {exc}", "seconds": time.perf_counter() - started}
    return {"grids": grids, "error": "", "seconds": time.perf_counter() - started}


def run_readers(truth: dict[Path, list[TruthTable]], readers: list[str], args) -> dict:
    """{(reader, pdf stem): job result}, the slow readers' jobs started first."""
    jobs = [(r, pdf) for r in ("stream", "lattice", "project", "pymupdf") if r in readers for pdf in truth]
    out = {}
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {(r, pdf.stem): pool.submit(read_job, r, str(pdf), sorted({t.page for t in truth[pdf]}),
                                              str(args.cache), not args.no_cache, args.code) for r, pdf in jobs}
        for key, future in futures.items():
            out[key] = future.result()
            if out[key]["error"]:
                print(f"error [{key[0]}] {key[1]}: {out[key]['error']}")
    return out


def score_all(truth: dict[Path, list[TruthTable]], readers: list[str], results: dict, grids: bool) -> list[dict]:
    """One row per ground-truth table: per reader its best match's score, or not found."""
    rows = []
    for pdf, tables in truth.items():
        for t in tables:
            row = {"pdf": pdf.stem, "table": t.table, "page": t.page, "regions": t.regions}
            if grids:
                row["truth_grid"] = grid_text(t.cells)
            for reader in readers:
                found = [(n, c) for n, c in results[(reader, pdf.stem)]["grids"].get(t.page, []) if c]
                index, s = best_match(t.cells, [c for _n, c in found])
                row[reader] = {**asdict(s), "found": bool(found), "match": found[index][0] if found else ""}
                if grids and found:
                    row[reader]["grid"] = grid_text(found[index][1])
            if "stream" in readers and "lattice" in readers:
                pick = max(("stream", "lattice"), key=lambda r: row[r]["f1"])
                row["oracle"] = {**row[pick], "found": row["stream"]["found"] or row["lattice"]["found"],
                                 "match": f"{pick} {row[pick]['match']}"}
                row["oracle"].pop("grid", None)
            rows.append(row)
    return rows


def _cell(entry: dict) -> str:
    return "not found" if not entry["found"] else f"{entry['f1']:.3f}"


def overall(rows: list[dict], reader: str) -> str:
    entries = [r[reader] for r in rows]
    n = len(entries)
    mean = sum(e["f1"] for e in entries) / n if n else 0.0
    correct, want, got = (sum(e[k] for e in entries) for k in ("correct", "truth", "parsed"))
    p, r = (correct / got if got else 0.0), (correct / want if want else 0.0)
    micro = 2 * p * r / (p + r) if p + r else 0.0
    missed = sum(not e["found"] for e in entries)
    return (f"{reader:<8} F1 {mean:.3f} (mean of {n} tables)  micro P {p:.3f} R {r:.3f} F1 {micro:.3f}  "
            f"not found {missed}/{n}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the ICDAR 2013 folder (read in place)")
    parser.add_argument("--only", nargs="+", default=[], metavar="PDFSTEM", help="these PDFs only ('eu-001')")
    parser.add_argument("--readers", nargs="+", default=list(READERS), choices=READERS)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/mmeb-bench-icdar"))
    parser.add_argument("--no-cache", action="store_true", help="read again even where a cached result exists")
    parser.add_argument("--json", type=Path, help="write the per-table results here")
    parser.add_argument("--grids", action="store_true", help="with --json: add the truth and matched grids")
    args = parser.parse_args()
    truth = truth_tables(args.data, args.only)
    if not truth:
        print(f"bench_icdar: no PDF with its -str.xml under {args.data}", file=sys.stderr)
        return 1
    args.cache.mkdir(parents=True, exist_ok=True)
    args.code = code_hash()
    started = time.perf_counter()
    results = run_readers(truth, args.readers, args)
    rows = score_all(truth, args.readers, results, args.grids)
    names = [*args.readers, *(["oracle"] if "oracle" in rows[0] else [])]
    print("| pdf | table | page | " + " | ".join(names) + " |\n" + "|---" * (3 + len(names)) + "|")
    for row in rows:
        print(f"| {row['pdf']} | {row['table']} | {row['page']} | " + " | ".join(_cell(row[n]) for n in names) + " |")
    seconds = {r: sum(v["seconds"] for (rr, _p), v in results.items() if rr == r) for r in args.readers}
    now = code_hash()
    code = args.code if now == args.code else f"{args.code} (now {now}: the code changed during the run)"
    print(f"\n{len(truth)} PDFs, {len(rows)} ground-truth tables; project code {code}; "
          f"{time.perf_counter() - started:.0f}s wall; reader seconds: "
          + ", ".join(f"{r} {s:.0f}" for r, s in seconds.items()))
    for name in names:
        print(overall(rows, name))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"per-table results: {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
