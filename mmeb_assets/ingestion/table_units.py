"""Units as a table states them: a header suffix '(%)', '(ms)', a caption's '(kWh per household)', a
line under the caption 'Dollars in millions', a cell's own '%' or '$'.

`pint` decides whether a word is a physical unit (ms, kWh, GB, km); percent, currencies, scale
words and counted time spans are named here because pint knows none of them as a reader writes them
('$ millions', 'per cent'). Single capitals ('P', 'R', 'EM') parse in pint as poise, the gas constant
and examolar: they are metric names in tables, so all-capital short words are not taken from pint.
"""
from __future__ import annotations

import re
from functools import lru_cache

PERCENT = re.compile(r"^(?:%|percent(?:age)?s?|per ?cent|percentage points?|pp|% points?)$", re.I)
CURRENCY = re.compile(r"^(?:\$|€|£|usd|eur|gbp|us\$|dollars?|euros?|pounds?|us dollars|ecus?|ffr\.?|dm|[$€£]\s?'?000s?)$",
                      re.I)
SCALE = re.compile(r"^(?:hundreds?|thousands?|millions?|billions?|trillions?|mn|bn|k|m|'000s?|000s?)$", re.I)
COMPACT_MONEY = re.compile(r"^(?:usd|eur|gbp|[$€£])\s?(?:m|mn|bn|b|k|millions?|billions?)$", re.I)  # 'EURm', '€bn'
RATE_TAIL = re.compile(r"\s([A-Za-zµ°]{1,6}/[A-Za-z]{1,6})$")  # 'to air kg/year', 'Yield t/ha'
COUNT_RATE = re.compile(r"^[A-Za-z]+(?:\s?/\s?|\s+per\s+)(?:s|sec|seconds?|min|minutes?|h|hrs?|hours?|days?)$", re.I)
TIME_COUNT = re.compile(r"^(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|ms|sec|min|hrs?)$", re.I)
PINT_CAPITALS = {"GB", "MB", "TB", "KB", "MW", "GW", "TW", "MWh", "GWh", "TWh", "kWh", "Hz", "W", "V", "A"}
PAREN_TAIL = re.compile(r"\s*[(\[]([^()\[\]]{1,40})[)\]]\s*$")
IN_TAIL = re.compile(r"\s+in\s+([^,;()]{1,30})$")
COMMA_TAIL = re.compile(r"(?<!\d),\s*((?:in\s+)?[^,]{1,30})$")  # not the ',000' of '$10,000'
ISO_MONEY = re.compile(r"^(?:[A-Z]{3}|US\$)\s+(?:thousands?|millions?|billions?|trillions?|mn|bn|m|'000)$")  # 'QAR billion'
GREENHOUSE = re.compile(r"^(?:[kMG]?t|tonnes?|(?:kilo|mega|giga)tonnes?)\s*(?:of\s+)?CO2(?:e|-?eq\.?|\s+equivalents?)?$", re.I)
PERCENT_OF = re.compile(r"^percent(?:age)?\s+(?:who|of|with|that|in|by|from)\b", re.I)  # 'Percent who borrowed'
MONEY_OF_YEAR = re.compile(r"^(?:current|constant|nominal|real)\b.{0,20}\b(dollars|euros|pounds)$", re.I)
UNIT_LINE_LEAD = re.compile(r"^(?:\(?\s*)(?:unit(?:s)?\s*:\s*|(?:all\s+)?(?:values|figures|amounts|data|numbers)\s+(?:are\s+)?in\s+|(?:measured|expressed|shown|given)\s+in\s+"
                            r"|in\s+)", re.I)


@lru_cache(maxsize=1)
def _registry():
    import pint

    return pint.UnitRegistry()


@lru_cache(maxsize=4096)
def _pint_unit(token: str) -> bool:
    if len(token) < 2 or (token.isupper() and token not in PINT_CAPITALS) or token.lower() in {"in", "at", "ha", "a"}:
        return False
    if not re.fullmatch(r"[A-Za-zµμ°/\d^·*.-]+", token) or re.fullmatch(r"[\d.]+", token):
        return False
    try:
        _registry().parse_units(token)
    except Exception:  # pint raises several kinds for words it does not know
        return False
    return True


def is_unit_word(token: str) -> bool:
    token = token.strip(" .,;:")
    return bool(PERCENT.match(token) or CURRENCY.match(token) or SCALE.match(token) or TIME_COUNT.match(token)
                or _pint_unit(token))


