"""Rows and heads a table reader misread, which no question may name.

Why: a wrapped row label split in two gives a row named '(percentage change; - depreciation)' that
holds the next row's values; a head read across two columns has unpaired brackets ('7B Models
(Based'); a label that swallowed its row's values reads '0.29 0.2 (Prodigy-METEO 0.19'. Facts and the
tables later stages show leave such rows and columns out rather than ask about them.
"""
from __future__ import annotations

import re


def continuation(row_path) -> bool:
    """A row whose own label is the second line of the label above ('(percentage change; -
    depreciation)' under 'Real effective exchange rate'): the reader split one wrapped label, and
    the values beside it may be the next row's."""
    own = next((p.strip() for p in reversed(list(row_path)) if p.strip()), "")
    return bool(re.match(r"^\(\s*[a-z%]", own))


def garbled(name: str) -> bool:
    """A head read across two columns ('MATH Tokens on Qwen2.5-7B-Instruct)', '7B Models (Based'):
    its brackets do not pair, and no reader of the page would name the column so."""
    return name.count("(") != name.count(")")


def values_in_label(label: str) -> bool:
    """A row label holding a row of values ('0.29 0.2 (Prodigy-METEO 0.19 0.69 0)'): cells of a table
    printing several values per cell ran into the stub; no reader names a row so."""
    numbers = [t for t in label.split() if re.fullmatch(r"\(?[-−]?(?:\d[\d,]*)?\.?\d+\)?,?", t)]
    return len(numbers) >= 3 or len(numbers) >= 2 and any("." in n for n in numbers)


# words a KPI or indicator table prints as its column heads, read into the prose before or after it
HEAD_WORDS = {"description", "type", "status", "start", "end", "date", "target", "targets", "baseline", "measure",
              "indicator", "unit", "units", "value", "year", "goal", "objective", "source", "notes", "total"}
# the unit head that closes such a run ('... End Date Percentage'), or stands alone before the goal
UNIT_HEADS = {"percentage", "percent", "number", "rate", "levels", "level", "amount", "count", "dollars", "year", "value"}
# the goal a KPI row states opens with its verb ('Increase transit ridership ...', 'Reduce ...')
GOAL_VERB = re.compile(r"^(?:Increase|Reduce|Decrease|Achieve|Maintain|Improve|Expand|Complete|Ensure|Eliminate|"
                       r"Lower|Raise|Grow|Deliver|Provide|Establish|Implement|Replace|Repair|Award|Meet|Sustain|"
                       r"Double|Halve|Cut|Attain|Hire|Train|Serve|Support|Contribute|Prevent|Keep)\b")


def without_table_head(sentence: str) -> str:
    """A sentence with the table heads read into its start taken off: 'Description Type Status Start
    Date End Date Percentage Increase port capacity ...', 'Levels Increase transit ridership ...'
    (the tail of 'Percent of 2019 Levels') and 'Million VMT By September 30, 2023, the Department
    will ...' read from the goal on. Prose never opens with a bare run of capitalised words before a
    goal's verb or its deadline, so only such a run is taken; a header row with no sentence after it
    ('... End Date Target [To be determined] Actual') leaves nothing."""
    words = sentence.split()
    run = 0
    while run < len(words) and re.fullmatch(r"[A-Z][\w/&\-]*", words[run]):
        run += 1
    if run >= 4 and sum(w.lower() in HEAD_WORDS for w in words[:run]) >= 2:
        last = max(k for k, w in enumerate(words[:run]) if w.lower() in HEAD_WORDS | UNIT_HEADS)
        rest = words[last + 1:]
        skip = 0
        while skip < 2 and skip < len(rest) and re.fullmatch(r"(?=(?:\w*[A-Z]){2})[A-Z][\w]*", rest[skip]):
            skip += 1  # a unit head after the run ('MMTCO2e', 'VMT') before the goal
        return " ".join(rest[skip:]) if _opens_goal(rest[skip:]) else ""
    if words and words[0].lower() in OPENERS:
        return sentence
    for k in range(1, min(run, 3) + 1):
        if _opens_goal(words[k:]) and (GOAL_VERB.match(words[k]) or DEADLINE.match(" ".join(words[k:]))):
            return " ".join(words[k:])
    return sentence


OPENERS = {"a", "an", "the", "we", "our", "this", "these", "to", "in", "for", "it", "they", "its", "each", "all"}


def _opens_goal(words: list[str]) -> bool:
    """Words that start a sentence: a capitalised verb or word followed by running text, or a deadline."""
    if len(words) < 3:
        return False
    return bool(DEADLINE.match(" ".join(words))) or bool(
        re.fullmatch(r"[A-Z][a-z]+", words[0]) and re.match(r"[a-z0-9$]", words[1]))


DEADLINE = re.compile(r"^By (?:FY ?)?(?:(?:19|20)\d\d|(?:January|February|March|April|May|June|July|August|September|"
                      r"October|November|December)\b|the end of)")


# '3,685 $', '725 % $': a figure with the sign of the figure after it, the cells cut in the wrong place
GLUED_SIGN = re.compile(r"\d[\d,.]*\)?\s*%?\s*[$€£]$")
HEAD_VALUE = re.compile(r"[$€£(]?\s*[-−]?\d[\d,]*(?:\.\d+)?\)?\s*[$€£%]?(?:\s+[$€£]?\s*[-−(]?\d[\d,.]*\)?)*")
PERIOD_HEAD = re.compile(r"(?:FY\s*)?(?:19|20)\d\d(?:\s*[-–/]\s*(?:19|20)?\d\d)?|Q[1-4]|n\s*=\s*\d+", re.I)


def misread_table(table) -> str:
    """Why no question may rest on a table the reader misread, or '' when none: a row of values read as
    its head ('Balances, April 30, 2023 | 2,473 $ | 12,453 $', the real head lost above the area read),
    figures cut from their currency signs in the wrong place ('3,685 $' with the '$' of the next
    figure), so a row's cells no longer sit under their heads, or a column read into the row labels
    ('P70-P80' grouped under '1.5', a Norway column's cell). A financial statement's '$' printed in a
    column of its own is no misreading: its figures still line up."""
    head = table.header_rows[-1] if table.header_rows else table.header
    values = [c for c in head if c.strip() and (HEAD_VALUE.fullmatch(c.strip()) and not PERIOD_HEAD.fullmatch(c.strip())
              and re.search(r"\d,\d{3}|\d\.\d|[$€£(]", c)  # '43' may be a code's head; '2,473 $' is a value
              or len(re.findall(r"\d\.\d", c)) >= 2)]  # '34.6±1.8 34.7±1.5': a column of results read as its head
    if len(values) >= 2:
        return f"{len(values)} head cells are values ({', '.join(values[:3])})"
    parents = [" / ".join(path) for path in table.row_paths
               if any(re.fullmatch(r"[-−(]?\d[\d.,]*\)?%?", level.strip()) for level in path[:-1])]
    if len(parents) >= 2:
        return f"{len(parents)} rows are grouped under a figure ({', '.join(parents[:3])}): a column read into the stub"
    glued = [c.strip() for row in table.rows for c in row[1:] if GLUED_SIGN.search(c.strip())]
    if len(glued) >= 2:
        return f"{len(glued)} cells end in the next cell's currency sign ({', '.join(glued[:3])})"
    return ""
