"""Quantities in answer text: a number, its scale word and its unit, converted with pint.

Why: an answer may write "750 min" for "12 h 30 min", "0.5 GB" for "500 MB" or "EUR 24.5k" for
"EUR 24,500", and a strict judge must accept those while rejecting "5 MB" for "5 GB". Units are put in
kinds (time, data, percent, a currency, a counted noun); a candidate of another kind than the
reference is a wrong unit, and within a kind pint converts both to the same base before comparing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import pint

NUMBER = r"[-+\u2212]?\d[\d,]*(?:\.\d+)?|[-+\u2212]?\.\d+"
SCALES = {"k": 1e3, "thousand": 1e3, "mn": 1e6, "million": 1e6, "bn": 1e9, "billion": 1e9}
CURRENCIES = {"eur": "EUR", "euro": "EUR", "euros": "EUR", "\u20ac": "EUR", "usd": "USD", "$": "USD",
              "dollar": "USD", "dollars": "USD", "gbp": "GBP", "\u00a3": "GBP", "pound": "GBP", "pounds": "GBP"}
PERCENT = {"%", "percent", "per cent", "pct", "percentage point", "percentage points", "point", "points", "pp",
           "pts", "pt"}
DATA = {"b": "B", "byte": "byte", "bytes": "byte", "kb": "kB", "mb": "MB", "gb": "GB", "tb": "TB", "kib": "KiB",
        "mib": "MiB", "gib": "GiB", "kilobyte": "kB", "kilobytes": "kB", "megabyte": "MB", "megabytes": "MB",
        "gigabyte": "GB", "gigabytes": "GB", "terabyte": "TB", "terabytes": "TB"}
TIME = {"ms": "millisecond", "msec": "millisecond", "millisecond": "millisecond", "milliseconds": "millisecond",
        "s": "second", "sec": "second", "secs": "second", "second": "second", "seconds": "second",
        "min": "minute", "mins": "minute", "minute": "minute", "minutes": "minute", "h": "hour", "hr": "hour",
        "hrs": "hour", "hour": "hour", "hours": "hour", "day": "day", "days": "day", "week": "week", "weeks": "week"}
NOT_UNITS = frozenset("""a an the of and or to in on at for by is was were be it its this that with as from than vs
    versus higher lower more less up down after before until since per each then which who what when while over under
    between about around roughly approximately stated posted given set changed moved rose fell dropped increased
    decreased grew shrank jan feb mar apr may jun jul aug sep sept oct nov dec january february march april june
    july august september october november december mon tue wed thu fri sat sun monday tuesday wednesday thursday
    friday saturday sunday am pm noon midnight""".split())
UNIT_WORD = r"GPU[- ]?(?:hours?|h|hrs?|minutes?|mins?)|[%\u20ac$\u00a3]|per cent|percentage points?|[A-Za-z][A-Za-z]*"
QUANTITY = re.compile(
    rf"(?P<cur>(?:EUR|USD|GBP|[\u20ac$\u00a3])\s?)?(?<![\w.@-])(?P<num>{NUMBER})"
    rf"(?:\s?(?P<scale>k|K|thousand|mn|million|bn|billion)\b)?(?:\s?(?P<unit>{UNIT_WORD}))?"
    r"(?:\s*(?:/|\bper\b|\ban?\b|\beach\b)\s*(?P<per>hours?|h|hr|minutes?|min|seconds?|sec|s|days?|weeks?)\b)?")


@lru_cache(maxsize=1)
def registry() -> pint.UnitRegistry:
    return pint.UnitRegistry()


@dataclass(frozen=True)
class Quantity:
    value: float           # as written, scale word applied, in `unit`
    decimals: int          # decimals as written
    unit: str              # canonical unit ('' for a bare number)
    kind: str              # '' | time | data | percent | gpu_time | currency:EUR | count:<noun>
    base: float            # value in the kind's base unit (seconds, bytes, ...)
    start: int
    end: int


def _lemma(word: str) -> str:
    word = word.lower()
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def unit_kind(unit: str) -> tuple[str, str, float] | None:
    """(kind, canonical unit, factor to the kind's base) for a unit word, or None when it is no unit."""
    low = " ".join(unit.lower().replace("-", " ").split())
    if low in CURRENCIES:
        return f"currency:{CURRENCIES[low]}", CURRENCIES[low], 1.0
    if low in PERCENT:
        return "percent", "%", 1.0
    if low.startswith("gpu"):
        rest = low[3:].strip() or "hour"
        name = TIME.get(rest, "hour")
        return "gpu_time", f"GPU-{name}", registry().Quantity(1, name).to("second").magnitude
    if low in DATA:
        return "data", DATA[low], registry().Quantity(1, DATA[low]).to("byte").magnitude
    if unit in ("Gb", "Mb", "kb", "Tb") or low in ("bit", "bits"):
        return None
    if low in TIME:
        return "time", TIME[low], registry().Quantity(1, TIME[low]).to("second").magnitude
    if low.isalpha() and len(low) > 3 and low.endswith("s") and low not in NOT_UNITS:
        return f"count:{_lemma(low)}", _lemma(low), 1.0
    return None


def _decimals(raw: str) -> int:
    return len(raw.split(".", 1)[1]) if "." in raw else 0


def quantities(text: str) -> list[Quantity]:
    """Every quantity in the text, adjacent durations merged ('12 h 30 min' is one)."""
    found: list[Quantity] = []
    for m in QUANTITY.finditer(text):
        raw = m.group("num").replace("\u2212", "-").replace(",", "")
        try:
            value = float(raw)
        except ValueError:
            continue
        scale = SCALES.get((m.group("scale") or "").lower(), 1.0)
        unit_word, end = m.group("unit") or "", m.end()
        resolved = unit_kind(unit_word) if unit_word else None
        if unit_word and resolved is None:
            end = m.start("unit")
        cur = (m.group("cur") or "").strip()
        if cur:
            resolved = unit_kind(cur)
        kind, unit, factor = resolved or ("", "", 1.0)
        unit_read = bool(unit_word) and unit_kind(unit_word) is not None
        per = m.group("per") if unit_read and not unit_word.lower().startswith("gpu") else None
        if per and per.lower() in TIME:  # a rate: '1,850 items per hour' = '1.85k items an hour'
            kind, unit = f"{kind}/time", f"{unit}/{TIME[per.lower()]}"
            factor /= registry().Quantity(1, TIME[per.lower()]).to("second").magnitude
        elif unit_read:
            end = m.end("unit")
        decimals = _decimals(raw) if scale == 1.0 else max(0, _decimals(raw) - len(str(int(scale))) + 1)
        found.append(Quantity(value * scale, decimals, unit, kind, value * scale * factor, m.start(), end))
    return _merge_durations(found, text)


def _merge_durations(found: list[Quantity], text: str) -> list[Quantity]:
    out: list[Quantity] = []
    for q in found:
        prev = out[-1] if out else None
        if (prev and prev.kind == q.kind and q.kind in ("time", "gpu_time") and prev.base > q.base
                and re.fullmatch(r"\s*(?:,|and)?\s*", text[prev.end:q.start])):
            out[-1] = Quantity(prev.base + q.base, max(prev.decimals, q.decimals), "second", q.kind,
                               prev.base + q.base, prev.start, q.end)
            continue
        out.append(q)
    return out


def same_kind(gold: Quantity, cand: Quantity) -> bool:
    return not gold.kind or not cand.kind or gold.kind == cand.kind


def compare(gold: Quantity, cand: Quantity, places: int) -> str:
    """'equal' | 'wrong_unit' | 'wrong_precision' | 'different' for one candidate quantity."""
    if not same_kind(gold, cand):
        return "wrong_unit" if abs(cand.value - gold.value) < 1e-9 or cand.kind else "different"
    if gold.kind and cand.kind:
        factor = gold.base / gold.value if gold.value else 1.0
        value = cand.base / factor if factor else cand.base
    else:
        value = cand.value
    tolerance = 0.5 * 10 ** (-places) + 1e-9
    if abs(round(value, places) - round(gold.value, places)) < tolerance and abs(value - gold.value) < 2 * tolerance:
        return "equal"
    if gold.kind and cand.kind and abs(cand.value - gold.value) < 1e-9 and cand.unit != gold.unit:
        return "wrong_unit"
    if value and gold.value and cand.decimals < places and abs(round(gold.value, cand.decimals) - value) < 1e-9:
        return "wrong_precision"
    return "different"
