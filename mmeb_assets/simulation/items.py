"""Source tables -> plan items (runs / analyses): kinds, labels without values, owners, times."""
from __future__ import annotations

import re

from mmeb_assets.schema.source import SourceFacts, Table, caption_title
from mmeb_assets.simulation.drafts import ItemDraft
from mmeb_assets.simulation.reviews import REVIEW_BELOW, REVIEW_TABLE, review_rows, review_values
from mmeb_assets.simulation.statement_items import STATEMENT_TABLE, statement_rows, statement_values

YEAR = re.compile(r"^(19|20)\d\d$")
EMPTY_CELLS = {"", "-", "–", "—", "n/a", "N/A"}
ABLATION = re.compile(r"\b(w/o|without|remov|ablat|no\s)", re.I)
RELEASE_ROW = re.compile(r"\b(total|overall|all sectors|full)\b", re.I)


def has_digit(text: str) -> bool:
    return bool(re.search(r"\d", text))


def label_column(table: Table) -> int:
    """The column that names a row: the first mostly non-numeric column that is not a short id like 'R1'."""
    best = 0
    for col in range(min(len(table.header), 3)):
        cells = [r[col] for r in table.rows if col < len(r)]
        texty = sum(1 for c in cells if re.search(r"[A-Za-z]{3,}", c))
        if cells and texty >= len(cells) / 2:
            return col
    return best


LONG_CELL = 80
CODE = re.compile(r"\b[A-Z][A-Za-z]{1,15} \d+(?:\.\d+)*\b")


COUNT_AND_SHARE = re.compile(r"^(?P<count>\d[\d,]*(?:\.\d+)?[kKMB]?)\s*\((?P<share>\d+(?:\.\d+)?%)\)$")


REFERENCE_HEAD = re.compile(r"(?:see\s+)?(?:fig(?:ure)?s?|fig\.|figure\(s\)|tables?|table\(s\)|sec(?:tion)?s?\.?|"
                            r"§|pages?|pp?\.|eqs?\.|equations?|refs?\.?|references?|citations?|appendix|appendices|"
                            r"footnotes?|notes?|source\(s\)|sources?)\s*:?", re.I)


def row_values(table: Table, row: list[str], skip: int) -> dict[str, str]:
    """Column -> exact printed cell. A long prose cell contributes the first and last printed
    identifiers in it (e.g. 'GOVERN 1.1' .. 'GOVERN 1.4'), verbatim substrings, or nothing. A count
    printed with its share ('63 (18.5%)') is two values, the count and '<column> (%)': each is
    printed, and each can be compared with its like in another row."""
    out: dict[str, str] = {}
    for j, h in enumerate(table.header):
        if j == skip or j >= len(row) or row[j].strip() in EMPTY_CELLS:
            continue
        head, cell = h.strip(), row[j].strip()
        if not re.search(r"[A-Za-z]{2,}", head) and not YEAR.match(head):
            continue  # no measure name ('', '1' of a rating scale): no fact, so no value to ask about
        if REFERENCE_HEAD.fullmatch(head):
            continue  # 'Figure(s)': which figures show the row, a pointer into the document, not a measure
        if (share := COUNT_AND_SHARE.match(cell)) is not None:
            out[head], out[f"{head} (%)"] = share.group("count"), share.group("share")
            continue
        if len(cell) <= LONG_CELL:
            out[head] = cell
            continue
        codes = list(dict.fromkeys(CODE.findall(cell)))
        if codes:
            out[f"first of {head}"] = codes[0]
            if len(codes) > 1:
                out[f"last of {head}"] = codes[-1]
    return out


def short_label(text: str) -> str:
    text = text.strip()
    if len(text) <= 60:
        return text
    head = text.split(":")[0].strip()
    if 3 <= len(head) <= 40:
        return head
    return " ".join(text.split()[:7]).rstrip(",;:") + " ..."


