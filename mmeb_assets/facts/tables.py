"""Facts in tables, read as a reader reads them: the column header (header rows joined, top level
first) names the measure, the row header is the subject, each numeric cell is one fact.

Tables whose first column is list numbering ("1.", "2.") or term/definition pairs are lists, not
numeric tables: their numbers are kept out (`list_table`). Identifier and year columns hold no facts.
"""
from __future__ import annotations

import re

from mmeb_assets.facts.caption_names import caption_benchmark, expanded_head
from mmeb_assets.facts.glossary import expanded as with_expansion
from mmeb_assets.facts.summary_rows import parent_rows
from mmeb_assets.facts.misreads import continuation, garbled, misread_table, values_in_label
from mmeb_assets.facts.measure_rows import UNIT_COLUMN, row_unit, rows_are_measures, unit_column
from mmeb_assets.facts.measure_words import GROUP_ONLY, METRIC_WORDS, NAMED_METRIC, PERCENTILE, STATISTICS, names_a_measure
from mmeb_assets.facts.prose import Tally
from mmeb_assets.ingestion.numbers import parse_number
from mmeb_assets.ingestion.table_words import MAGNITUDES
from mmeb_assets.ingestion.table_kind import list_reason
from mmeb_assets.ingestion.table_structure import cell_paths
from mmeb_assets.ingestion.table_units import split_unit
from mmeb_assets.schema.source import Fact, Table, caption_title

ID_HEADER = re.compile(r"^\s*(?:no\.?|#|id|ids|number|ref\.?|reference|year|years|date|page|pages|section|item|"
                       r"step|code|doi|isbn|version|subcategory|category|function)\s*$", re.I)
YEAR = re.compile(r"^(?:19|20)\d\d$")
UNIT_IN_HEADER = re.compile(r"\((%|ms|s|GB|MB|USD|\$|£|€|[a-zA-Z/ ]{1,12})\)\s*$")


def _numeric(cell: str) -> float | None:
    """The cell's number; a count with its share beside it ('1269 (19.9%)', '101(20.4%)') is its count,
    a count in millions ('28.9M') its printed number."""
    core = re.sub(r"[*†‡§¶]+$|\s*\(\d+(?:\.\d+)?%?\)$|^[↑↓]\s*", "", cell.strip())
    return parse_number(core[:-1] if MAGNITUDES.fullmatch(core) else core)


def _label_column(table: Table) -> int:
    for col in range(min(len(table.header), 3)):
        cells = [r[col] for r in table.rows if col < len(r) and r[col].strip()]
        if cells and sum(1 for c in cells if re.search(r"[A-Za-z]{2,}", c)) >= len(cells) / 2:
            return col
    return 0


def list_table_reason(table: Table) -> str:
    """Why a table gives no facts ('' if it is a results table): ingestion's reading of what its
    columns hold (examples, lists), a reading no question may rest on (`misreads.misread_table`),
    else list numbering or too few numeric cells."""
    if table.kind != "results":
        return table.kind_reason or f"{table.kind} table"
    if misread := misread_table(table):
        return f"misread: {misread}"
    return list_reason(table.rows, 1)


def header_names(table: Table) -> tuple[list[str], int]:
    """Column names with header rows joined (multi-level and merged headers): the table header plus any
    leading rows that hold no number, top level first; and how many rows were header rows."""
    names = [h.strip() for h in table.header]
    used = 0
    for row in table.rows:
        if any(_numeric(c) is not None for c in row[1:]) or used >= 8:
            break
        names = [" ".join(p for p in (names[j] if j < len(names) else "", row[j].strip() if j < len(row) else "") if p)
                 for j in range(max(len(names), len(row)))]
        used += 1
    # a merged top-level cell spans the empty cells to its right: carry it into their names
    group = ""
    for j, name in enumerate(list(table.header)):
        if name.strip():
            group = name.strip()
        elif j > 0 and group:
            names[j] = f"{group} {names[j]}".strip()
    return names, used


def caption_measure(table: Table) -> str:
    """The measure a caption names for a table whose columns are years: 'Table 1: Emissions by sector
    (kt CO2e), 2023-2025' -> 'Emissions by sector (kt CO2e)'; '' when the caption names nothing."""
    text = caption_title(table.caption).split(". ")[0].strip().rstrip(".")
    text = re.sub(r",?\s*(?:in\s+)?(?:19|20)\d\d\s*(?:[-–]\s*(?:19|20)?\d\d)?\s*$", "", text).strip(" ,;:")
    return text if re.search(r"[A-Za-z]{3,}", text) and len(text) <= 120 else ""


