"""Header levels and their spans: which columns a header phrase stands over.

In order of evidence: vertical rules either side of the phrase (a ruled grid), a rule printed just
under it and no wider than its group (booktabs' cmidrule), else the run of columns it is centred
over whose own headers sit on a lower line. A phrase that wraps onto a second line over the same
columns is one header ('Distor-' / 'tion' -> 'Distortion').
"""
from __future__ import annotations

import re
from collections import Counter

from mmeb_assets.ingestion.table_bands import walled_in_one_column
from mmeb_assets.ingestion.table_words import Line, Phrase

Span = tuple[int, int]
CONTINUED = re.compile(r"\s*(?:[—–-]\s*|\()(?:continued|cont\.)\)?$", re.I)  # 'Projected—Continued' on a table's next page
LONE_ACCENT = re.compile(r"\s+[ˆ˜¯¨´]+(?=\s|$)")  # the hat of 'P̂@1' printed as a glyph of its own


def _centres(anchors) -> list[float]:
    return [(a + b) / 2 for a, b in anchors]


def _by_verticals(phrase: Phrase, anchors, vertical) -> Span | None:
    y = (phrase.y0 + phrase.y1) / 2
    xs = sorted(v[1] for v in vertical if v[0] - 1 <= y <= v[2] + 1)
    if len(xs) < 2:
        return None
    left = max((x for x in xs if x <= phrase.x0 + 1), default=None)
    right = min((x for x in xs if x >= phrase.x1 - 1), default=None)
    if left is None and right is None:
        return None
    left = anchors[0][0] - 1 if left is None else left  # a grid without an outer border on that side
    right = anchors[-1][1] + 1 if right is None else right
    inside = [j for j, c in enumerate(_centres(anchors)) if left < c < right]
    return (inside[0], inside[-1]) if inside else None


def _by_rule_under(phrase: Phrase, anchors, horizontal, table_width: float) -> Span | None:
    """The columns of the rule printed just under the phrase. Where rules touch end to end, the
    narrowest one under it that still spans two columns is its group's (booktabs' cmidrules for
    'WikiSQL' and 'HotpotQA' meet); a grid draws its rule cell by cell, and the whole run counts."""
    h = phrase.y1 - phrase.y0
    spans = []
    for x0, y, x1 in horizontal:
        if phrase.y1 - 1 <= y <= phrase.y1 + 1.3 * h + 2 and x0 <= phrase.centre <= x1 and x1 - x0 < 0.9 * table_width:
            inside = [j for j, c in enumerate(_centres(anchors)) if x0 - 2 <= c <= x1 + 2]
            if inside:
                spans.append((inside[0], inside[-1]))
    groups = [s for s in spans if s[1] > s[0]]
    if groups:
        return min(groups, key=lambda s: s[1] - s[0])
    return max(spans, key=lambda s: s[1] - s[0], default=None)


def _overlapping(phrase: Phrase, anchors) -> Span:
    hit = [j for j, (a, b) in enumerate(anchors) if min(b, phrase.x1) - max(a, phrase.x0) > 0]
    if hit:
        return hit[0], hit[-1]
    centres = _centres(anchors)
    j = min(range(len(anchors)), key=lambda k: abs(centres[k] - phrase.centre))
    return j, j


def _width(span: Span) -> int:
    return span[1] - span[0] + 1


def _centred_run(phrase: Phrase, base: Span, anchors, free: set[int], lower: set[int], widest: int = 1) -> Span:
    """Grow `base` over free columns that have headers below, while the run stays centred on the
    phrase. A short head centred on the middle one of its columns ('scifi(s)' beside 'philosophy (p)',
    each over three) grows by one column each side while its neighbours on the line span as many."""
    centres = _centres(anchors)
    pitch = (centres[-1] - centres[0]) / max(len(centres) - 1, 1)
    a, b = base

    def off(lo: int, hi: int) -> float:
        return abs((centres[lo] + centres[hi]) / 2 - phrase.centre)

    def ok(j: int) -> bool:
        return 0 <= j < len(anchors) and j in free and j in lower
    while True:
        options = []
        if ok(a - 1) and ok(b + 1):
            options.append((a - 1, b + 1))
        if ok(a - 1):
            options.append((a - 1, b))
        if ok(b + 1):
            options.append((a, b + 1))
        best = min(options, key=lambda s: off(*s), default=None)
        if ok(a - 1) and ok(b + 1) and b - a + 3 <= widest and off(a - 1, b + 1) <= 0.3 * pitch:
            best = (a - 1, b + 1)
            a, b = best
            continue
        if best is None or off(*best) > 0.3 * pitch or off(*best) > off(a, b) and off(a, b) <= 0.3 * pitch:
            return a, b
        a, b = best


