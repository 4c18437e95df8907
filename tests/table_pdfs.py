"""Generated results tables with known structure, rendered to PDF with reportlab (tests only).

A `TableSpec` is the ground truth of one printed table: header trees (1-3 levels, spanning
headers over 2-3 columns, columns whose one label spans every header row), row groups, where
the unit is stated (caption suffix, a unit line under the caption, a header suffix, or nowhere),
and stacked sub-tables (a second header block restarting inside the body). `random_spec` draws
one from a `random.Random`; `render_pdf` writes the PDF; `expected_cells` lists every numeric
body cell with the row path, column path and unit a correct parser must recover.
"""
from __future__ import annotations

import io
import random
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer
from reportlab.platypus import Table as RLTable
from reportlab.platypus import TableStyle

FONT, BOLD, ITALIC, SIZE = "Helvetica", "Helvetica-Bold", "Helvetica-Oblique", 8.5
MAX_WIDTH = 6.5 * inch
UNIT_PLACES = ("none", "caption", "line", "header")

# Small vocabularies; labels are unique within a level of one table (drawn without replacement).
DOMAINS = {
    "ml": dict(
        metrics=["Accuracy", "F-score", "Precision", "Recall", "Exact match", "Latency", "Throughput", "Coverage",
                 "Calibration", "Agreement",
                 "Robustness", "Faithfulness", "Fluency", "Memory", "Energy", "Cost", "Error rate", "Win rate"],
        metric_units={"Accuracy": "%", "F-score": "%", "Precision": "%", "Recall": "%", "Exact match": "%",
                      "Latency": "ms", "Throughput": "tokens/s", "Coverage": "%", "Memory": "GB", "Energy": "kWh",
                      "Cost": "USD", "Error rate": "%", "Win rate": "%"},
        mid=["SQuAD", "TriviaQA", "HotpotQA", "Natural Questions", "MultiNLI", "CoNLL", "WikiSQL", "BoolQ"],
        leaf=["dev", "test", "zero-shot", "5-shot", "few-shot", "fine-tuned", "held-out", "validation", "in-domain",
              "out-of-domain",
              "one-shot", "adapted", "frozen", "pruned"],
        rows=["Baseline", "LSTM", "Transformer", "RoBERTa", "BERT-base", "DeBERTa", "Ours", "Oracle", "Random",
              "Majority class", "Retriever", "Reranker", "Distilled", "Ensemble", "Human", "Linear probe",
              "Nearest neighbour", "Prompted", "Adapter", "Mixture of experts", "Sparse model", "Dense model",
              "Tree search", "Pipeline"],
        groups=["Neural", "Rule-based", "Retrieval", "Ensembles", "Reference points", "Generative",
                "Discriminative"],
        stub=["System", "Model", "Method", ""],
        table_units=["%", "ms", "USD thousand"],
        captions=["Results of the evaluated systems", "Accuracy of each method by split",
                  "Comparison with prior work", "Main results on the benchmarks", "Ablation of the proposed model"],
    ),
    "energy": dict(
        metrics=["Consumption", "Demand", "Output", "Cost", "Emissions", "Share", "Losses", "Capacity", "Savings",
                 "Revenue", "Imports", "Exports", "Storage", "Prices", "Outages", "Usage", "Reserves"],
        metric_units={"Consumption": "kWh", "Demand": "MW", "Output": "GWh", "Cost": "USD", "Emissions": "kt",
                      "Share": "%", "Losses": "%", "Capacity": "MW", "Savings": "USD", "Revenue": "USD million",
                      "Imports": "GWh", "Exports": "GWh", "Storage": "MWh", "Prices": "USD per MWh"},
        mid=["Winter", "Summer", "Spring", "Autumn", "Weekdays", "Weekends", "Holidays", "Heatwaves", "Cold spells"],
        leaf=["Peak", "Off-peak", "Mean", "Median", "Urban", "Rural", "Residential", "Commercial", "Industrial",
              "Average", "Minimum", "Maximum", "Daytime", "Night-time"],
        rows=["North", "South", "East", "West", "Central", "Coastal", "Alpine", "Lakeside", "Midlands", "Highlands",
              "Delta", "Plateau", "Riverside", "Borderlands", "Islands", "Valley", "Lowlands", "Harbour", "Uplands",
              "Forest belt", "Capital", "Metro", "Outskirts", "Peninsula", "Steppe"],
        groups=["Northern regions", "Southern regions", "Urban areas", "Rural areas", "Coastal zone",
                "Inland zone", "Remote areas"],
        stub=["Region", "Area", "District", ""],
        table_units=["USD million", "kWh per household", "GWh", "tonnes per year"],
        captions=["Household energy use by region", "Operating cost per region and season",
                  "Electricity demand across districts", "Generation output by area", "Network losses by region"],
    ),
}