CAPTION_QUANTITY = re.compile(
    r"^(?:the\s+)?((?:total\s+)?(?:number|numbers|count|counts|percentage|percentages|share|shares|proportion|"
    r"proportions|amount|amounts|size|sizes)\s+of\s+[A-Za-z][\w\s\-]{0,40}?)"
    r"(?=(?:\s+(?:categori[sz]ed|classified|broken\s+down|grouped|distributed|disaggregated|tabulated))?"
    r"\s+(?:in|by|per|for|across|on|at|from|over|during|with)\b|\s*[,.:;(]|$)", re.I)  # 'categorized by': not named


CAPTION_HEAD = re.compile(r"^((?:[\w\-]+\s){0,4}?[\w\-]+?)(?=\s+(?:of|on|for|by|across|per|in|over|from|with|between)\b|\s*[,.:;(]|$)",
                          re.I)


def caption_head(table: Table) -> str:
    """The measure a caption leads with, when it leads with one: 'Accuracy of five classifiers on
    each genre' -> 'Accuracy'; 'Results of human evaluation' -> '' (results measure nothing)."""
    text = caption_title(table.caption).strip()
    match = CAPTION_HEAD.match(text)
    head = match.group(1).strip() if match else ""
    if re.search(r"\band\b|[,&/]", head):
        last = head.split()[-1]  # 'Mean and maximum accuracy': one measure under two statistics
        shared = last.lower() in METRIC_WORDS and not any(w.lower() in METRIC_WORDS for w in head.split()[:-1]
                                                           if w.lower() not in STATISTICS)
        return last.capitalize() if shared else ""  # 'Accuracy and throughput': several measures
    return head if head and names_a_measure(head) and len(head.split()) <= 5 else ""


def caption_quantity(table: Table) -> str:
    """What every value of a table counts, when its caption says so: 'Table 1: Number of questions in
    each QA dataset' -> 'Number of questions' (the columns then are only splits: 'Train', 'Test')."""
    text = caption_title(table.caption).strip()
    match = CAPTION_QUANTITY.match(text)
    return match.group(1).strip() if match else ""


def year_column_fact(table: Table, row_label: str, year: str) -> tuple[str, str]:
    """(measure, subject) of a cell under a year column. 'Emissions by sector': the caption names the
    measure and the row is the subject in that year; 'Indicators by year' (no other 'by'): each row
    names its own measure and the year is the subject."""
    caption = caption_measure(table)
    if re.search(r"\bby (?!years?\b)\w", caption):
        return caption, f"{row_label} in {year}"
    return row_label, year


def _unit_of(name: str, cell: str) -> str:
    if cell.strip().endswith("%"):
        return "%"
    match = UNIT_IN_HEADER.search(name)
    return match.group(1).replace("$", "USD") if match else ""


def measure_name(table: Table, column_path: list[str] | tuple[str, ...], unit: str) -> str:
    """A column's measure as the document names it: its header path top-down, units taken out of the
    words and put once at the end ('Classification MAG F1', 'Retrieval Templates (unfilled)',
    'Accuracy, dev split, 5-shot (%)'); where the path names only years, periods or conditions,
    the caption's measure leads ('Emissions by sector (kt CO2e) 2024')."""
    raw = _path_words(column_path)
    words = [with_expansion(w, table.glossary) for w in raw]
    joiner = " " if all(len(w.split()) <= 3 for w in words) else ", "
    name = joiner.join(words)
    if joiner == ", " and len(words) >= 2 and all(len(w.split()) <= 2 for w in words[1:]):
        name = f"{words[0]} ({', '.join(words[1:])})"  # 'Mentions of Ext. Resources (yes)'
    # a measure named by the head as printed or a metric its expansion names ('R-1' -> 'ROUGE-1'), not by
    # any word inside an expansion ('DRS (decreasing returns to scale)' names no measure)
    printed = " ".join([*raw, unit]) + (" " + " ".join(NAMED_METRIC.findall(name)) if NAMED_METRIC.search(name) else "")
    expanded = expanded_head(table, words[-1]) if words else ""
    quantity = caption_quantity(table)
    if expanded:  # 'No.' under 'White', the caption counting deaths: 'number of deaths (White)'
        name = f"{expanded} ({', '.join(words[:-1])})" if len(words) > 1 else expanded
    elif quantity and quantity.lower() not in name.lower():
        name = f"{quantity} ({_flat(name, words)})" if name else quantity
    elif _is_code(raw) and words == raw and not names_a_measure(name) or \
            all(YEAR.match(w) or re.fullmatch(r"[\d\s\-–/.]+", w) for w in words):
        name = _led_by_caption(table, " ".join(raw), words)
    elif not names_a_measure(printed) and (head := caption_head(table) or table.measure_hint):
        name = f"{head} ({_flat(name, words)})"  # 'phil' under 'Accuracy of five classifiers ...': accuracy on phil
    elif name and not names_a_measure(printed) and (bench := caption_benchmark(table)):
        name = f"{bench} result ({_flat(name, words)})"  # '1st Round' under '... behaves similarly on MT-Bench'
    if table.topic and table.topic.lower() not in name.lower():
        name = f"{name} for {table.topic}"  # twin tables: 'death rate (White) for stroke'
    if unit and unit.lower() not in name.lower() and not (unit == "%" and re.match(r"percent", name, re.I)):
        name = f"{name} ({unit})" if name else unit
    return re.sub(r"\s+", " ", name).strip()


