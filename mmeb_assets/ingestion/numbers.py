"""Numbers as printed: parsing cell values, and numeric claims (sentence, value string, unit) in prose."""
from __future__ import annotations

import re

from mmeb_assets.schema.source import NumericClaim, PageText

# A number as printed: 1,512 / 0.842 / 8.3 / 2e-5 / −0.4 ; not part of an identifier (R5, A100, PM2.5, @10).
NUMBER_RE = re.compile(
    r"(?:(?<=^)|(?<=[\s(\[$€£~≈<>=+]))(?P<value>[−\-–]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][−\-]?\d+)?)(?![\w@/]|\.\d|,\d{3})"
)
UNIT_WORDS = (
    "kt CO2e", "t CO2e", "Mt CO2e", "CO2e", "million euros", "million", "billion", "percentage points",
    "points", "ms", "s", "seconds", "minutes", "hours", "days", "weeks", "months", "years", "GB", "MB", "TB",
    "GPUs", "GPU", "epochs", "tokens", "pixels", "images", "queries", "tickets", "questions", "pairs",
    "kt", "t", "km", "kg", "kWh", "MWh", "GWh", "MW", "GW", "USD", "EUR", "dollars", "euros", "x", "times",
)
CURRENCY_PREFIX = {"$": "USD", "€": "EUR", "£": "GBP"}
# A sentence ends at . ! ? before a capital, but not after an initial or a common abbreviation ('U.S.
# Department of Housing', 'J. Smith', 'et al. (2019)', 'e.g. BLEU'), which would cut a quoted statement short.
SENTENCE_SPLIT = re.compile(r"(?<!\b[A-Z]\.)(?<!\bal\.)(?<!e\.g\.)(?<!i\.e\.)(?<!\bvs\.)(?<!\bNo\.)(?<!\bSt\.)(?<!\bDr\.)"
                            r"(?<!\bMr\.)(?<!\bMs\.)(?<=[.!?])\s+(?=[A-Z(\"“])"
                            r"|(?<=[.!?][”\"’])\s+(?=[A-Z(\"“])"  # '... $2 trillion.” Key sectors ...'
                            r"|\s+[~•▪]\s+(?=[A-Z])")  # 'Human Trafficking ~ ILAB combats ...': a heading's mark
FOOTNOTE_AFTER_STOP = re.compile(r"(?<=[a-z]{3})\.\d{1,2}(?=\s+[A-Z][a-z])")  # 'population.6 In Gaza'
REFERENCE_BEFORE = re.compile(r"(Table|Figure|Fig\.|Section|Sec\.|Appendix|§|Eq\.|Equation|page|p\.)\s*$", re.I)
RANGE_AFTER = re.compile(r"\s?[-–—]\s?\d")
RANGE_BEFORE = re.compile(r"\d\s?[-–—]\s?$")
YEAR_RE = re.compile(r"^(1[89]|20)\d\d$")


SPACE_GROUPED = re.compile(r"^[−\-–]?\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:\.\d+)?\s?%?$")
DECIMAL_COMMA = re.compile(r"^[−\-–]?(?:0,\d+|[1-9]\d*,(?:\d{1,2}|\d{4,}))\s?%?$")
PRINTED_NUMBER = re.compile(r"^[$€£]?[−\-–+±]?(?:\d{1,3}(?:,\d{3})+|\d+|(?=\.\d))(?:\.\d*)?(?:[eE][−\-]?\d+)?\s?%?$")


def parse_number(text: str) -> float | None:
    """The value of a printed number ('1,512' -> 1512.0, '39%' -> 39.0, '−0.4' -> -0.4); None if not numeric.
    European print too: '10 000' (space-grouped thousands) and '0,1' / '12,5' (a decimal comma that
    cannot be a thousands group)."""
    text = text.strip().replace("\u2009", "")
    if SPACE_GROUPED.match(text):
        text = re.sub(r"[ \u00a0\u202f]", "", text)
    elif DECIMAL_COMMA.match(text):
        text = text.replace(",", ".")
    if not PRINTED_NUMBER.match(text):
        return None
    cleaned = text.replace("−", "-").replace("–", "-").replace(",", "")
    cleaned = cleaned.rstrip("%").strip()
    if cleaned[:1] in CURRENCY_PREFIX:
        cleaned = cleaned[1:]
    cleaned = cleaned.lstrip("+±")
    if not cleaned or not re.fullmatch(r"-?(\d+(\.\d*)?|\.\d+)([eE]-?\d+)?", cleaned):
        return None
    try:
        return float(cleaned)
    except ValueError:
        return None


