"""Value matching and number handling shared by the generators and the validators."""
from __future__ import annotations

import re
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

NUMBER = re.compile(r"(?<![\w.])[-+−]?\d[\d,]*(?:\.\d+)?")


def _bounded(value: str) -> re.Pattern:
    head = r"(?<![\w.])" if value[:1].isalnum() else ""
    tail = r"(?![\w]|[.,]\d)" if value[-1:].isalnum() or value[-1:] in "%)" else ""
    return re.compile(head + re.escape(value) + tail, re.IGNORECASE)


def contains_value(text: str, value: str) -> bool:
    """`value` occurs in `text` as a whole token (not inside a longer number or word).

    Numbers also match with or without thousands separators ('3,500' ~ '3500'), in any case, with the
    value stripped: questions, answers and evidence are paraphrased (by the generator or a reader), so
    a leak or a piece of evidence is found however the value was retyped. Not
    `records.headers.contains_value`, which the records checks need verbatim and case-sensitive, and
    which does not find '250' in '3,250' (this one does: the comma only ends a token here).
    """
    value = (value or "").strip()
    if not value or not text:
        return False
    if _bounded(value).search(text):
        return True
    number = parse_number(value)
    if number is not None and re.fullmatch(r"[-+−]?\d[\d,]*(?:\.\d+)?", value):
        plain = value.replace(",", "")
        return any(tok.replace(",", "") == plain for tok in NUMBER.findall(text))
    return False


def parse_number(value: str | None) -> Decimal | None:
    """The leading numeric value of a printed cell: '81.2', '3,500', '48 ms', '12.5%' -> Decimal."""
    if value is None:
        return None
    match = NUMBER.search(str(value).replace("−", "-"))
    if not match:
        return None
    try:
        return Decimal(match.group(0).replace(",", "").replace("−", "-"))
    except InvalidOperation:
        return None


def is_numeric_cell(value: str) -> bool:
    """A cell that is one number with at most a short unit ('81.2', '48 ms', '12%'), and at most its
    spread or change printed after it ('21.88 ± 0.31', '0.84 (+3%)', '3.85(28)'): the leading number
    is the value a question computes with."""
    text = str(value).strip()
    return bool(re.fullmatch(r"[-+−]?\d[\d,]*(?:\.\d+)?\s*(%|[A-Za-z/]{0,6})"
                             r"(?:\s*(?:±\s*\d[\d,]*(?:\.\d+)?%?|\(\s*[-+−±]?\d[\d,]*(?:\.\d+)?%?\s*\)))?", text))


def decimals(value: str) -> int:
    match = NUMBER.search(str(value))
    if not match or "." not in match.group(0):
        return 0
    return len(match.group(0).split(".")[1])


def fmt(number: Decimal, places: int) -> str:
    quant = Decimal(1).scaleb(-places) if places > 0 else Decimal(1)
    text = str(number.quantize(quant, rounding=ROUND_HALF_UP))
    return "0" if text in ("-0", "-0.0") else text


def fmt_like(number: Decimal, places: int, *examples: str) -> str:
    """`fmt`, with thousands separators when the recorded operands use them ('1,500')."""
    text = fmt(number, places)
    if not any("," in e for e in examples):
        return text
    sign, _, rest = text.rpartition("-") if text.startswith("-") else ("", "", text)
    whole, dot, frac = rest.partition(".")
    return f"{'-' if text.startswith('-') else ''}{int(whole):,}{dot}{frac}"


def numbers_in(text: str) -> list[str]:
    return [tok for tok in NUMBER.findall(text or "")]


def same_number(a: str, b: str, tolerance: Decimal = Decimal("0")) -> bool:
    x, y = parse_number(a), parse_number(b)
    if x is None or y is None:
        return False
    if tolerance:
        return abs(x - y) <= tolerance
    return x == y


def normalize(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^\w%.:@/+-]+", " ", (text or "").lower())).strip()


def answers_match(candidate: str, gold: str) -> bool:
    """Lenient equality of two short answers: same normalized text, or the same leading number."""
    c, g = normalize(candidate), normalize(gold)
    if not c or not g:
        return False
    if c == g or g in c:
        return True
    gn, cn = parse_number(gold), parse_number(candidate)
    return gn is not None and cn is not None and gn == cn and is_numeric_cell(gold.strip())


def word_count(text: str) -> int:
    return len(re.findall(r"\S+", text or ""))


def moment_between(start: datetime, end: datetime, step_minutes: int = 15) -> datetime | None:
    """A quarter-hour strictly inside (start, end), in working hours (09:00-18:00) when the window has
    one, nearest its middle; None when the window holds no quarter-hour."""
    first = start.replace(second=0, microsecond=0) + timedelta(minutes=step_minutes - start.minute % step_minutes)
    middle = start + (end - start) / 2
    best = None
    moment = first
    while moment < end:
        if moment > start:
            key = (not 9 <= moment.hour < 18, abs((moment - middle).total_seconds()))
            if best is None or key < best[0]:
                best = (key, moment)
        moment += timedelta(minutes=step_minutes)
    return best[1] if best else None


def when(moment: datetime) -> str:
    """'Tue Sep 1 at 14:00' — how questions name a time boundary."""
    return f"{moment:%a} {moment:%b} {moment.day} at {moment:%H:%M}"


def channel_ref(channel: str) -> str:
    if channel.startswith("dm-"):
        return "a direct message"
    if channel in ("email", "notion", "meeting", "files", ""):
        return {"email": "email", "notion": "Notion", "meeting": "a meeting", "files": "the shared files"}.get(channel, "")
    return f"#{channel}"