def _led_by_caption(table: Table, name: str, words: list[str]) -> str:
    """A head of periods or short codes named with the caption's measure: periods read after it
    ('Emissions in 2024'); a code the document never explains is quoted as its table's column
    ("'S1 F' column of ANOVA results"), never glued to the caption as if one name."""
    lead = _caption_lead(table)
    if not lead or len(lead.split()) > 8:
        return name
    if all(PERIOD.match(w) for w in words):
        return f"{lead} in {name}".strip()
    meaning = " ".join(words) if " ".join(words) != name else ""
    meaning = meaning[len(name):].strip() if meaning.startswith(name) else meaning
    return f"'{name}' {meaning + ' ' if meaning else ''}column of {lead}" if name.strip() else lead


def _is_code(words: list[str]) -> bool:
    """A head printed as a code ('S1 F', 'H&S', 'M&T'): no word of three letters or more in lower
    case, so no reader knows what it measures without the table. A percentile ('P80') is no code."""
    text = " ".join(words)
    if all(PERCENTILE.match(w) for w in words):
        return False
    return bool(text.strip()) and not re.search(r"[A-Za-z][a-z]{2,}", text)


def _caption_lead(table: Table) -> str:
    """What a caption says the values of its period columns are, as a phrase a period can follow:
    'Emissions by sector, kt CO2e' -> 'Emissions' (the rows are the sectors, the unit is said once
    at the name's end, so 'Emissions in 2024 (kt CO2e)')."""
    bare = split_unit(caption_measure(table))[0]
    if re.search(r"[A-Za-z]{3,}", re.sub(r"\s+by\s+.*$", "", bare)):
        bare = re.sub(r"\s+by\s+.*$", "", bare)
    return bare.strip(" ,;:")


def _flat(name: str, words: list[str]) -> str:
    """A name set inside brackets has none of its own: 'Frequency (How often ..., Rarely/Never)', not
    'Frequency (How often ... (Rarely/Never))'."""
    return ", ".join(words) if "(" in name and words and not any("(" in w for w in words) else name


DIRECTION_MARK = re.compile(r"\s*[↑↓⇑⇓]\s*")
PERIOD = re.compile(r"^(?:19|20)\d\d(?:\s?[-–/]\s?(?:19|20)?\d\d)?$")


def _path_words(column_path) -> list[str]:
    """The header levels without their units. A leaf that is only a unit word ('Percent' under
    '2005') stays as the measure's word, and a period over a measure reads after it: 'Percent in
    2005', 'Number in 2010' rather than '2005 (%)'."""
    words = []
    for k, level in enumerate(column_path):
        level = DIRECTION_MARK.sub("", level).strip()  # 'Acc ↑': the arrow says which way is better
        level = re.sub(r"^([A-Z][a-z]{3,})\.(?=\s|$)", r"\1", level)  # 'Average.' is the word 'Average'
        bare, unit = split_unit(level)
        words.append(bare or (level.strip() if unit and k == len(column_path) - 1 and level.strip()[:1].isalpha() else ""))
    words = [w for w in dict.fromkeys(w.strip() for w in words) if w]
    if len(words) > 1:
        words = [w for w in words if not GROUP_ONLY.match(w)] or words  # 'DESCRIPTIVE STATISTICS' over 'Mean'
    if len(words) == 2 and PERIOD.match(words[0]) and not PERIOD.match(words[1]):
        return [f"{words[1]} in {words[0]}"]
    return words