@dataclass
class Node:
    """A header cell; a node without children is a leaf column."""
    label: str
    children: list[Node] = field(default_factory=list)


@dataclass
class Group:
    label: str  # '' = rows without a group row
    rows: list[tuple[str, list[str]]]  # (row label, printed values)
    values: list[str] = field(default_factory=list)  # the group row's own values: rows indented under it
    centred: bool = False  # the group's title centred across the table ('Tiny' / 'Short' / 'Long')


@dataclass
class Block:
    """One header block and the body under it; a stacked table has several."""
    stub: str
    header: list[Node]
    groups: list[Group]

    @property
    def levels(self) -> int:
        return max(_depth(n) for n in self.header)


@dataclass
class TableSpec:
    number: int
    caption: str  # printed after 'Table N: ' (with the caption unit when unit_place == 'caption')
    unit_line: str  # printed between caption and table, '' if none
    table_unit: str  # the unit the caption or unit line states ('' if none)
    style: str  # 'booktabs' | 'grid'
    blocks: list[Block]


@dataclass(frozen=True)
class ExpectedCell:
    number: int
    part: int  # index of the block (0 = part 'a')
    value: str
    row_path: tuple[str, ...]
    column_path: tuple[str, ...]
    unit: str


def _depth(node: Node) -> int:
    return 1 + max((_depth(c) for c in node.children), default=0)