def numbers_in(text: str) -> list[re.Match]:
    return list(NUMBER_RE.finditer(text))


def _unit_after(text: str, end: int) -> str:
    rest = text[end:end + 24]
    if rest.startswith("%"):
        return "%"
    stripped = rest.lstrip(" ")
    if len(stripped) == len(rest):  # no space: '12ms' style units only
        stripped = rest
    for unit in UNIT_WORDS:
        if stripped.startswith(unit) and (len(stripped) == len(unit) or not stripped[len(unit)].isalnum()):
            return unit
    return ""


def sentences(text: str) -> list[str]:
    """Sentences of a block of prose (line breaks joined, hyphenation at line ends undone, a footnote
    number after a full stop taken out: 'of the population.6 In Gaza, ...' is two sentences)."""
    joined = re.sub(r"(\d)[-–]\n(\d)", r"\1-\2", text)  # '113-' / '274' is one identifier or range, not 113274
    joined = re.sub(r"([^\W\d_])-\n([^\W\d_])", r"\1\2", joined)
    flat = " ".join(joined.split())
    flat = FOOTNOTE_AFTER_STOP.sub(".", flat)
    return [s for s in SENTENCE_SPLIT.split(flat) if s]


def claims_in_sentence(sentence: str, page: int) -> list[NumericClaim]:
    claims = []
    for match in numbers_in(sentence):
        value = match.group("value")
        before = sentence[:match.start()]
        if REFERENCE_BEFORE.search(before) or re.search(r"\[\s*[\d,\s]*$", before):
            continue  # 'Table 2', 'Section 3', citation brackets
        if sentence[match.end():match.end() + 1] == ":":
            continue  # a numbered label ('Part 1:', 'GOVERN 1.5:'), not a measured value
        if RANGE_AFTER.match(sentence, match.end()) or RANGE_BEFORE.search(before):
            continue  # a range or compound id ('2001-2004', 'pages 1–10', 'Pub. L. 105-200'), not one value
        unit = _unit_after(sentence, match.end())
        if YEAR_RE.match(value) and not unit:
            continue  # years are dates ('in 2025', '(2019)'), not measured values
        prefix = before[-1:] if before else ""
        if prefix in CURRENCY_PREFIX:
            unit = CURRENCY_PREFIX[prefix]
        claims.append(NumericClaim(sentence=sentence, value=value, unit=unit, page=page))
    return claims


def _inside(bbox, boxes) -> bool:
    x0, y0, x1, y1 = bbox
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return any(b[0] - 2 <= cx <= b[2] + 2 and b[1] - 2 <= cy <= b[3] + 2 for b in boxes)


def numeric_claims(pages: list[PageText], exclude: dict[int, list[tuple]]) -> list[NumericClaim]:
    """Numeric claims in prose blocks: captions, headings and blocks inside tables/figures are skipped."""
    claims: list[NumericClaim] = []
    for page in pages:
        skip = exclude.get(page.page, [])
        for block in page.blocks:
            if block.kind != "text" or _inside(block.bbox, skip) or len(block.text) < 25:
                continue
            lines = block.text.splitlines()
            numbered = sum(1 for line in lines if re.search(r"(^|\s)[\d.]{1,6}$", line.strip()))
            toc_entry = len(lines) <= 3 and re.fullmatch(r"\d{1,4}", lines[-1].strip() or "x")
            if toc_entry or (numbered >= 2 and numbered >= 0.4 * len(lines)):
                continue  # a table of contents (section numbers and page numbers on their own)
            for sentence in sentences(block.text):
                if len(sentence.split()) >= 5 and not re.search(r"(\.\s?){4,}", sentence):
                    claims.extend(claims_in_sentence(sentence, page.page))
    return claims
