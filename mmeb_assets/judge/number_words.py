"""Numbers written in words, as answers write them ('eleven open findings', 'Four thousand five hundred
queries', 'by two hundred fifty'), turned into digits before the judge reads values.

A lone 'one' stays a word: it is a pronoun as often as a number ('the final one'); it counts only with
a scale after it ('one hundred', 'one thousand'). Decimal fractions in words read as decimals
('fifteen hundredths' -> '0.15').
"""
from __future__ import annotations

import re

UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
         "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
         "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
WORD = "|".join(sorted([*UNITS, *TENS, *SCALES], key=len, reverse=True))
FRACTIONS = {"half": ".5", "quarter": ".25"}
FRACTION = re.compile(r"\b(\d+) and a (half|quarter)\b", re.I)
DECIMAL_PLACES = {"tenth": 1, "hundredth": 2, "thousandth": 3}
DECIMAL_FRACTION = re.compile(r"\b(\d+)[\s-]+(tenths?|hundredths?|thousandths?)\b", re.I)
RUN = re.compile(rf"\b(?:{WORD})(?:(?:[\s-]+(?:and[\s-]+)?)(?:{WORD}))*\b", re.I)


def _value(words: list[str]) -> int | None:
    total, current = 0, 0
    for word in words:
        if word in UNITS:
            current += UNITS[word]
        elif word in TENS:
            current += TENS[word]
        elif word == "hundred":
            current = max(current, 1) * 100
        else:
            total += max(current, 1) * SCALES[word]
            current = 0
    return total + current


def words_to_digits(text: str) -> str:
    """`text` with each run of number words replaced by its value ('two thousand' -> '2000', 'three and
    a half' -> '3.5')."""
    def replace(match: re.Match) -> str:
        words = [w for w in re.split(r"[\s-]+", match.group().lower()) if w and w != "and"]
        if words == ["one"] or not any(w in UNITS or w in TENS for w in words):
            return match.group()  # a pronoun 'one'; a bare scale word ('1.85 thousand') is the value matcher's
        value = _value(words)
        return match.group() if value is None else str(value)
    text = RUN.sub(replace, text)
    text = DECIMAL_FRACTION.sub(_decimal, text)  # '15 hundredths' -> '0.15'
    return FRACTION.sub(lambda m: f"{m.group(1)}{FRACTIONS[m.group(2).lower()]}", text)  # '3 and a half' -> '3.5'


def _decimal(match: re.Match) -> str:
    places = DECIMAL_PLACES[match.group(2).lower().rstrip("s")]
    value = int(match.group(1))
    return f"{value / 10 ** places:.{places}f}" if value < 10 ** places else match.group()
