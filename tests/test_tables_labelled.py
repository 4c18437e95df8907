"""The hand-labelled tables of `bench/data/tables_labelled/` (read by bench/bench_tables.py) are well formed:
every file parses, every cell's column path is one of its table's columns, a results table has at least 3
cells, kinds are results|example, and every labelled value is printed on its page (when the PDF is here)."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "bench" / "data" / "tables_labelled"
HELD_OUT = ROOT / "bench" / "data" / "tables_heldout"  # labelled the same way, later tuned on
HELD_OUTS = [ROOT / "bench" / "data" / f"tables_heldout{n}" for n in (2, 3, 4)]  # labelled the same way (READMEs)
ICDAR = ROOT.parent / "shared" / "icdar2013"  # the ICDAR 2013 PDFs (eu-001.pdf, us-020.pdf), read in place
PDF_DIRS = (ROOT.parent / "shared" / "seeds", Path(os.environ.get("MMEB_TABLE_CORPUS") or ROOT.parent / "corpus"),
            ICDAR / "competition-dataset-eu", ICDAR / "competition-dataset-us")
FILES = [*sorted(LABELS.glob("*.yaml")), *sorted(HELD_OUT.glob("*.yaml")),
         *(path for folder in HELD_OUTS for path in sorted(folder.glob("*.yaml")))]


def _load(path: Path) -> dict:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict) and data.get("pdf", "").endswith(".pdf"), f"{path.name}: no 'pdf: <name>.pdf'"
    assert isinstance(data.get("tables"), list), f"{path.name}: no 'tables:' list ([] for a PDF without one)"
    return data


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", str(text)).replace("\u2212", "-")


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_label_file_is_well_formed(path: Path):
    data = _load(path)
    for i, table in enumerate(data["tables"]):
        where = f"{path.name} table {table.get('number')} (entry {i + 1})"
        assert table.get("kind") in ("results", "example"), f"{where}: kind {table.get('kind')!r}"
        assert isinstance(table.get("page"), int) and table["page"] >= 1, f"{where}: page"
        assert table.get("number") is None or isinstance(table["number"], int), f"{where}: number"
        assert table.get("caption"), f"{where}: caption"
        if table["kind"] == "example":
            assert table.get("values") or table.get("cells"), f"{where}: an example table names 1-2 values"
            continue
        columns = [list(c) for c in table.get("columns") or []]
        cells = table.get("cells") or []
        assert len(cells) >= 2, f"{where}: {len(cells)} cells (a results table has >= 2)"
        for cell in cells:
            assert {"value", "row", "column"} <= set(cell), f"{where}: cell {cell} lacks value/row/column"
            assert isinstance(cell["row"], list) and isinstance(cell["column"], list), f"{where}: {cell}"
            assert list(cell["column"]) in columns, f"{where}: column {cell['column']} is not among its columns"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_labelled_values_are_printed_on_their_page(path: Path):
    pymupdf = pytest.importorskip("pymupdf")
    data = _load(path)
    pdf = next((d / data["pdf"] for d in PDF_DIRS if (d / data["pdf"]).is_file()), None)
    if pdf is None:
        pytest.skip(f"{data['pdf']} is in none of {', '.join(str(d) for d in PDF_DIRS)}")
    missing = []
    with pymupdf.open(pdf) as doc:
        texts = {n: _squash(doc[n - 1].get_text()) for n in range(1, doc.page_count + 1)}
        for table in data["tables"]:
            wanted = [(table["page"], v) for v in table.get("values") or []]
            wanted += [(c.get("page", table["page"]), c["value"]) for c in table.get("cells") or []]
            missing += [f"table {table.get('number')} p{page}: {value!r}" for page, value in wanted
                        if not all(_squash(tok) in texts.get(page, "") for tok in value.split() if tok != "±")]
    assert not missing, f"{path.name}: values not printed on their page: {missing}"