def as_unit(text: str) -> str:
    """`text` as a unit ('%', 'ms', 'USD million', 'kWh per household', 'in millions of dollars' ->
    'millions of dollars'); '' when it is not one (a condition '(dev)', a year, a citation)."""
    text = " ".join(text.split()).strip(" .,;:")
    text = UNIT_LINE_LEAD.sub("", text.strip(" ()[]")).strip(" ()[]")
    if not text or len(text) > 40 or re.search(r"\b(?:19|20)\d\d\b", text):
        return ""
    if PERCENT.match(text):
        return "percentage points" if re.search(r"points?$|^pp$", text, re.I) else "%"
    if COMPACT_MONEY.match(text) or GREENHOUSE.match(text) or ISO_MONEY.match(text):
        return text
    if COUNT_RATE.match(text):  # 'tokens/s', 'queries per second': counted things per unit of time
        return text
    words = re.split(r"\s+", text)
    if len(words) > 5:
        return ""
    first = words[0]
    if first in {"$", "€", "£"} or CURRENCY.match(first) or PERCENT.match(first) or SCALE.match(first) and len(words) > 1:
        rest = words[1:]  # 'Dollars in millions', '% of GDP'; not 'Percent Fuel Savings', a measure
        if not rest or rest[0].lower() in {"in", "of", "per", "/", "change", "changes"} or all(is_unit_word(w) for w in rest):
            return text
        return ""
    if is_unit_word(first) and (len(words) == 1 or words[1].lower() in {"per", "of", "/", "in"} or
                                all(is_unit_word(w) or w.lower() in {"per", "of", "in", "/"} for w in words[1:])):
        return text
    if SCALE.match(first) and len(words) == 1 and len(first) > 3:
        return text
    return ""


def split_unit(header: str) -> tuple[str, str]:
    """('Accuracy', '%') from 'Accuracy (%)'; ('Cost', 'USD') from 'Cost (USD)'; ('', '%') from a
    header that is only a unit ('%', 'Percent'); (header, '') otherwise."""
    if PERCENT.match(header.strip()) or header.strip() in {"$", "€", "£"}:
        return "", as_unit(header) or header.strip()
    if re.match(r"%\s+\w", header.strip()):  # '% growth in retail sales', '% Pos'
        return header.strip()[1:].strip(), "%"
    if PERCENT_OF.match(header.strip()):
        return header.strip(), "%"
    if money := MONEY_OF_YEAR.match(header.strip()):  # 'Constant 2010–11 dollars': a column of money
        return header.strip(), money.group(1).lower()
    for match in reversed(list(re.finditer(r"\s*[(\[]([^()\[\]]{1,40})[)\]]", header))):
        if unit := as_unit(match.group(1)):
            return " ".join(f"{header[:match.start()]} {header[match.end():]}".split()), unit
    match = COMMA_TAIL.search(header)
    if match and (unit := as_unit(match.group(1))):
        return header[:match.start()].strip(), unit
    match = IN_TAIL.search(header)
    if match and (unit := as_unit(match.group(1))):
        return header[:match.start()].strip(), unit  # 'Turnover in FFr. millions'
    match = RATE_TAIL.search(header.strip())
    if match and _pint_unit(match.group(1)):
        return header.strip()[:match.start()].strip(), match.group(1)
    return _money_tail(header.strip())


def _money_tail(header: str) -> tuple[str, str]:
    """('Turnover', 'Ffr. m.') from 'Turnover Ffr. m.': a currency and its scale printed after the
    measure with no 'in' or brackets."""
    words = header.split()
    for k in (2, 1):
        if len(words) > k and CURRENCY.match(words[-k].strip(".")) and (unit := as_unit(" ".join(words[-k:]))):
            return " ".join(words[:-k]), unit if unit.endswith(".") or not words[-1].endswith(".") else f"{unit}."
    return header, ""


def path_unit(path: list[str]) -> str:
    """A column's unit: the one its lowest header level states, else the nearest level above; not
    the unit of a level over heads that are numbers ('Lead time (years)' over '1', '2', ...: the
    years count the heads, not the values under them)."""
    if len(path) > 1 and re.fullmatch(r"\d+(?:\.\d+)?", path[-1].strip()):
        return split_unit(path[-1])[1]
    return next((u for u in (split_unit(p)[1] for p in reversed(path)) if u), "")