def _spans(lines: list[Line], anchors, horizontal, vertical, stub: int = 0) -> list[list[tuple[Phrase, Span]]]:
    """Per header line, each phrase with the columns it spans; a phrase over value columns never
    grows over the stub."""
    width = anchors[-1][1] - anchors[0][0]
    out = []
    lines = [_split_leaf(line, anchors, vertical) if k == len(lines) - 1 else line for k, line in enumerate(lines)]
    for k, line in enumerate(lines):
        lower = {j for later in lines[k + 1:] for p in later.phrases for j in range(*_inc(_overlapping(p, anchors)))}
        taken = {j for p in line.phrases for j in range(*_inc(_overlapping(p, anchors)))}
        spans = []
        for p in line.phrases:
            base = _overlapping(p, anchors)
            if k == len(lines) - 1:  # the leaf line: each phrase over its own column
                if not p.numeric and _in_a_gap(p, anchors) and any(
                        q is not p and _overlapping(q, anchors) == base and _stands_over(q, anchors[base[0]])
                        and min(abs(q.x0 - p.x1), abs(p.x0 - q.x1)) >= 6 for q in line.phrases):
                    continue  # the head of a column printed without values ('IB' over check marks)
                spans.append((p, base))
                continue
            others = (taken - set(range(base[0], base[1] + 1))) | (set(range(len(anchors))) - lower)
            span = _without(_by_verticals(p, anchors, vertical), base, others) or \
                _without(_by_rule_under(p, anchors, horizontal, width), base, others)
            if span is None and _flush_right_head(p, base, anchors, lines[k + 1:]):
                span = base
            if span is None:
                own = set(range(base[0], base[1] + 1))
                free = (set(range(len(anchors))) - taken) | own
                if base[0] >= stub:
                    free -= set(range(stub))
                free -= _claimed_beside(out, line)
                widest = max((_width(_overlapping(q, anchors)) for q in line.phrases if q is not p), default=1)
                span = _centred_run(p, base, anchors, free, lower | own, widest)
            spans.append((p, span or base))
        out.append(_merge_same_span(spans))
    return out


def _flush_right_head(phrase: Phrase, base: Span, anchors, lower: list[Line]) -> bool:
    """The phrase is set flush right over one column of right-aligned numbers, as the head under it
    is ('Under-' over 'graduate only'), clear of the column to its left: it heads that column alone,
    however well a wider run would centre on it."""
    a, b = base
    right = anchors[b][1]
    flush = a == b and abs(phrase.x1 - right) <= 1.5 and (a == 0 or phrase.x0 > anchors[a - 1][1])
    return flush and any(abs(q.x1 - right) <= 1.5 for line in lower for q in line.phrases)


def _claimed_beside(done: list[list[tuple[Phrase, Span]]], line: Line) -> set[int]:
    """Columns a header on the line above spans where the two lines overlap in height: a cell set
    lower than its neighbours ('Recomm.' beside 'Citation prediction') does not reach under it."""
    if not done:
        return set()
    return {j for p, (a, b) in done[-1] if p.y1 > line.y0 + 0.5 for j in range(a, b + 1)}


def _merge_same_span(spans: list[tuple[Phrase, Span]]) -> list[tuple[Phrase, Span]]:
    """Phrases of one line over the same columns are one header ('since' '1980' printed a word gap
    apart), so a wrapped header's next line joins it whole."""
    merged: list[tuple[Phrase, Span]] = []
    for phrase, span in spans:
        if merged and merged[-1][1] == span:
            last = merged[-1][0]
            phrase = Phrase(last.x0, min(last.y0, phrase.y0), phrase.x1, max(last.y1, phrase.y1),
                            f"{last.text} {phrase.text}", [*last.words, *phrase.words])
            merged[-1] = (phrase, span)
        else:
            merged.append((phrase, span))
    return merged