def row_subject(row_path: list[str] | tuple[str, ...], glossary: dict[str, str] | None = None) -> str:
    """Whom a row's values belong to: its own label, its groups after it in brackets
    ('LSTM (Neural models)'), so two rows of one name in two groups stay apart; an abbreviated
    label with the document's expansion ('H&S (Heilman and Smith)')."""
    parts = [with_expansion(p.strip(), glossary or {}) for p in row_path if p.strip()]
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[-1]
    if any("(" in p for p in parts):  # 'Long-to-Short Methods (32B): O1-pruner', never brackets in brackets
        return f"{', '.join(parts[:-1])}: {parts[-1]}"
    return f"{parts[-1]} ({', '.join(parts[:-1])})"


def shared_name_columns(table: Table) -> set[int]:
    """Value columns whose header path another column repeats ('Train' | 'Train'): a reader cannot
    tell their values apart by name, so they give no facts."""
    paths = [tuple(p) for p in table.column_paths]
    return {c for c, p in enumerate(paths) if c >= table.stub_columns and p and paths.count(p) > 1}


def shared_name_rows(table: Table) -> set[int]:
    """Rows whose path another row repeats (three 'Gold' rows told apart only by a value column):
    no question could say which is meant, so they give no facts."""
    paths = [tuple(p) for p in table.row_paths]
    return {r for r, p in enumerate(paths) if p and paths.count(p) > 1}


def _cell_names(table: Table, cell) -> tuple[str, str, str]:
    """(measure, subject, unit) of a value cell. In a table whose rows are measures (a 'Unit' stub:
    `measure_rows`) the row names the measure with its own unit, and the column says when or which
    ('NOx (t)' of '2024'); elsewhere the column path names the measure and the row the subject."""
    if rows_are_measures(table):
        unit = row_unit(table, cell.row) or (cell.unit if table.rows[cell.row][unit_column(table)].strip() else "")
        label = row_subject(cell.row_path, table.glossary)
        measure = f"{label} ({unit})" if unit and unit.lower() not in label.lower() else label
        return measure, " ".join(p for p in cell.column_path if p.strip()), unit
    return measure_name(table, cell.column_path, cell.unit), row_subject(cell.row_path, table.glossary), cell.unit


def _structured_facts(table: Table, tally: Tally) -> list[Fact]:
    facts = []
    ambiguous, repeated = shared_name_columns(table), shared_name_rows(table)
    for cell in cell_paths(table):
        if cell.col in ambiguous or cell.row in repeated:
            tally.add("no_measure", f"{table.id} p{table.page}: {cell.value!r} at {cell.row_path!r} / "
                                    f"{cell.column_path!r}, a name another row or column repeats")
            continue
        if not any(part.strip() for part in cell.column_path):
            tally.add("no_measure", f"{table.id} p{table.page}: {cell.value!r} in a column without a header")
            continue
        name, subject, unit = _cell_names(table, cell)
        where = f"{table.id} p{table.page}: {cell.value!r}"
        if garbled(name) or garbled(subject) or continuation(cell.row_path):
            tally.add("no_measure", f"{table.id} p{table.page}: {cell.value!r}: head {name!r} misread (brackets unpaired)")
            continue
        identifier = bool(cell.column_path) and ID_HEADER.match(" ".join(cell.column_path))
        if identifier or not re.search(r"[A-Za-z]{2,}", name):
            tally.add("identifier" if identifier else "no_measure", f"{where} under {cell.column_path!r}")
            continue
        if not subject or values_in_label(subject):
            tally.add("no_measure", f"{where} (no row header)" if not subject else f"{where}: row label {subject!r} holds values")
            continue
        if YEAR.match(cell.value.strip()) and not cell.unit:
            tally.add("date", where)
            continue
        facts.append(Fact(measure=name, value=cell.value.strip(), unit=unit, subject=subject, page=table.page,
                          table_id=table.id, source=f"{table.id} row {cell.row + 1} column {cell.col + 1}",
                          row_path=list(cell.row_path), column_path=list(cell.column_path)))
    return facts


