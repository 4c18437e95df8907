"""The body of a table read line by line: value rows, wrapped labels, group headings (label-only
lines, right-set block heads, centred titles), rows whose values are all missing, and a header that
restarts (a stacked sub-table). Used by `table_structure.read_structure`."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from mmeb_assets.ingestion.table_indent import block_heads, dash_nesting, indent_paths
from mmeb_assets.ingestion.table_words import Line, line_cells

HEADER_GAP = 1.5  # line heights of blank space that end a header (the prose above is no header line)
FOOTNOTE = re.compile(r"^(?:note|notes|source|sources|\*|†|‡|[a-z]\s|\d+\s[A-Z])", re.I)
SUBCAPTION = re.compile(r"^\([a-h]\)\s+[A-Z]")  # '(a) Fluency.': a stacked part's own caption
MISSING_MARK = re.compile(r"^\(?(?:n\.?a\.?|n/a|na|nd|x|s|–|—|-|\.+)\)?$", re.I)


@dataclass
class Part:
    header: list[Line] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    groups: list[list[str]] = field(default_factory=list)
    row_ys: list[float] = field(default_factory=list)
    block_lines: list[tuple[float, float, str]] = field(default_factory=list)  # first stub column's text
    row_x0s: list[tuple[float, float] | None] = field(default_factory=list)  # edges of each row's own label
    row_paths: list[list[str]] = field(default_factory=list)

    def finish(self, stub: int, rules: list[float] = ()) -> None:
        """Stub cells printed once for a block of rows reach every row of the block, and each row's
        path is its groups, then its labels."""
        if stub > 1 and self.block_lines and len(self.block_lines) < len(self.rows):
            for row, label in zip(self.rows, block_labels(self.row_ys, self.block_lines, rules)):
                row[0] = label
        groups, spans = self.groups, self.row_x0s
        if stub == 1:
            groups, spans = _under_block_heads(self.groups, self.row_x0s, self.row_ys, [row[0] for row in self.rows])
        parents = (indent_paths(spans, [row[0] for row in self.rows], groups) if stub == 1
                   else [[] for _ in self.rows])
        if stub == 1 and (dashed := dash_nesting([row[0] for row in self.rows])):
            for row, label in zip(self.rows, dashed[0]):
                row[0] = label
            parents = dashed[1]
        self.row_paths = [[*g, *up, *[c for c in row[:stub] if c]]
                          for g, up, row in zip(groups, parents, self.rows)]


def _under_block_heads(groups: list[list[str]], spans: list, row_ys: list[float], labels: list[str]):
    """Groups and label edges with each block head's label over the rows of its block; the heads
    themselves take no part in the indentation (their labels are set apart, not indented)."""
    heads = block_heads(spans, row_ys)
    if not any(heads):
        return groups, spans
    out_groups, out_spans, head = [], [], None
    for group, span, label, is_head in zip(groups, spans, labels, heads):
        if is_head:
            head = label
        out_groups.append([*group] if is_head or head is None else [*group, head])
        out_spans.append(None if is_head else span)
    return out_groups, out_spans


def block_labels(row_ys: list[float], lines: list[tuple[float, float, str]], rules: list[float] = ()) -> list[str]:
    """The first stub column's label of each row when it is printed once per block of rows, over
    one or several lines ('Frequency of opportunity' / 'occurrence in general population'): lines
    that carry a label on (lower case, a bracket) are one block; a block printed on its first row's
    line reaches down to the next block, one printed between its rows goes to the rows nearest it
    within the same ruled band (S2ORC's 'Biomed', centred on seven rows, owns its last row 'ChemProt'
    although the next block's 'CS' is printed nearer to it, under the rule)."""
    blocks: list[list] = []
    for y0, y1, text in sorted(lines):
        if blocks and y0 - blocks[-1][1] < 1.2 * (y1 - y0) and text[:1].islower() | text.startswith("("):
            blocks[-1][1], blocks[-1][2] = y1, f"{blocks[-1][2]} {text}"
        else:
            blocks.append([y0, y1, text])
    top_aligned = abs((blocks[0][0] + blocks[0][1]) / 2 - row_ys[0]) < 3
    out = []
    for y in row_ys:
        if top_aligned:
            above = [b for b in blocks if b[0] <= y + 3]
            out.append(above[-1][2] if above else "")
        else:
            band = [b for b in blocks if _band((b[0] + b[1]) / 2, rules) == _band(y, rules)]
            out.append(min(band or blocks, key=lambda b: (abs((b[0] + b[1]) / 2 - y), -b[0]))[2])
    return out


def _band(y: float, rules) -> int:
    """How many rules lie above `y`: rows and labels between the same two rules share a band."""
    return sum(1 for rule in rules if rule < y)


def body_parts(lines: list[Line], body: list[int], anchors, stub: int, wide: list[float],
                rules: tuple = ((), ())) -> list[Part]:
    """Walk the lines from the first value row: value rows, wrapped labels, group rows, restarted
    headers (a new part) and the notes under the table (the end)."""
    first = body[0]
    header = _header_lines(lines[:first], wide)
    body_set = set(body)
    state = {"group": [], "pending": []}
    under = _groups_under(header, anchors, stub)
    if under:  # 'All Randomly Assigned (N=4,667):' over '3-Year-Old Cohort': the rows are the cohort's
        state["group"] = [under[0]]
    if len(header) > 1 and not state["group"] and _centred_title(header[-1], anchors) and any(
            _centred_title(lines[j], anchors) for j in range(first + 1, len(lines)) if j not in body_set):
        state["group"] = [header.pop().text]  # 'Tiny' centred over the first block, as 'Short' over the next
    header, leaf = _titled_columns(header, anchors, stub, rules[0])
    parts = [Part(header=header)]
    heights = sorted(l.height for l in lines) or [10.0]
    h = heights[len(heights) // 2]
    i = first
    while i < len(lines):
        line = lines[i]
        gap = line.y0 - lines[i - 1].y1 if i > 0 else 0
        if i > first and gap > 2.6 * h + 4:
            break
        cells = line_cells(line, anchors)
        if i in body_set and not any(cells[max(stub, 1):]):
            body_set.discard(i)  # its only number is in its label ('Highest degree earned by 2003')
        elif stub and cells[0] and any(cells[stub:]) and all(MISSING_MARK.match(c) for c in cells[stub:] if c):
            body_set.add(i)  # a row with every value missing ('Greece  n.a.  n.a.'), not a header
        if i in body_set:
            _add_row(parts[-1], cells, stub, state["group"], state["pending"], line)
            state["pending"], state["heading"] = [], False
            i += 1
            continue
        if not any(j in body_set for j in range(i + 1, min(i + 12, len(lines)))):
            break
        used = [j for j, c in enumerate(cells) if c]
        upcoming = _header_columns_ahead(lines, i + 1, body_set, anchors)
        restarts = len([j for j in used if j >= stub]) >= 2 or (
            [j for j in used if j >= stub] and len([j for j in upcoming if j >= stub]) >= 2)
        if restarts or SUBCAPTION.match(line.text):
            # a header row restarts (a spanning header above it, perhaps), or a part's own caption
            # ('(a) Fluency.') ends the part above: a stacked sub-table
            header, i = _collect_header(lines, i + 1 if SUBCAPTION.match(line.text) else i, body_set)
            header = _next_titles(header, leaf, anchors, stub)
            here = _groups_under(header, anchors, stub)
            under = under or here
            parts.append(Part(header=header))
            state = {"group": here[:1], "pending": []}
            continue
        if FOOTNOTE.match(line.text) and not (used and max(used) < max(stub, 1)):
            break
        # a table whose rows open under a group label has group labels, not rows with no values
        if stub == 1 and used == [0] and not under and _empty_row(lines, i, body_set, parts[-1], h, rules):
            _add_row(parts[-1], cells, stub, state["group"], [], line)
            i += 1
            continue
        labels_next = i + 1 in body_set and lines[i + 1].y0 - line.y1 < 0.8 * h and not line_cells(lines[i + 1], anchors)[0]
        _label_line(parts[-1], state, cells, used, stub, (gap, h, labels_next, (line.y0, line.y1, cells[0])))
        i += 1
    for part in parts:
        part.finish(stub, rules[0])
    return parts


def _groups_under(header: list[Line], anchors, stub: int) -> list[str]:
    """Group labels printed right under the header, above the first row (taken off the header),
    innermost first."""
    under: list[str] = []
    while len(header) > 1 and _stub_only(header[-1], anchors, stub) and any(
            not _stub_only(line, anchors, stub) for line in header[:-1]):
        under.append(header.pop().text)
    return under


def _header_columns_ahead(lines: list[Line], start: int, body_set: set[int], anchors) -> list[int]:
    """Columns the label-only lines from `start` up to the next value row print in: a restarted
    header's lower rows ('System' beside a spanning 'SQuAD', then 'Cost' / 'Exact match')."""
    used: set[int] = set()
    k = start
    while k < len(lines) and k not in body_set and k < start + 4:
        used |= {j for j, c in enumerate(line_cells(lines[k], anchors)) if c}
        k += 1
    return sorted(used)


def _empty_row(lines: list[Line], i: int, body_set: set[int], part: Part, h: float, rules) -> bool:
    """A label-only line that is a row with no values ('Greece' with its cells blank), not a group
    heading: it sits where the rows around it sit, neither set apart by space or a rule of its own
    nor followed by indented rows."""
    line, previous = lines[i], lines[i - 1]
    if not part.rows or not part.row_x0s or part.row_x0s[-1] is None or i + 1 not in body_set:
        return False
    after = lines[i + 1]
    if abs(line.x0 - part.row_x0s[-1][0]) > 1.5 or abs(after.x0 - line.x0) > 1.5:
        return False
    if line.y0 - previous.y1 > after.y0 - line.y1 + 0.3 * h:
        return False
    horizontal, vertical = rules
    ruled_above = any(previous.y1 - 1 <= y <= line.y0 + 1 for y in horizontal)
    ruled_below = any(line.y1 - 1 <= y <= after.y0 + 1 for y in horizontal)
    if ruled_above and not ruled_below:
        return False

    def crossed(l: Line) -> bool:
        middle = (l.y0 + l.y1) / 2
        return any(y0 <= middle <= y1 and line.phrases[-1].x1 + 2 < x < after.phrases[-1].x0 for y0, x, y1 in vertical)
    return crossed(line) or not crossed(after)  # a grid's heading is one merged cell: no rule crosses it


def _titled_columns(header: list[Line], anchors, stub: int, rules) -> tuple[list[Line], list[Line]]:
    """(header, its leaf lines): block titles under the leaf row are read as the columns' top level
    ('BART, Multitask: ...' over 'R-1'); a header without them is returned as it is, with no leaf."""
    if not _block_titles(header, anchors, stub, rules):
        return header, []
    return [header[-1], *header[:-1]], header[:-1]


def _next_titles(header: list[Line], leaf: list[Line], anchors, stub: int) -> list[Line]:
    """A restarted header of block titles only: the next block's titles over the same leaf columns."""
    if leaf and len(header) == 1 and _block_titles([*leaf, header[0]], anchors, stub, ()):
        return [header[0], *leaf]
    return header


def _block_titles(header: list[Line], anchors, stub: int, rules) -> bool:
    """The header's last line titles blocks of columns under a full header row ('BART, Multitask:
    D → {L, S, T}' over the left half's columns, 'BART, Single-task: ...' over the right half's):
    no value, nothing over the stub, fewer phrases than half the value columns, each over two or
    more of them, and the header's rule (when `rules` are given) between it and the row above."""
    if len(header) < 2 or not stub:
        return False
    line, above = header[-1], header[-2]
    columns = len(anchors) - stub
    if columns < 4 or any(p.numeric for p in line.phrases) or len(line.phrases) > columns // 2:
        return False
    if any(p.x0 < anchors[stub][0] - 2 for p in line.phrases):
        return False
    if sum(1 for j, c in enumerate(line_cells(above, anchors)) if c and j >= stub) < 0.8 * columns:
        return False
    if rules and not any(above.y1 - 1 <= y <= (line.y0 + line.y1) / 2 for y in rules):  # boxes may overlap it
        return False
    return all(sum(1 for a in anchors[stub:] if min(a[1], p.x1) - max(a[0], p.x0) > 0) >= 2 for p in line.phrases)


def _centred_title(line: Line, anchors) -> bool:
    """One short phrase centred across the table: the title of a block of rows ('Tiny', 'Short')."""
    if len(line.phrases) != 1 or line.phrases[0].numeric or len(line.phrases[0].text.split()) > 4:
        return False
    left, right = anchors[0][0], anchors[-1][1]
    return abs(line.phrases[0].centre - (left + right) / 2) < 0.1 * (right - left)


def _label_line(part: Part, state: dict, cells: list[str], used: list[int], stub: int, geometry: tuple) -> None:
    """A line without values: a block label of a multirow stub column, a wrapped label, the label
    of the value row just below it, or a group heading (in the stub or across the columns)."""
    gap, h, labels_next, _where = geometry
    if not (used and max(used) < max(stub, 1) or stub == 0):
        state["group"] = [" ".join(c for c in cells if c)]  # one phrase across the columns: a title
        return
    text = " ".join(c for c in cells[:max(stub, 1)] if c)
    if state.get("heading") and text[:1].islower() and gap < 0.7 * h and state["group"]:
        state["group"] = [*state["group"][:-1], f"{state['group'][-1]} {text}"]  # a heading wrapped
        return
    if stub > 1 and used == [0]:
        part.block_lines.append(geometry[3])
    elif _continues(part, text, gap, h):
        _extend_label(part, text, stub)
    elif labels_next:
        state["pending"].append(text)
    else:
        state["group"] = [text]
        state["heading"] = True


def _stub_only(line: Line, anchors, stub: int) -> bool:
    return stub > 0 and all(max(range(len(anchors)), key=lambda j: min(anchors[j][1], p.x1) - max(anchors[j][0], p.x0)) < stub
                            for p in line.phrases)


def _header_lines(lines: list[Line], rules: list[tuple] = ()) -> list[Line]:
    """The header lines just above the first value row: up to a wide gap, a line of running prose,
    or the table's top rule."""
    kept: list[Line] = []
    for line in reversed(lines):
        if kept and kept[-1].y0 - line.y1 > HEADER_GAP * max(line.height, 6) + 2:
            break
        if any(len(p.text.split()) >= 9 for p in line.phrases):
            break
        if kept and any(line.y1 - 1 <= y <= kept[-1].y0 + 1 for y in rules):
            break
        kept.append(line)
    return list(reversed(kept))


def _collect_header(lines: list[Line], start: int, body_set: set[int]) -> tuple[list[Line], int]:
    i = start
    while i < len(lines) and i not in body_set:
        i += 1
    return lines[start:i], i


def _add_row(part: Part, cells: list[str], stub: int, group: list[str], pending: list[str], line: Line) -> None:
    labels = cells[:stub]
    if pending and stub:
        j = next((k for k in range(stub - 1, -1, -1) if not labels[k]), stub - 1)
        labels[j] = " ".join([*pending, labels[j]]).strip()
    if part.rows and stub > 2:  # inner stub cells spanning several rows are printed on the first of them
        previous = part.rows[-1]
        for j in range(1, stub - 1):
            if not labels[j] and any(labels[j + 1:]):
                labels[j] = previous[j]
    row = [*labels, *cells[stub:]] if stub else cells
    part.rows.append(row)
    part.groups.append(list(group))
    part.row_ys.append((line.y0 + line.y1) / 2)
    own_label = labels and labels[0] and not pending and line.phrases
    part.row_x0s.append((line.phrases[0].x0, line.phrases[0].x1) if own_label else None)
    if stub > 1 and labels[0]:
        part.block_lines.append((line.y0, line.y1, labels[0]))


def _continues(part: Part, text: str, gap: float, h: float) -> bool:
    """A label-only line that carries on the label above ('Fine-tuned on' / 'co-citation')."""
    if not part.rows or gap > 0.7 * h:
        return False
    labels = [c for c in part.rows[-1] if c]
    previous = labels[0] if labels else ""
    return text[:1].islower() or previous.endswith(("-", ",", "/", "(", "and", "of", "on", "with"))


def _extend_label(part: Part, text: str, stub: int) -> None:
    row = part.rows[-1]
    j = max((k for k in range(max(stub, 1)) if row[k]), default=0)
    row[j] = f"{row[j][:-1]}{text}" if row[j].endswith("-") and text[:1].islower() else f"{row[j]} {text}".strip()