def _in_a_gap(phrase: Phrase, anchors) -> bool:
    """The phrase stands clear of every column, with room either side: over a column of its own
    whose cells hold no values (check marks, symbols). A year printed just after a word is the
    rest of that header ('Value 2023'), hence the callers' test for a number and a wider gap."""
    left = max((b for a, b in anchors if b < phrase.x0), default=None)
    right = min((a for a, b in anchors if a > phrase.x1), default=None)
    return left is not None and right is not None and phrase.x0 - left >= 3 and right - phrase.x1 >= 3


def _stands_over(phrase: Phrase, anchor: tuple[float, float]) -> bool:
    return min(anchor[1], phrase.x1) - max(anchor[0], phrase.x0) > 0


def _without(span: Span | None, base: Span, others: set[int]) -> Span | None:
    """`span` cut back to the run around `base` that no other phrase of the line stands over (a
    grid may rule only the outer edges of a group)."""
    if span is None:
        return None
    a, b = base
    while a - 1 >= span[0] and a - 1 not in others:
        a -= 1
    while b + 1 <= span[1] and b + 1 not in others:
        b += 1
    return a, b


def _inc(span: Span) -> tuple[int, int]:
    return span[0], span[1] + 1


def _join(upper: str, lower: str) -> str:
    if upper.endswith("-"):
        return f"{upper[:-1]}{lower}" if lower[:1].islower() else f"{upper}{lower}"
    if upper.endswith("–") and lower[:1].isdigit():  # a range broken after its dash ('$10,000–' / '14,999')
        return f"{upper}{lower}"
    if re.search(r"\w/$", upper):  # 'Asian/' / 'Pacific Islander' (but 'Murder /' keeps its space)
        return f"{upper}{lower}"
    return f"{upper} {lower}"


def read_header(lines: list[Line], anchors, stub: int, horizontal, vertical) -> tuple[list[list[str]], list[list[str]]]:
    """(column paths, printed header rows). A path is a column's header levels top-down (stub
    columns get []), wrapped text over the same column on consecutive lines joined into one level;
    a header row repeats a spanning phrase over each column it spans."""
    lines = [_merged_in_ruled_cells(line, vertical) for line in lines]
    lines = [_split_right_aligned(line, anchors) for line in _join_hyphen_breaks(_merge_overlapping(lines))]
    spans_by_line = _spans(lines, anchors, horizontal, vertical, stub)
    rows = []
    for spans in spans_by_line:
        row = ["" for _ in anchors]
        for phrase, (a, b) in spans:
            for j in range(a, b + 1):
                row[j] = f"{row[j]} {phrase.text}".strip()
        rows.append(row)
    return _column_paths(lines, spans_by_line, anchors, stub, horizontal), rows


def _join_hyphen_breaks(lines: list[Line]) -> list[Line]:
    """A header word broken at a hyphen ('System to Sim-' / 'ple') is one phrase on the upper line,
    whatever columns the lower piece stands over."""
    out = [Line(l.y0, l.y1, list(l.phrases)) for l in lines]
    for k in range(1, len(out)):
        upper, lower = out[k - 1], out[k]
        if not _close(upper, lower):
            continue
        for i, p in enumerate(upper.phrases):
            if not re.search(r"[a-z]-$", p.text):
                continue
            q = next((q for q in lower.phrases if q.text[:1].islower() and p.x0 - 2 <= q.x0 <= p.x1), None)
            if q is not None:
                upper.phrases[i] = Phrase(p.x0, p.y0, max(p.x1, q.x1), p.y1, f"{p.text[:-1]}{q.text}", [*p.words, *q.words])
                lower.phrases.remove(q)
    return [l for l in out if l.phrases]


