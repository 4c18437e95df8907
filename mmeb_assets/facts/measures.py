"""What a number in prose measures: a noun phrase from the sentence, its unit and scale, its subject.

Three shapes cover the prose of papers and reports:
- "56 percent of managers ..."          -> measure "managers ..." (unit %)
- "385 investigators located at ..."    -> measure "investigators" (unit count)
- "an OSI increase of 2.13 percent"     -> measure "OSI increase" (the words before the number)
A number in none of these shapes has no measure and is no fact.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from mmeb_assets.facts.nonfacts import range_end

FUNCTION = {"of", "to", "a", "an", "the", "is", "are", "was", "were", "by", "at", "with", "from", "and", "or", "in",
            "on", "for", "than", "as", "be", "it", "its", "that", "this", "which", "we", "our", "about", "nearly",
            "approximately", "roughly", "almost", "over", "more", "less", "fewer", "only", "some", "around",
            "least", "up", "down", "into", "per", "each", "every", "all", "these", "those", "their", "his", "her",
            "has", "have", "had", "been", "being", "not", "no", "also", "but", "if", "when", "while", "where", "who",
            "whom", "whose", "such", "other", "both", "either", "any", "most", "much", "many", "there", "they",
            "he", "she", "them", "then", "so", "yet", "still", "just", "even", "after", "before", "since", "until",
            "during", "under", "above", "below", "between", "among", "through", "across", "within", "without",
            "reached", "reaches", "reach", "rose", "fell", "increased", "decreased", "dropped", "grew", "totaled",
            "totalled", "achieves", "achieved", "obtains", "obtained", "scores", "scored", "improves", "improved",
            "improving", "outperforms", "yields", "yielded", "gives", "gave", "shows", "showed", "reports", "reported",
            "includes", "included", "including", "made", "makes", "received", "receives", "spent", "spending",
            "required", "requires", "stood", "remains", "remained", "exceeded", "exceeds", "averaged", "averages",
            "ranged", "ranges", "took", "takes", "take", "can", "could", "may", "might", "will", "would", "should",
            "must", "do", "does", "did", "got", "get", "gets", "sometimes", "later", "earlier", "again", "now",
            "currently", "respectively", "mean", "means", "meaning", "see", "e.g", "i.e", "overall", "approx", "almost", "just", "roughly", "exactly", "estimated",
            "we", "us", "you", "your", "i", "my", "one", "two", "three", "four", "five", "six", "seven", "eight",
            "nine", "ten", "same", "new", "out", "off", "via", "like", "what", "how", "why", "very"}
SCALE_WORDS = {"thousand": "thousand", "million": "million", "billion": "billion", "trillion": "trillion",
               "m": "million", "bn": "billion", "k": "thousand"}
UNIT_WORDS = {"percent": "%", "per cent": "%", "percentage points": "percentage points", "points": "points",
              "point": "points", "ms": "ms", "seconds": "seconds", "minutes": "minutes", "hours": "hours",
              "days": "days", "weeks": "weeks", "months": "months", "years": "years", "year": "years",
              "GB": "GB", "MB": "MB", "TB": "TB", "km": "km", "kg": "kg", "kWh": "kWh", "MW": "MW", "GW": "GW",
              "dollars": "USD", "euros": "EUR", "pounds": "GBP", "times": "times", "x": "times",
              "square feet": "square feet", "square miles": "square miles", "miles": "miles", "tonnes": "tonnes"}
CURRENCY = {"$": "USD", "€": "EUR", "£": "GBP"}
NAMED_BY_OF = re.compile(r"[A-Za-z]{3,}\s+of\s*[$€£]?$")
COUNTED_OF = re.compile(r"\b(?:number|total|sum|share|percent|majority|most|one|out|some|all|each|any|none)\s+of\s*[$€£]?$",
                        re.I)
NOTHING_NAMED_AFTER = re.compile(r"^\s*(?:[,;.)]|(?:and|or|with|for|in|on|at|to)\b|$)")
APPROXIMATELY = re.compile(r"\b(?:(?:on|in)\s+the\s+order|in\s+excess|upwards)\s+of\s*[$€£]?$", re.I)
UNIT_RE = re.compile(r"^(?:%|\s?(?:(?P<scale>thousand|million|billion|trillion|bn|m|k)\b)?\s?"
                     r"(?P<unit>percentage points|per cent|percent|points?|ms|seconds|minutes|hours|days|weeks|months|"
                     r"years?|GB|MB|TB|km|kg|kWh|MW|GW|dollars|euros|pounds|times|x|square feet|square miles|miles|"
                     r"tonnes)?\b)")
WORD = re.compile(r"[A-Za-z][A-Za-z’'\-/@&.]*[A-Za-z0-9]|[A-Za-z]")
BOUNDARY = re.compile(r"[,;:()\[\]\"“”]|\s[-–—]\s")
SUBJECT_RE = re.compile(r"\b(?:[A-Z][a-z]*[A-Z][A-Za-z\-]*|[A-Z]{2,}[a-z]?s?)\b")
COMPARATIVES = {"better", "worse", "higher", "lower", "more", "less", "fewer", "greater", "smaller", "larger"}
# requirement keywords (RFC 2119) and the prefixes of cited document numbers ('SP 800-131A', 'ISO/IEC 2382')
NOT_A_SUBJECT = {"SHALL", "MUST", "MAY", "SHOULD", "NOT", "REQUIRED", "RECOMMENDED", "OPTIONAL", "SP", "IEC", "ISO",
                 "RFC", "FIPS", "IR", "NISTIR", "URL", "HTTP", "HTTPS", "PDF", "IT"}
YEAR_AFTER = re.compile(r"^[^.;]{0,24}?\b(?:in|by|for|during|at the end of)\s(?:(?:fiscal|calendar|program)\syear\s)?((?:19|20)\d\d)\b")


@dataclass
class Measure:
    name: str
    unit: str
    scale: str
    subject: str
    end: int  # where the number's unit and scale end in the sentence


def unit_after(sentence: str, end: int) -> tuple[str, str, int]:
    """(unit, scale, end of them) for the text after a number; '%' glued or 'percent', scale words."""
    rest = sentence[end:end + 40]
    if rest.startswith("%"):
        return "%", "", end + 1
    match = UNIT_RE.match(rest)
    if not match or not match.group(0).strip():
        return "", "", end
    unit = UNIT_WORDS.get(match.group("unit") or "", match.group("unit") or "")
    scale = SCALE_WORDS.get(match.group("scale") or "", "")
    return unit, scale, end + match.end()


def _clean(words: list[str]) -> list[str]:
    while words and words[-1].lower() in FUNCTION:
        words.pop()
    while words and words[0].lower() in FUNCTION:
        words.pop(0)
    return words


def _words_after(text: str, limit: int, clause: bool = False) -> list[str]:
    """Up to `limit` words of a noun phrase at the start of `text` (to a boundary, digit or clause)."""
    stop = BOUNDARY.search(text)
    text = text[:stop.start()] if stop else text
    out: list[str] = []
    for token in text.split():
        if re.search(r"\d", token) or len(out) == limit:
            break
        word = token.strip(".,;:!?")
        low = word.lower()
        if low in {"that", "which", "who", "where", "when", "while", "because", "than", "as", "if", "was", "were",
                   "shall", "must", "may", "should",
                   "is", "are", "has", "have", "had", "will", "would", "could", "can", "may", "to", "from", "in",
                   "on", "at", "by", "with", "for", "since", "during"} and out:
            break
        if out and not clause and "-" not in low and re.search(r"(ed|ing)$", low) and low not in {"training", "funding", "spending", "learning",
                                                                 "processing", "reporting", "rating", "ranking",
                                                                 "setting", "testing", "screening"}:
            break
        out.append(word)
        if token.endswith((".", "!", "?")):
            break
    return _clean(out)


def _words_before(text: str, limit: int) -> list[str]:
    """Up to `limit` words of the noun phrase that ends just before a number (skipping 'of', 'was', ...)."""
    stop = list(BOUNDARY.finditer(text))
    text = text[stop[-1].end():] if stop else text
    tokens = text.split()
    while tokens and (tokens[-1].lower().strip(".,") in FUNCTION or tokens[-1] in CURRENCY):
        tokens.pop()
    out: list[str] = []
    for k in range(len(tokens) - 1, -1, -1):
        token = tokens[k]
        word = token.strip(".,;:!?’'")
        low = word.lower()
        joins = (low in {"of", "on", "for", "in", "per"} and out and k > 0 and not re.search(r"\d", tokens[k - 1])
                 and tokens[k - 1].lower().strip(".,;:") not in FUNCTION)
        if (re.search(r"\d", token) or (low in FUNCTION and not joins) or low in UNIT_WORDS or len(out) == limit
                or not word):
            break
        out.insert(0, word)
    if len(out) == 1 and re.search(r"(ed|ing)$", out[0]) and "-" not in out[0]:
        return []  # a verb ('retaining', 'located'), not a measure
    return _clean(out)


PREDICATE = re.compile(r"^\s*(?:were|was|are|is|had been|have been|has been)\s+((?:[a-z]+ed|[a-z]+en)\b[^,;:.()\d]*)")


def _predicate(text: str, words: list[str]) -> list[str]:
    """What is said of the counted group when it is what the share measures: '78 percent of FAA
    employees were included in the pay system' -> 'included in the pay system' (at most 7 words)."""
    if not words:
        return []
    rest = text[text.find(words[-1]) + len(words[-1]):] if words[-1] in text else ""
    match = PREDICATE.match(rest)
    if not match:
        return []
    tail = [w.strip(".,;:") for w in match.group(1).split()[:7]]
    while tail and tail[-1].lower() in FUNCTION:
        tail.pop()
    return tail