def named_table(table: Table) -> Table:
    """The table as the later stages show it: one label column holding each row's subject (groups
    kept), then one column per value column named by `measure_name`, so items, records, images and
    slides name a value exactly as its fact does."""
    if not table.column_paths or table.kind != "results":
        return table
    stub = max(table.stub_columns, 1)
    header = ["" if not table.stub_columns else " / ".join(table.header_rows[-1][:stub]).strip(" /")
              if table.header_rows else ""]
    units = table.column_units or [""] * len(table.column_paths)
    ambiguous = shared_name_columns(table)
    names = {c: _column_title(table, c, (units[c] if c < len(units) else "") or table.unit)
             for c in range(stub, len(table.column_paths)) if c not in ambiguous}
    kept = [c for c, name in names.items()  # a column without a header of its own gives no facts: not shown
            if any(part.strip() for part in table.column_paths[c])
            and (re.search(r"[A-Za-z]{2,}", name) or rows_are_measures(table) and PERIOD.match(name))
            and not garbled(name)]
    header += [names[c] for c in kept]
    rows = []
    repeated, parents = shared_name_rows(table), parent_rows(table)
    for r, row in enumerate(table.rows):
        path = table.row_paths[r] if r < len(table.row_paths) else row[:1]
        if r in repeated or r in parents or values_in_label(row_subject(path, table.glossary) or row[0]) \
                or continuation(path):
            continue  # as its facts: no row a reader cannot name
        rows.append([row_subject(path, table.glossary) or row[0], *[row[c] if c < len(row) else "" for c in kept]])
    numbers = [[parse_number(c) for c in row] for row in rows]
    return table.model_copy(update={"header": header, "rows": rows, "numbers": numbers,
                                    "row_paths": [[row[0]] for row in rows], "stub_columns": 1,
                                    "column_paths": [[], *[[h] for h in header[1:]]],
                                    "column_units": [""] * len(header)})


def _column_title(table: Table, c: int, unit: str) -> str:
    """A value column's name as later stages show it; in a table whose rows are measures the column
    is only when or which ('2024') and the 'Unit' column stays 'Unit'."""
    if rows_are_measures(table):
        return UNIT_COLUMN if c == unit_column(table) else " ".join(p for p in table.column_paths[c] if p.strip())
    return measure_name(table, table.column_paths[c], unit)


def table_facts(table: Table, tally: Tally) -> list[Fact]:
    """One fact per value cell of a results table; the numbers of list and example tables go to
    the tally. Tables read with their structure name each value by its column and row paths."""
    reason = list_table_reason(table)
    if reason:
        for row in table.rows:
            for cell in row:
                if _numeric(cell) is not None:
                    tally.add("list_table", f"{table.id} p{table.page}: {cell!r} ({reason})")
        return []
    if table.column_paths:
        return _structured_facts(table, tally)
    return _flat_table_facts(table, tally)


def _flat_table_facts(table: Table, tally: Tally) -> list[Fact]:
    """Tables without structure (stored before it was read, or generated): joined header rows."""
    names, header_rows = header_names(table)
    label_col = _label_column(table)
    facts: list[Fact] = []
    previous = ""
    for r, row in enumerate(table.rows[header_rows:], start=header_rows):
        subject = row[label_col].strip() if label_col < len(row) else ""
        subject, previous = subject or previous, subject or previous
        for c, cell in enumerate(row):
            if c == label_col or _numeric(cell) is None:
                continue
            name = names[c] if c < len(names) else ""
            cell_subject = subject
            if YEAR.match(name.strip()) and caption_measure(table):
                name, cell_subject = year_column_fact(table, subject, name.strip())
            if not re.search(r"[A-Za-z]{2,}", name) or ID_HEADER.match(name):
                tally.add("no_measure" if not ID_HEADER.match(name or "x") else "identifier",
                          f"{table.id} p{table.page}: {cell!r} under {name!r}")
                continue
            if YEAR.match(cell.strip()):
                tally.add("date", f"{table.id} p{table.page}: {cell!r}")
                continue
            if not subject:
                tally.add("no_measure", f"{table.id} p{table.page}: {cell!r} (no row header)")
                continue
            facts.append(Fact(measure=re.sub(r"\s+", " ", name), value=cell.strip(), unit=_unit_of(name, cell),
                              subject=cell_subject, page=table.page, table_id=table.id,
                              source=f"{table.id} row {r + 1} column {c + 1}"))
    return facts
