"""Tables laid out the other way round: measures down the side, systems or corpora across the top.

Why: a facts reader takes the column path for the measure and the row for the subject. A table whose
rows are metrics ('BLEU-4', 'ROUGE-2') or corpus statistics ('Lines', 'Words') over columns that are
systems or corpora would then ask for "the S2S(Base) of ROUGE-2" or "the Dutch Soccer of Lines". Such
a table is read transposed: each column becomes a row (its subject), each row label a measure.
"""
from __future__ import annotations

import re

from mmeb_assets.facts.measure_rows import rows_are_measures, with_unit_column
from mmeb_assets.ingestion.numbers import parse_number
from mmeb_assets.ingestion.table_units import path_unit
from mmeb_assets.schema.source import Table, caption_title

MEASURE_WORD = re.compile(
    r"\b(?:BLEU|ROUGE|METEOR|CIDEr|TER|chrF|SPICE|BERTScore|NIST|F1|F-?score|F-?measure|precision|recall|accuracy|"
    r"acc|MAP|MRR|nDCG|P@\d+|R@\d+|perplexity|PPL|WER|CER|correlation|kappa|AUC|loss|error rate|"
    r"avg|average|mean|median|std|total|number of|no\. of|count|lines|words|tokens|sentences|documents|"
    r"texts|types|characters|vocabulary|length|size|pairs|instances|examples|records|speakers|dialogues)\b"
    r"|^#|%", re.I)
UNIT_SUFFIX = re.compile(r"\((?:%|[a-z]{1,5}|[a-z]+/[a-z]+)\)\s*$")  # 'Time (ms)', not 'S2S(Base)'

MIN_SHARE, MAX_OTHER_SHARE = 0.6, 0.3
# a caption that leads with what the table sets ('Parameters for ...', 'Hyperparameters used ...',
# 'Training settings'), or a stub headed so; not 'Accuracy under three settings', where settings are columns
SETTINGS = re.compile(r"^(?:the\s+)?(?:(?:training|model|experimental|optimi[sz]ation|default|chosen|selected)\s+)?"
                      r"(?:hyper-?)?(?:parameters?|settings?|configurations?)\b", re.I)


def _names_measure(label: str) -> bool:
    return bool(MEASURE_WORD.search(label.strip()) or UNIT_SUFFIX.search(label.strip()))


MEASURE_STUB = re.compile(r"(?:metric|measure|statistic|indicator|variable|quantity)s?", re.I)


def _stub_head(table: Table) -> str:
    return (table.header_rows[-1][0] if table.header_rows and table.header_rows[-1] else "").strip()


def _metric_value_table(table: Table) -> bool:
    """'Metric | Value': a stub headed as measures over one column of bare values. A 'Metric' corner over
    heads that are themselves metrics ('BLEU-4', 'ROUGE-2') or statistics ('Pearson Corr', 'p-value')
    names the columns, not the rows."""
    head = table.header_rows[-1] if table.header_rows else table.header
    return bool(MEASURE_STUB.fullmatch(_stub_head(table))) and len(head) == 2 and \
        re.fullmatch(r"(?:values?|estimates?|results?|)", head[1].strip(), re.I) is not None


def is_settings_table(table: Table) -> bool:
    """A table of settings ('Parameters for the logistic regression experiments', a 'Hyperparameter'
    stub): each row is its own quantity (a batch size, a step size, a temperature), so rows are
    measures and a column is one experiment, whatever the row labels say."""
    return bool(SETTINGS.match(caption_title(table.caption).strip()) or SETTINGS.fullmatch(_stub_head(table)))


def rows_name_measures(table: Table) -> bool:
    """True when most row labels name a measure and few column heads do (one stub column, no groups),
    or the table lists settings."""
    if table.kind != "results" or table.stub_columns != 1 or len(table.rows) < 2 or table.part:
        return False
    if (is_settings_table(table) or _metric_value_table(table)) and all(len(path) == 1 for path in table.row_paths):
        return True  # settings, or 'Metric | Value' ('Pearson r', 'N paired scores'): one measure a row
    if any(len(path) != 1 for path in table.row_paths) or len(table.row_paths) != len(table.rows):
        return False
    heads = [" ".join(path) for path in table.column_paths[1:] if path]
    labels = [path[0] for path in table.row_paths]
    if len(heads) < 2:
        return False
    rows_share = sum(map(_names_measure, labels)) / len(labels)
    heads_share = sum(map(_names_measure, heads)) / len(heads)
    return rows_share >= MIN_SHARE and heads_share <= MAX_OTHER_SHARE


def transposed(table: Table) -> Table:
    """The same cells with rows and columns exchanged; the stub's head stays the corner."""
    width = len(table.column_paths)
    labels = [path[0] for path in table.row_paths]
    rows = [[" ".join(table.column_paths[j]), *[row[j] if j < len(row) else "" for row in table.rows]]
            for j in range(1, width)]
    header = [table.header[0] if table.header else "", *labels]
    return table.model_copy(update={
        "header": header, "header_rows": [header], "rows": rows,
        "numbers": [[parse_number(cell) for cell in row] for row in rows],
        "column_paths": [[], *[[label] for label in labels]], "row_paths": [[row[0]] for row in rows],
        "column_units": ["", *[path_unit([label]) for label in labels]],
    })


def oriented(table: Table) -> Table:
    """The table as its facts read: a unit stub column kept apart (`measure_rows`), a table whose
    row labels name measures over system columns transposed."""
    table = with_unit_column(table)
    return transposed(table) if not rows_are_measures(table) and rows_name_measures(table) else table