def subject_of(sentence: str, start: int, end: int, measure: str) -> str:
    """The named system, group or body the number belongs to (nearest acronym or CamelCase name
    before it, else after), with a year qualifier ('in 2004', 'fiscal year 2005') when one follows."""
    names = [m.group() for m in SUBJECT_RE.finditer(sentence[:start]) if m.group() not in measure
             and m.group().upper() not in NOT_A_SUBJECT]
    if not names:
        names = [m.group() for m in SUBJECT_RE.finditer(sentence[end:]) if m.group() not in measure
                 and m.group().upper() not in NOT_A_SUBJECT][:1]
    subject = names[-1] if names else ""
    year = YEAR_AFTER.match(sentence[end:])
    if year:
        subject = f"{subject} {year.group(1)}".strip()
    return subject


def measure_of(sentence: str, start: int, end: int, previous: Measure | None = None) -> Measure | None:
    """The measure of the number at sentence[start:end]; `previous` (the measure of the number just
    before in the same sentence) names the far end of a range ('from 11 percent ... to 80 percent')."""
    unit, scale, after_end = unit_after(sentence, end)
    if sentence[start - 1:start] in CURRENCY:
        unit = CURRENCY[sentence[start - 1]] + (f" {scale}" if scale else "")
    elif scale and not unit:
        unit = scale
    after = sentence[after_end:]
    words: list[str] = []
    of_match = re.match(r"^\s*of\s+(?:the\s+|all\s+|its\s+|their\s+)?", after)
    in_match = re.match(r"^\s*in\s+(?!(?:fiscal|calendar)\b|(?:19|20)\d\d)", after)
    if unit == "%" and of_match:
        words = _words_after(after[of_match.end():], 10, clause=True)
        words += _predicate(after[of_match.end():], words)
    elif in_match and unit and unit.split()[0] in CURRENCY.values():
        words = _words_after(after[in_match.end():], 6)  # '$450 million in incentive payments'

    before = APPROXIMATELY.sub(" ", sentence[:start])
    if not words and NAMED_BY_OF.search(before) and not COUNTED_OF.search(before) and NOTHING_NAMED_AFTER.match(after):
        words = _words_before(before, 6)  # 'a dropout of 0.3', 'a batch size of 128'
    if not words and not unit:
        words = _words_after(after, 6)
        if words:
            unit = "count"
    if not words and unit in ("points", "percentage points", "times"):
        words = _words_after(after, 6)
    if not words:
        words = _words_before(before, 6)
    if not words and previous is not None and re.search(r"\b(?:to|and|or)\s+(?:about\s+|nearly\s+)?[$€£]?$",
                                                        sentence[:start]):
        return Measure(previous.name, unit or previous.unit, scale,
                       subject_of(sentence, start, end, previous.name), after_end)
    if not words:
        return None
    name = " ".join(words)
    if len(name) < 3 or not re.search(r"[a-z]{3,}|[A-Z]{2,}", name) or name.lower() in COMPARATIVES:
        return None  # '1 in 1000 or better' names no measure
    end_of_range = range_end(sentence, start, end)
    if end_of_range:
        name = f"{end_of_range} {name}"  # 'from 6 to 10 percent of collections': which end is asked
    return Measure(name, unit, scale, subject_of(sentence, start, end, name), after_end)
