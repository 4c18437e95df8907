"""What a drawn grid's rules say about its lines: what lies between two horizontal rules is one row,
and what a vertical rule parts is two cells.

Why: a grid prints a long row label on two lines and centres the row's values between them
('Chlorine and inorganic compounds' / '10 000  -  -' / '(as HCl)'), and a header cell on two lines
('to air' over 'kg/year'). Read line by line, the values look like a row of their own and the label's
second line like a new header. And a header row 'Very healthy | Quite healthy | Unhealthy' set with
narrow gaps reads as 'Very healthy Quite' + 'healthy' unless the cell walls part it. Where the walls
are drawn, the rules say which words belong together; tables without them (booktabs) keep the
reading by word gaps.
"""
from __future__ import annotations

import re

from mmeb_assets.ingestion.table_words import Line, Phrase

HEAD_NUMBER = re.compile(r"^(?:(?:19|20)\d\d\S*|\d)$")  # a year or a column number heads a column; it is no value
MIN_VERTICAL_RULES = 3
MIN_RULED_SHARE = 0.5  # of the gaps between lines, at least this share has a rule in it


def _ruled_between(upper: Line, lower: Line, horizontal: list[tuple]) -> bool:
    top, bottom = (upper.y0 + upper.y1) / 2, (lower.y0 + lower.y1) / 2
    x0, x1 = min(upper.x0, lower.x0), max(max(p.x1 for p in upper.phrases), max(p.x1 for p in lower.phrases))
    return any(top < y < bottom and min(hx1, x1) > max(hx0, x0) for hx0, y, hx1 in horizontal)


def _merged(band: list[Line]) -> Line:
    """One line of a band's phrases; phrases standing over each other become one, top to bottom."""
    columns: list[list[Phrase]] = []
    for phrase in sorted((p for line in band for p in line.phrases), key=lambda p: p.x0):
        column = next((c for c in columns if min(max(q.x1 for q in c), phrase.x1) > max(min(q.x0 for q in c), phrase.x0)), None)
        if column is None:
            columns.append([phrase])
        else:
            column.append(phrase)
    phrases = []
    for column in columns:
        column.sort(key=lambda p: (p.y0, p.x0))
        phrases.append(Phrase(min(p.x0 for p in column), min(p.y0 for p in column), max(p.x1 for p in column),
                              max(p.y1 for p in column), " ".join(p.text for p in column),
                              [w for p in column for w in p.words]))
    phrases.sort(key=lambda p: p.x0)
    return Line(min(l.y0 for l in band), max(l.y1 for l in band), phrases)


def merge_ruled_bands(lines: list[Line], horizontal: list[tuple], vertical: list[tuple]) -> list[Line]:
    """`lines` with each ruled band's lines merged into one, when the table is a drawn grid; else as given."""
    if len(lines) < 3 or len(vertical) < MIN_VERTICAL_RULES:
        return lines
    ruled = [_ruled_between(a, b, horizontal) for a, b in zip(lines, lines[1:])]
    if sum(ruled) < MIN_RULED_SHARE * len(ruled) or all(ruled):
        return lines
    bands: list[list[Line]] = [[lines[0]]]
    for line, rule_above in zip(lines[1:], ruled):
        if rule_above:
            bands.append([line])
        else:
            bands[-1].append(line)
    out: list[Line] = []
    for band in bands:
        if len(band) > 1 and any(_holds_value(line) for line in band):
            out.append(_merged(band))
        else:
            out.extend(band)
    return out


def _holds_value(line: Line) -> bool:
    """A band with a value in it is a body row; header bands stay line by line for the header reader
    (a spanning head over its sub-heads, 'Non-' over 'Forcible', has no rule between them either)."""
    return any(p.numeric and not HEAD_NUMBER.match(p.text) for p in line.phrases)


def split_at_rules(lines: list[Line], vertical: list[tuple]) -> list[Line]:
    """Each phrase cut where a vertical rule crossing its line runs between two of its words."""
    if len(vertical) < MIN_VERTICAL_RULES:
        return lines
    out = []
    for line in lines:
        mid = (line.y0 + line.y1) / 2
        walls = sorted(x for y0, x, y1 in vertical if y0 - 1 <= mid <= y1 + 1)
        out.append(Line(line.y0, line.y1, [piece for p in line.phrases for piece in _cut(p, walls)]) if walls else line)
    return out


def _cut(phrase: Phrase, walls: list[float]) -> list[Phrase]:
    pieces: list[list[tuple[float, float, str]]] = [[phrase.words[0]]] if phrase.words else []
    for word in phrase.words[1:]:
        if any(pieces[-1][-1][1] <= x <= word[0] for x in walls):
            pieces.append([word])
        else:
            pieces[-1].append(word)
    if len(pieces) < 2:
        return [phrase]
    return [Phrase(ws[0][0], phrase.y0, ws[-1][1], phrase.y1, " ".join(w[2] for w in ws), ws) for ws in pieces]


def walled_in_one_column(phrase: Phrase, anchors, vertical) -> bool:
    """The phrase stands in one ruled cell over one column: vertical rules either side of it at its
    height, none through it, and one column between them."""
    y = (phrase.y0 + phrase.y1) / 2
    xs = [v[1] for v in vertical if v[0] - 1 <= y <= v[2] + 1]
    left = max((x for x in xs if x <= phrase.x0 + 1), default=None)
    right = min((x for x in xs if x >= phrase.x1 - 1), default=None)
    if left is None or right is None or any(phrase.x0 + 1 < x < phrase.x1 - 1 for x in xs):
        return False
    return sum(left < (a + b) / 2 < right for a, b in anchors) == 1