def _merge_overlapping(lines: list[Line]) -> list[Line]:
    """Header lines that share most of their height are one header row: a cell centred between two
    rows of a neighbour ('Actual 2003–04' beside 'Projected', a few points lower)."""
    out: list[Line] = []
    for line in lines:
        last = out[-1] if out else None
        if last and min(last.y1, line.y1) - max(last.y0, line.y0) > 0.5 * min(last.height, line.height) and not any(
                min(p.x1, q.x1) > max(p.x0, q.x0) for p in last.phrases for q in line.phrases):
            out[-1] = Line(min(last.y0, line.y0), max(last.y1, line.y1),
                           sorted([*last.phrases, *line.phrases], key=lambda p: p.x0))
        else:
            out.append(line)
    return out


def _merged_in_ruled_cells(line: Line, vertical) -> Line:
    """Phrases of one line inside one ruled cell are one header, however wide the gap a justified cell
    puts between its words ('Complex      to' / 'System' between two vertical rules)."""
    y = (line.y0 + line.y1) / 2
    xs = sorted(x for y0, x, y1 in vertical if y0 - 1 <= y <= y1 + 1)
    if len(xs) < 4:  # a grid ruled between its columns, not only a rule beside the stub
        return line

    def cell(p: Phrase) -> int:
        return sum(1 for x in xs if x <= p.x0 + 1)
    phrases: list[Phrase] = []
    for p in line.phrases:
        last = phrases[-1] if phrases else None
        if last and not p.numeric and not last.numeric and cell(last) == cell(p) and 0 < cell(p) < len(xs):
            phrases[-1] = Phrase(last.x0, min(last.y0, p.y0), p.x1, max(last.y1, p.y1), f"{last.text} {p.text}",
                                 [*last.words, *p.words])
        else:
            phrases.append(p)
    return Line(line.y0, line.y1, phrases)


def _one_cell(lines: list[Line], above: int, k: int, j: int, anchors, stub: int, horizontal) -> bool:
    """Lines `above` and k, the header text over column j on two lines in a row, are one header
    cell: no rule between them over the column, and the stub does not name both lines as levels of
    their own ('Subtask →' / 'Metric →'). A neighbour's line may sit between them, a cell centred
    lower than its neighbours ('BLEU' / 'w.r.t simple' beside a three-line cell)."""
    stub_right = anchors[stub - 1][1] + 2 if stub else anchors[0][0] - 2
    named = all(any(p.x1 <= stub_right for p in lines[i].phrases) for i in (above, k))
    return not _ruled_between(lines, above, k, anchors[j], horizontal) and not named


def _ruled_between(lines: list[Line], above: int, k: int, anchor: tuple[float, float], horizontal) -> bool:
    """A rule printed between the two lines over this column: they are two header cells."""
    centre = (anchor[0] + anchor[1]) / 2
    return any(lines[above].y1 - 1 <= y <= lines[k].y0 + 1 and x0 - 2 <= centre <= x1 + 2 for x0, y, x1 in horizontal)


def _column_paths(lines: list[Line], spans_by_line, anchors, stub: int, horizontal) -> list[list[str]]:
    width = len(anchors)
    paths: list[list[str]] = [[] for _ in range(width)]
    last_span: list[Span | None] = [None] * width
    last_line: list[int] = [-9] * width
    covered = [{j for _p, (a, b) in spans for j in range(a, b + 1)} for spans in spans_by_line]
    sparse = [k > 0 and len(covered[k]) <= 0.5 * len(covered[k - 1]) for k in range(len(lines))]
    # a head printed again under each head above it ('Train' / 'Dev' / 'Test', each over 'Words/Sent') is a level of its own
    repeated = [{t for t, n in Counter(p.text for p, _s in spans if not p.numeric).items() if n > 1} for spans in spans_by_line]
    for k, spans in enumerate(spans_by_line):
        for phrase, (a, b) in spans:
            for j in range(a, b + 1):
                above = last_line[j]
                wraps = (last_span[j] == (a, b) and above >= 0 and _close(lines[above], lines[k])
                         and (above == k - 1 or not _ruled_between(lines, above, k, anchors[j], horizontal))
                         and (_wrapped(paths[j], phrase.text, sparse[k])
                              or phrase.text not in repeated[k] and _one_cell(lines, above, k, j, anchors, stub, horizontal)))
                if wraps and paths[j]:
                    paths[j][-1] = _join(paths[j][-1], phrase.text)
                else:
                    paths[j].append(phrase.text)
                last_span[j], last_line[j] = (a, b), k
    return [[] if j < stub else [CONTINUED.sub("", LONE_ACCENT.sub("", level)) for level in p] for j, p in enumerate(paths)]