def caption_unit(caption: str) -> str:
    """The unit a caption states for the whole table: a parenthesised unit in its first sentence
    ('Energy use (kWh per household)'), a measure that is a percentage ('Percentage of articles, by
    source'), or ', in millions of dollars' at its end."""
    first = re.split(r"(?<=[a-z)])\.\s", caption.strip())[0].rstrip(". ")
    for match in re.finditer(r"[(\[]([^()\[\]]{1,40})[)\]]", first):
        if unit := as_unit(match.group(1)):
            return unit
    measure = re.split(r":|\bby\b|,", re.sub(r"^table\s+[\w.-]+[.:]?\s*", "", first, flags=re.I), maxsplit=1)[0]
    if re.search(r"\bpercentages?\b|\bpercent\b", measure, re.I) and not re.search(
            r"\b(?:number|count|amount|total)s?\b|percentage points?", measure, re.I):
        return "%"  # 'Actual and projected percentage changes in graduates, by state'
    match = re.search(r"(?:,|\bin)\s+((?:thousands|millions|billions|percent|percentages?|dollars|\$|euros)\b[^,;]*)$",
                      first, re.I)
    if match:
        return as_unit(match.group(1))
    tail = COMMA_TAIL.search(first)  # 'Emissions by sector, kt CO2e'
    return as_unit(tail.group(1)) if tail and GREENHOUSE.match(tail.group(1).strip()) else ""


def unit_line(text: str) -> str:
    """The unit of a short line printed between a caption and its table ('Dollars in millions',
    '(In thousands)', 'Percent', 'Values in USD million'); '' for anything else."""
    flat = " ".join(text.split())
    if len(flat) > 50 or re.search(r"\d{2,}", flat):
        return ""
    if unit := as_unit(flat):
        return unit
    match = re.fullmatch(r"\(?\s*([A-Za-z$€£ ]{1,20}?)\s+in\s+(thousands|millions|billions)\s*\)?", flat, re.I)
    if match and (CURRENCY.match(match.group(1).strip()) or match.group(1).strip() in {"$", "€", "£"}):
        return flat.strip("() ")
    return ""


def cell_unit(value: str) -> str:
    """A unit printed on the value itself: '12.4%' -> '%', '$45' -> '$'."""
    text = value.strip()
    if text.endswith("%"):
        return "%"
    if text[:1] in "$€£":
        return text[0]
    return ""


SCOPED_UNIT = re.compile(r"([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,3})\s*[(\[]([^()\[\]]{1,40})[)\]]")
DISTRIBUTION_OF = re.compile(r"\bpercent(?:age)?(?:\s+distribution)?\s+of\s+([a-z][a-z\s-]{2,60}?)(?=,|;|:|\s+(?:by|and|for|among|in)\b|$)",
                             re.I)


def caption_scoped_units(caption: str) -> list[tuple[str, str]]:
    """(words, unit) pairs where a caption gives a unit to one measure it names: 'BLEU score and
    perplexity (in nats)' gives nats to perplexity, 'percentage distribution of amount borrowed'
    gives % to amount borrowed. The table's columns headed by those words take the unit; the
    others do not."""
    first = re.split(r"(?<=[a-z)])\.\s", re.sub(r"(?<=[a-z])- (?=[a-z])", "", caption.strip()))[0]  # 'per- plexity'
    out = [(m.group(1), unit) for m in SCOPED_UNIT.finditer(first) if (unit := as_unit(m.group(2)))]
    out += [(m.group(1).strip(), "%") for m in DISTRIBUTION_OF.finditer(first)]
    return out


def scoped_column_units(caption: str, paths: list[list[str]]) -> dict[int, str]:
    """Columns given a unit by a caption's measure (`caption_scoped_units`): those with a header
    level holding the measure's last word ('Perplexity' for '... perplexity (in nats)')."""
    out: dict[int, str] = {}
    for words, unit in caption_scoped_units(caption):
        last = words.split()[-1].lower()
        for j, path in enumerate(paths):
            if any(last in re.findall(r"[a-z][a-z-]+", level.lower()) for level in path):
                out.setdefault(j, unit)
    return out


def units_of_columns(paths: list[list[str]], caption: str, unit: str) -> tuple[list[str], str]:
    """Each column's unit from its headers, else from the caption's measure that heads it; and the
    caption's unit for the whole table, kept only when it is not scoped to some of its columns."""
    scoped = scoped_column_units(caption, paths)
    units = [path_unit(p) or scoped.get(j, "") for j, p in enumerate(paths)]
    return units, "" if unit and unit in scoped.values() else unit


NOTE_UNIT = re.compile(r"^(?:these|all|the)?\s*(?:figures|values|numbers|data|amounts)\s+(?:are\s+)?(?:for|in|expressed in|"
                       r"given in|shown in)\s+(percentages?|per cent|percent|hundreds|thousands|millions|billions)\b", re.I)


def note_unit(text: str) -> str:
    """The unit a note under a table states for all its figures ('These figures are for
    percentages of national aggregate turnover ...'); '' for any other note."""
    match = NOTE_UNIT.match(" ".join(text.split()))
    return as_unit(match.group(1)) if match else ""