def _leaves(node: Node, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    path = (*path, node.label)
    return [path] if not node.children else [p for c in node.children for p in _leaves(c, path)]


def leaf_paths(block: Block) -> list[tuple[str, ...]]:
    return [p for n in block.header for p in _leaves(n)]


def label_unit(label: str) -> str:
    """'Latency (ms)' -> 'ms'."""
    return label[label.rindex("(") + 1:-1] if label.endswith(")") and "(" in label else ""


def column_unit(path: tuple[str, ...], table_unit: str) -> str:
    """The nearest header label with a unit suffix (leaf first), else the table-wide unit."""
    return next((u for label in reversed(path) if (u := label_unit(label))), table_unit)


def expected_cells(spec: TableSpec) -> list[ExpectedCell]:
    out = []
    for part, block in enumerate(spec.blocks):
        paths = leaf_paths(block)
        for group in block.groups:
            if group.values:
                out.extend(ExpectedCell(spec.number, part, v, (group.label,), p, column_unit(p, spec.table_unit))
                           for p, v in zip(paths, group.values))
            for label, values in group.rows:
                row_path = (group.label, label) if group.label else (label,)
                out.extend(ExpectedCell(spec.number, part, v, row_path, p, column_unit(p, spec.table_unit))
                           for p, v in zip(paths, values))
    return out


# ---- drawing a spec ------------------------------------------------------------------------------

class _Labels:
    """Draws labels without replacement per vocabulary, so labels are unique within a level."""

    def __init__(self, rng: random.Random, vocab: dict):
        self.pools = {k: rng.sample(v, len(v)) for k, v in vocab.items() if isinstance(v, list)}

    def take(self, kind: str) -> str:
        return self.pools[kind].pop()


def _metric(rng: random.Random, labels: _Labels, vocab: dict, with_unit: bool) -> str:
    label = labels.take("metrics")
    unit = vocab["metric_units"].get(label)
    return f"{label} ({unit})" if with_unit and unit else label


def _header(rng, labels, vocab, levels, n_cols, header_units) -> list[Node]:
    """Top-level nodes over n_cols leaves: spans of 2-3 columns, single columns spanning down."""
    unit = lambda: header_units and rng.random() < 0.6  # noqa: E731
    if levels == 1:
        return [Node(_metric(rng, labels, vocab, unit())) for _ in range(n_cols)]
    if levels == 2:
        sizes: list[int] = []
        while sum(sizes) < n_cols:
            left = n_cols - sum(sizes)
            sizes.append(min(left, rng.choice([1, 2, 2, 3])) if left > 1 else 1)
        if max(sizes) < 2:
            sizes = [2] + sizes[2:]
        metric_on_top = rng.random() < 0.6
        nodes = []
        for size in sizes:
            if size == 1:
                nodes.append(Node(_metric(rng, labels, vocab, unit())))
            elif metric_on_top:
                nodes.append(Node(_metric(rng, labels, vocab, unit()), [Node(labels.take("leaf")) for _ in range(size)]))
            else:
                nodes.append(Node(labels.take("mid"), [Node(_metric(rng, labels, vocab, unit())) for _ in range(size)]))
        return nodes
    # three levels: metric / dataset or season / condition; n_cols is only a hint here
    nodes = []
    for _ in range(rng.choice([1, 2]) if n_cols > 4 else 1):
        mids = []
        for _ in range(2):
            if mids and rng.random() < 0.25:
                mids.append(Node(labels.take("mid")))  # spans the two lower header rows
            else:
                n_leaves = 2 if n_cols > 4 else rng.choice([2, 2, 3])
                mids.append(Node(labels.take("mid"), [Node(labels.take("leaf")) for _ in range(n_leaves)]))
        nodes.append(Node(_metric(rng, labels, vocab, unit()), mids))
    if len(nodes) == 1 and rng.random() < 0.5:
        nodes.insert(rng.choice([0, len(nodes)]), Node(_metric(rng, labels, vocab, unit())))
    return nodes


def _value(rng: random.Random, fmt: str) -> str:
    if fmt == "decimal":
        return f"{rng.uniform(1, 99):.1f}"
    if fmt == "fraction":
        return f"{rng.uniform(0.01, 0.99):.2f}"
    if fmt == "thousands":
        return f"{rng.randrange(1000, 99999):,}"
    if fmt == "integer":
        return str(rng.randrange(100, 999))
    return f"{rng.randrange(10, 99)}%" if rng.random() < 0.5 else f"{rng.uniform(10, 99):.1f}%"


def _values(rng: random.Random, formats: list[str], seen: set) -> list[str]:
    values = []
    for fmt in formats:
        while (v := _value(rng, fmt)) in seen:
            pass
        seen.add(v)
        values.append(v)
    return values


def _block(rng, labels, vocab, levels, n_cols, header_units, groups, table_unit, seen: set,
           indented: bool = False, centred: bool = False) -> Block:
    header = _header(rng, labels, vocab, levels, n_cols, header_units)
    paths = [p for n in header for p in _leaves(n)]
    formats = []
    for path in paths:
        choices = ["decimal", "decimal", "fraction", "thousands", "integer"]
        formats.append(rng.choice(choices + ["percent"] * 2) if column_unit(path, table_unit) == "%" else rng.choice(choices))
    group_list = []
    for g in range(rng.choice([2, 3]) if groups else 1):
        rows = []
        own = _values(rng, formats, seen) if groups and indented else []
        for _ in range(rng.randint(2, 3) if groups else rng.randint(2, 5)):
            rows.append((labels.take("rows"), _values(rng, formats, seen)))
        group_list.append(Group(labels.take("groups") if groups else "", rows, own, centred and groups))
    return Block(rng.choice(vocab["stub"]), header, group_list)


def random_spec(rng: random.Random, number: int = 1, *, levels: int | None = None, groups: bool | None = None,
                unit_place: str | None = None, stacked: bool | None = None, style: str | None = None,
                domain: str | None = None, indented: bool = False, centred_groups: bool = False) -> TableSpec:
    """A random table; each keyword forces one feature (None = drawn). `indented`: each group row
    carries values of its own and its rows are printed indented under it."""
    domain = domain or rng.choice(sorted(DOMAINS))
    vocab = DOMAINS[domain]
    levels = levels or rng.choice([1, 2, 2, 3])
    groups = rng.random() < 0.4 if groups is None else groups
    unit_place = unit_place or rng.choice(UNIT_PLACES)
    stacked = rng.random() < 0.3 if stacked is None else stacked
    style = style or rng.choice(["booktabs", "grid"])
    table_unit = rng.choice([u for u in vocab["table_units"] if unit_place == "caption" or u != "%"]) \
        if unit_place in ("caption", "line") else ""
    caption = rng.choice(vocab["captions"])
    if unit_place == "caption":
        caption += f" ({table_unit})"
    unit_line = f"{rng.choice(['Values in', 'All values in'])} {table_unit}" if unit_place == "line" else ""
    for attempt in range(50):  # redraw (narrower) until the table fits the text width
        labels = _Labels(rng, vocab)
        seen: set[str] = set()
        n_cols = rng.randint(2, max(2, 6 - attempt // 3))
        blocks = [_block(rng, labels, vocab, levels, n_cols, unit_place == "header", groups, table_unit, seen,
                         indented, centred_groups)]
        if stacked:
            width = len(leaf_paths(blocks[0]))
            blocks.append(_block(rng, labels, vocab, rng.choice([1, 2]) if width > 1 else 1, width,
                                 unit_place == "header", groups and rng.random() < 0.5, table_unit, seen))
        spec = TableSpec(number, caption + ".", unit_line, table_unit, style, blocks)
        if sum(_layout(spec)[2]) <= MAX_WIDTH:
            return spec
    raise AssertionError(f"no table of this shape fits the page: {spec}")


# ---- rendering ------------------------------------------------------------------------------------

def _header_cells(block: Block, top: int, n_cols: int):
    """Header rows of one block: the grid, SPAN commands and the cells under spanning headers."""
    levels = block.levels
    rows = [[""] * (n_cols + 1) for _ in range(levels)]
    spans, rules = [("SPAN", (0, top), (0, top + levels - 1))], []
    rows[0][0] = block.stub

    def place(node: Node, depth: int, col: int) -> int:
        width = len(_leaves(node))
        rows[depth][1 + col] = node.label
        if node.children:
            if width > 1:
                spans.append(("SPAN", (1 + col, top + depth), (col + width, top + depth)))
            rules.append(((1 + col, top + depth), (col + width, top + depth)))
            c = col
            for child in node.children:
                c = place(child, depth + 1, c)
        elif depth < levels - 1:
            spans.append(("SPAN", (1 + col, top + depth), (1 + col, top + levels - 1)))
        return col + width

    col = 0
    for node in block.header:
        col = place(node, 0, col)
    return rows, spans, rules


def _layout(spec: TableSpec):
    """The cell grid, the TableStyle commands and the column widths of a spec."""
    n_cols = len(leaf_paths(spec.blocks[0]))
    data, style = [], [("FONT", (0, 0), (-1, -1), FONT, SIZE), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                       ("ALIGN", (1, 0), (-1, -1), "CENTER"), ("ALIGN", (0, 0), (0, -1), "LEFT"),
                       ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
                       ("LEFTPADDING", (0, 0), (-1, -1), 6), ("RIGHTPADDING", (0, 0), (-1, -1), 6)]
    widths = [0.0] * (n_cols + 1)
    for block in spec.blocks:
        top = len(data)
        rows, spans, rules = _header_cells(block, top, n_cols)
        data.extend(rows)
        style += spans + [("FONT", (0, top), (-1, top + len(rows) - 1), BOLD, SIZE)]
        style += [("LINEABOVE", (0, top), (-1, top), 1.0, colors.black),
                  ("LINEBELOW", (0, top + len(rows) - 1), (-1, top + len(rows) - 1), 0.6, colors.black)]
        if spec.style == "booktabs":
            style += [("LINEBELOW", a, b, 0.4, colors.black) for a, b in rules]
        for _, (c0, r0), (c1, r1) in (s for s in spans if s[1][0] > 0):  # a spanning label shares its width
            share = (stringWidth(data[r0][c0], BOLD, SIZE) + 12) / (c1 - c0 + 1)
            widths[c0:c1 + 1] = [max(w, share) for w in widths[c0:c1 + 1]]
        for group in block.groups:
            if group.values:
                data.append([group.label, *group.values])
            elif group.label:
                r = len(data)
                data.append([group.label] + [""] * n_cols)
                style += [("SPAN", (0, r), (-1, r)), ("FONT", (0, r), (-1, r), ITALIC, SIZE)]
                if group.centred:
                    style.append(("ALIGN", (0, r), (-1, r), "CENTER"))
            for label, values in group.rows:
                if group.values:
                    style.append(("LEFTPADDING", (0, len(data)), (0, len(data)), 18))
                data.append([label, *values])
        style.append(("LINEBELOW", (0, len(data) - 1), (-1, len(data) - 1), 1.0, colors.black))
    wide = {(c, r) for s in style if s[0] == "SPAN" and s[1][0] != s[2][0]
            for c in range(s[1][0], s[2][0] + 1) for r in range(s[1][1], s[2][1] + 1)}
    bold_rows = {r for s in style if s[0] == "FONT" and s[3] == BOLD for r in range(s[1][1], s[2][1] + 1)}
    for r, row in enumerate(data):
        for c, text in enumerate(row):
            if (c, r) not in wide:
                widths[c] = max(widths[c], stringWidth(text, BOLD if r in bold_rows else FONT, SIZE) + 12)
    if spec.style == "grid":
        style.append(("GRID", (0, 0), (-1, -1), 0.5, colors.black))
    return data, style, widths


def _table_flowable(spec: TableSpec) -> RLTable:
    data, style, widths = _layout(spec)
    assert sum(widths) <= MAX_WIDTH, f"table too wide ({sum(widths):.0f}pt): {spec}"
    table = RLTable(data, colWidths=widths, hAlign="CENTER")
    table.setStyle(TableStyle(style))
    return table


def render_pdf(specs: list[TableSpec], path: Path) -> Path:
    """One page of prose with the tables, each under its 'Table N:' caption (and unit line)."""
    body = ParagraphStyle("body", fontName="Times-Roman", fontSize=10, leading=13, spaceAfter=8)
    caption = ParagraphStyle("caption", parent=body, fontSize=9, leading=11, spaceAfter=3)
    unit_line = ParagraphStyle("unitline", parent=caption, fontName="Times-Italic", spaceAfter=4)
    story = [Paragraph("Generated results report", ParagraphStyle("title", parent=body, fontName="Times-Bold",
                                                                   fontSize=14, leading=18, spaceAfter=12)),
             Paragraph("This report compares the systems and regions studied in this work. The tables below "
                       "summarise the measurements; the discussion follows each table.", body)]
    for spec in specs:
        parts = [Paragraph(f"<b>Table {spec.number}:</b> {escape(spec.caption)}", caption)]
        if spec.unit_line:
            parts.append(Paragraph(escape(spec.unit_line), unit_line))
        parts += [Spacer(1, 3), _table_flowable(spec), Spacer(1, 10)]
        story.append(KeepTogether(parts))
        story.append(Paragraph("As the table shows, the differences between the rows are consistent across the "
                               "columns, and the pattern holds in every group we examined.", body))
    buffer = io.BytesIO()
    SimpleDocTemplate(buffer, pagesize=letter, invariant=1, leftMargin=inch, rightMargin=inch,
                      topMargin=inch, bottomMargin=inch).build(story)
    path = Path(path)
    path.write_bytes(buffer.getvalue())
    return path


def spec_text(spec: TableSpec) -> str:
    """The printed grid as text (spanned cells blank), for failure messages."""
    lines = [f"Table {spec.number}: {spec.caption}"] + ([spec.unit_line] if spec.unit_line else [])
    return "\n".join(lines + [" | ".join(row) for row in _layout(spec)[0]])