def dataset_of(table: Table, facts: SourceFacts) -> str:
    """The dataset the caption's first sentence names ('Results on SQuAD'); later sentences explain
    ('we report macro F1 for NER') and name no dataset of the whole table."""
    caption = caption_title(table.caption)
    first = re.split(r"(?<=\w\w)\.\s+(?=[A-Z])", caption, maxsplit=1)[0]
    match = re.search(r"\b(?:on|in|for)\s+(?:the\s+)?([A-Z][\w\-.]+(?:\s[A-Z][\w\-.]+)?)", first)
    return match.group(1).rstrip(".") if match else ""


def is_year_table(table: Table) -> bool:
    return sum(1 for h in table.header if YEAR.match(h.strip())) >= 2


def classify_rows(table: Table, facts: SourceFacts, archetype: str) -> list[str]:
    """One kind per row of the table. Rows are baselines and a release candidate only where the
    document's own method is among them: a row above it is a rival system, its last row the method as
    shipped. Elsewhere (corpus statistics, metrics, scenes, answer options) no row is called either."""
    col = label_column(table)
    labels = [r[col] if col < len(r) else "" for r in table.rows]
    n = len(labels)
    if archetype == "analysis_firm":
        if is_year_table(table):
            return ["release" if RELEASE_ROW.search(l) else "chronological" for l in labels]
        return ["analysis"] * n
    if ABLATION.search(table.caption) or sum(bool(ABLATION.search(l)) for l in labels) >= max(1, n // 2):
        return ["analysis"] * n
    method = facts.textual.method_name.split(":")[0].strip().lower()
    own = [i for i, l in enumerate(labels) if method and method in l.lower()]
    if not own or own != list(range(own[0], own[-1] + 1)):
        # rows that are not the document's method and its rivals (corpora, metrics, scenes), or the
        # method once per block of rows ('Multi-LexSum D→T' among the tiny, short and long datasets)
        return ["progression"] * n
    kinds = ["baseline" if i < own[0] else "progression" for i in range(n)]
    if n > 1:
        kinds[own[-1]] = "release"
    return kinds


UNNAMED = "unnamed row"
# a label that is only a figure ('216', '$ 3,685', '(50)'): a cell of values read as the row's name
NUMBER_ONLY = re.compile(r"[\s$€£%(),.\-−–\d]*\d[\s$€£%(),.\-−–\d]*")


def _value_as_name(name: str) -> bool:
    """A row named by a figure, not a year or period ('2019', '2020-21' name rows of a time series)."""
    return bool(NUMBER_ONLY.fullmatch(name)) and not re.fullmatch(r"(?:19|20)\d\d(?:\s*[-–/]\s*(?:19|20)?\d\d)?", name.strip())


def make_label(kind: str, row_label: str, values: dict[str, str]) -> str:
    """A human name for what is measured; stripped of any of its own row's values."""
    text = re.sub(r"\s*\((?:ours|\d{4}[a-z]?)\)", "", row_label.strip(), flags=re.I)
    for v in sorted(values.values(), key=len, reverse=True):
        if has_digit(v):
            text = re.sub(rf"(?<![\w.]){re.escape(v)}(?![\w.])", "", text)
    text = re.sub(r"\s{2,}", " ", text).strip(" ,;:-") or UNNAMED
    prefix = {"baseline": "Baseline: ", "analysis": "", "chronological": "", "progression": "", "release": ""}[kind]
    suffix = {"release": " (release candidate)", "chronological": " over time"}.get(kind, "")
    return f"{prefix}{text}{suffix}"


def source_rows(facts: SourceFacts, archetype: str) -> list[dict]:
    """Every usable table row, then (when tables give fewer than `PROSE_BELOW` rows) the document's
    statements (`statement_items`: its parts, definitions and the figures of its prose, each asked in
    its own sentence's words): kind, label and exact printed values, in order. A prose figure is never
    a row of its own: named by the noun beside it, it reads as 'the number of the characters'. Fewer
    than `REVIEW_BELOW` rows from a document that states nothing: reviews of its sections (`reviews`)."""
    rows = table_rows(facts, archetype)
    stated = statement_rows(facts, archetype) if len(rows) < PROSE_BELOW else []
    if len(rows) < PROSE_BELOW:
        printed = {v for r in rows for v in r["values"].values()}
        rows += [r for r in stated if not set(r["values"].values()) <= printed]
    if len(rows) < REVIEW_BELOW and not stated:
        rows += review_rows(facts, archetype)  # only for a document that states nothing
    return first_of_each_label(rows)


def first_of_each_label(rows: list[dict]) -> list[dict]:
    """One row per label, the first: a second 'SPECTER' row (another table, a subgroup) would need a
    '(sheet B view)' or '(part A)' suffix to tell them apart, which no reader would say."""
    seen: set[str] = set()
    out = []
    for row in rows:
        if row["label"].lower() not in seen:
            seen.add(row["label"].lower())
            out.append(row)
    return out


PROSE_BELOW = 6


def source_values(facts: SourceFacts, table_id: str, row_index: int | None) -> dict[str, str] | None:
    """The exact printed values behind an item: a table row, (table_id `STATEMENT_TABLE`) a statement of
    its prose, or (table_id `REVIEW_TABLE`) the team's own review of a section."""
    if row_index is None:
        return None
    if table_id == REVIEW_TABLE:
        return review_values(facts, row_index)
    if table_id == STATEMENT_TABLE:
        return statement_values(facts, row_index)
    table = next((t for t in facts.tables if t.id == table_id), None)
    if table is None or not 0 <= row_index < len(table.rows):
        return None
    return row_values(table, table.rows[row_index], label_column(table))


def table_rows(facts: SourceFacts, archetype: str) -> list[dict]:
    """Every usable table row with its kind, label and exact printed values, in table order."""
    rows = []
    for table in facts.tables:
        if not table.rows or len(table.header) < 2:
            continue
        col = label_column(table)
        kinds = classify_rows(table, facts, archetype)
        for index, (row, kind) in enumerate(zip(table.rows, kinds)):
            values = row_values(table, row, col)
            name = short_label(row[col]) if col < len(row) and row[col].strip() else ""
            if not name or not any(has_digit(v) for v in values.values()) or _value_as_name(name):
                continue  # a row without a label (a wrapped line of the one above), or named by a value
            label = make_label(kind, name, values)
            if UNNAMED in label:
                continue  # its label was only its own values: a misread row no reader can name
            rows.append({"kind": kind, "label": label,
                         "values": values, "table_id": table.id, "row_index": index,
                         "dataset": dataset_of(table, facts)})
    return rows


def select_rows(rows: list[dict], max_items: int) -> list[dict]:
    """Keep releases and an even spread of the rest, at most `max_items`."""
    keep = [r for r in rows if r["kind"] == "release"][:2]
    rest = [r for r in rows if r not in keep]
    room = max(0, max_items - len(keep))
    if len(rest) > room:
        step = len(rest) / room if room else 0
        rest = [rest[int(i * step)] for i in range(room)]
    chosen = {id(r) for r in keep + rest}
    return [r for r in rows if id(r) in chosen]


KIND_ORDER = {"baseline": 0, "progression": 1, "chronological": 1, "analysis": 2, "statement": 2, "release": 3}


def item_drafts(rows: list[dict], archetype: str) -> list[ItemDraft]:
    """Items without owners/times yet (filled by the scheduler)."""
    prefix = "run" if archetype == "research_lab" else "ana"
    out = []
    for n, row in enumerate(rows, start=1):
        out.append(ItemDraft(id=f"{prefix}_{n:02d}", kind=row["kind"], label=row["label"], owner="",
                             done={"day": 0, "time": "09:00"}, dataset=row["dataset"], table_id=row["table_id"],
                             row_index=row["row_index"]))
    return out