def _wrapped(path: list[str], lower: str, sparse_line: bool) -> bool:
    """The lower text carries on the header above rather than naming a level under it: a hyphen
    break, a lower-case or bracketed continuation, a line that covers few of the columns, or the word
    a lone ordinal heads ('1' over 'Grade')."""
    upper = path[-1] if path else ""
    return (upper.endswith("-") or lower[:1].islower() or lower.startswith("(") or sparse_line
            or bool(re.fullmatch(r"\d{1,2}", upper)) and lower[:1].isalpha())


def _close(upper: Line, lower: Line) -> bool:
    return lower.y0 - upper.y1 < 0.6 * max(upper.height, 1.0)


def _split_leaf(line: Line, anchors, vertical=()) -> Line:
    """Leaf headers printed close together read as one phrase ('CLS USR CITE REC'): split a phrase
    whose words each stand over a different column, in column order; not one a grid's walls enclose
    ('Quite healthy' over a right-aligned column: its first word overhangs the column to its left)."""
    phrases: list[Phrase] = []
    for phrase in line.phrases:
        pieces = _word_pieces(phrase) if not walled_in_one_column(phrase, anchors, vertical) else [phrase]
        owners = [_owner(p, anchors) for p in pieces]
        for k in range(1, len(pieces)):  # '(%)', '(ms)' belong to the word before them
            if pieces[k].text.startswith(("(", "[")) or pieces[k - 1].text.endswith(("-", "/")):
                owners[k] = owners[k - 1]
        if len(pieces) < 2 or None in owners or len(set(owners)) < 2 or owners != sorted(owners):
            phrases.append(phrase)
            continue
        merged: list[Phrase] = []
        for piece, owner, previous in zip(pieces, owners, [None, *owners[:-1]]):
            if merged and owner == previous:
                last = merged[-1]
                merged[-1] = Phrase(last.x0, min(last.y0, piece.y0), piece.x1, max(last.y1, piece.y1),
                                    f"{last.text} {piece.text}", [*last.words, *piece.words])
            else:
                merged.append(piece)
        phrases.extend(merged)
    return Line(line.y0, line.y1, phrases)


def _word_pieces(phrase: Phrase) -> list[Phrase]:
    if len(phrase.words) < 2:
        return [phrase]
    return [Phrase(x0, phrase.y0, x1, phrase.y1, text, [(x0, x1, text)]) for x0, x1, text in phrase.words]


def _owner(piece: Phrase, anchors) -> int | None:
    for j, (a, b) in enumerate(anchors):
        left = anchors[j - 1][1] if j else a - 20
        right = anchors[j + 1][0] if j + 1 < len(anchors) else b + 20
        if a - 0.4 * (a - left) <= piece.centre <= b + 0.4 * (right - b):
            return j
    return None


def _split_right_aligned(line: Line, anchors) -> Line:
    """Column heads set flush right over right-aligned numbers and printed close together read as one
    phrase ('Less than $10,000– $15,000– $30,000–'): cut it where every piece ends at the right edge
    of a column of its own."""
    rights = [b for _a, b in anchors]
    phrases: list[Phrase] = []
    for phrase in line.phrases:
        cuts = [k for k, (_x0, x1, _t) in enumerate(phrase.words) if any(abs(x1 - r) <= 1.5 for r in rights)]
        if len(phrase.words) < 2 or not cuts or cuts[-1] != len(phrase.words) - 1 or len(cuts) < 2:
            phrases.append(phrase)
            continue
        ends = [next(j for j, r in enumerate(rights) if abs(phrase.words[k][1] - r) <= 1.5) for k in cuts]
        if len(set(ends)) < len(ends):
            phrases.append(phrase)
            continue
        start = 0
        for k in cuts:
            words = phrase.words[start:k + 1]
            phrases.append(Phrase(words[0][0], phrase.y0, words[-1][1], phrase.y1, " ".join(w[2] for w in words), words))
            start = k + 1
    return Line(line.y0, line.y1, phrases)
