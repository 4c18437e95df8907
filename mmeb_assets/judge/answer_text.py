"""Reading a free-text answer: abstentions, hedges, yes/no, direction words, dates and whole names.

Why a module of its own: the rules judge (rules_judge.py) decides from these readings, and each is a
general rule about how answers are written, never a rule about one question.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

ABSTENTION = re.compile(
    r"\b(not (?:been |be )?(?:established|stated|specified|mentioned|available|provided|given|reported|found|"
    r"recorded|documented|known|determin\w*|clear|possible to \w+|in the records)|cannot (?:be )?(?:determin\w*|"
    r"establish\w*|answer\w*|tell|find|confirm\w*|say|give|compute|calculate)|can ?not be|"
    r"can't (?:be )?(?:tell|say|find|determined?|answered|established|give|compute|calculate)|"
    r"unable to|no (?:information|record|mention|data|evidence|indication|such|way to (?:tell|know))|"
    r"insufficient|unknown|(?:does|do|did)(?: not|n't) (?:say|state|mention|specify|appear|exist|establish|contain|"
    r"give|include|show|record|report|cover|list|have)|there (?:is|are|was|were) no|there's no|none of the records|"
    r"nothing (?:in the records|on|about)|(?:mention|give|contain|record|list|show|include|cover)s? no|"
    r"^\W*no\b[^.]{0,60}\b(?:is|are|was|were) (?:mentioned|recorded|given|reported|stated|listed|available)|"
    r"(?:isn't|is not|aren't|are not|wasn't|was not|never) (?:stated|mentioned|recorded|given|reported|"
    r"specified|documented|in the records)|i (?:don't|do not) know|could(?: not|n't) find|"
    r"premise is (?:false|incorrect|wrong)|contradict\w*)\b", re.I)
HEDGE = re.compile(r"\b(either|maybe|perhaps|possibly|probably|might|could be|not sure|unsure|unclear whether|"
                   r"one of|somewhere between|i think|likely)\b", re.I)
ALTERNATIVE = re.compile(r"^\W*(?:or|and/or|/)\W*$|\bor\b|(?<![A-Za-z])/|/(?![A-Za-z])", re.I)  # not 'kcal/day'
FINAL = re.compile(r"\b(?:to|now|final\w*|latest|current\w*|became|correct(?:ed|ion)?|revised|updated|settled|"
                   r"in force|right|applies|stands|ends? (?:up|the week)|is)\b|[=:]", re.I)
HISTORY = re.compile(r"\b(?:from|was|were|earlier|initially|originally|previously|first|before|instead of|not|old|"
                     r"stale|"
                     r"wrong\w*|slip|replac\w+|outdated|shows?|gives?|gave|still|vs\.?|versus|against|over|than)\b",
                     re.I)
HISTORY_AFTER = re.compile(r"\W*(?:[\w'’]+\W+){0,5}?(?:was|is|were|are) (?:a |an |the )?(?:slip|typo|error|mistake|transposition|wrong|"
                           r"incorrect|outdated|obsolete|stale|superseded|old|earlier|previous|original|first|"
                           r"corrected|replaced|revised)\b", re.I)
UP = re.compile(r"\b(higher|larger|greater|bigger|more|increas\w*|grew|grow\w*|rose|rise[sn]?|up|gain\w*|"
                r"above|exceed\w*|went up|raised|ahead|leads?|beats?|outperform\w*)\b", re.I)
DOWN = re.compile(r"\b(lower|smaller|less|fewer|decreas\w*|drop\w*|fell|fall\w*|shr[au]nk|shrink\w*|down|"
                  r"declin\w*|reduc\w*|below|cut|trail\w*|lag\w*|behind|underperform\w*)\b", re.I)
YES = re.compile(r"^\W*(yes|yep|yeah|correct|true|indeed|supported|it does|it did|they do|they did|it'?s true|"
                 r"that'?s (?:right|true|correct)|it is true|(?:the claim|it) holds)\b", re.I)
NO = re.compile(r"^\W*(no|nope|not|false|incorrect|unsupported|it does not|it doesn't|it did not|it didn't|"
                r"they do not)\b", re.I)
YES_ANYWHERE = re.compile(r"\b(is supported|are supported|supports? the claim|was up to date|is up to date|"
                          r"did give|does give|gave the current|holds|is correct|is true)\b", re.I)
NO_ANYWHERE = re.compile(r"\b(not supported|unsupported|(?:does|do|did)(?: not|n't) (?:support|give|hold|show)|"
                         r"out of date|outdated|behind|stale|lagg\w*|was not up to date|wasn't up to date|"
                         r"is not correct|is false|contradicts? the claim|falls short|short of)\b", re.I)
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
MONTH = r"(?P<{}>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|" \
        r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
DAY_MONTH = re.compile(r"\b(?P<d>\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+" + MONTH.format("m") + r"\b|\b"
                       + MONTH.format("m2") + r"\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?\b|"
                       r"\b\d{4}-(?P<im>\d\d)-(?P<id>\d\d)\b", re.I)
CLOCK = re.compile(r"\b(?P<h>\d{1,2})(?::(?P<mi>\d\d))?\s*(?P<ap>a\.?m\.?|p\.?m\.?)(?!\w)|"
                   r"\b(?P<h2>\d{1,2}):(?P<mi2>\d\d)\b|"
                   r"\b(?P<word>noon|midday|midnight)\b", re.I)
WEEKDAY = re.compile(r"\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?\b\.?,?", re.I)
TOKEN = re.compile(r"[\w@#]+(?:['\u2019.\-][\w@#]+)*|\+|&")
NOT_NAME = frozenset("""the a an it this that these those yes no in on at by from to and or he she they both then after
    before according per so but its their his her we i our which who whose what when as of for with was is""".split())


def normalize(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    return re.sub(r"[\u2010-\u2015\u2212]", "-", text).replace("\u2019", "'")


def abstains(candidate: str) -> bool:
    return not candidate.strip() or bool(ABSTENTION.search(normalize(candidate)))


CONTEXT = re.compile(r"\b(?:records?|they|it|the (?:page|log|report|message|table)s?)\b[^.;]{0,40}?\b(?:do |does )?"
                     r"(?:include|hold|give|have|has|show|list|contain|mention|report)s?\b|\be\.g\.|"
                     r"\bfor example\b|\bsuch as\b", re.I)


def context_spans(text: str) -> list[tuple[int, int]]:
    """Clauses of an abstention that say what the records do hold ('the records include NSFC counts
    (e.g. Agree 44), but no bootstrap figure'): their numbers are context, not an answer."""
    spans, start = [], 0
    for m in re.finditer(r"(?<!e\.g)(?<!i\.e)[.;]\s|,?\s+but\s|$", text):
        clause = text[start:m.start()]
        if CONTEXT.search(clause) and not ABSTENTION.search(clause):
            spans.append((start, m.start()))
        start = m.end()
    return spans


def hedged(candidate: str) -> bool:
    return bool(HEDGE.search(candidate))


def linked_as_alternatives(text: str, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Two mentions offered as alternatives: 'X or Y', 'X/Y', 'between X and Y', 'either X ...'."""
    (s1, e1), (s2, e2) = sorted([a, b])
    between = text[e1:s2]
    if len(between) < 40 and ALTERNATIVE.search(between):
        return True
    before = text[max(0, s1 - 25):s1].lower()
    return bool(re.search(r"\b(between|either)\W*$", before)) and len(between) < 40 and " and " in f" {between} "


def stance(text: str, start: int, end: int) -> str | None:
    """'final' when the words just before a mention assert it ('corrected to X', 'now X'), 'history' when
    they or the words after mark it as past or wrong ('from X', 'X was a slip'); the nearer marker wins."""
    if HISTORY_AFTER.match(text[end:end + 40]):
        return "history"
    window = text[max(0, start - 30):start]
    finals = [m.end() for m in FINAL.finditer(window)]
    pasts = [m.end() for m in HISTORY.finditer(window)]
    if not finals and not pasts:
        return None
    return "final" if (finals[-1] if finals else -1) > (pasts[-1] if pasts else -1) else "history"


def polarity(candidate: str) -> str | None:
    """'yes', 'no', 'both' (a hedge) or None (no verdict given)."""
    text = normalize(candidate)
    lead_yes = bool(YES.search(text))
    lead_no = bool(NO.search(text)) and not ABSTENTION.match(text.lstrip(" \t\"'*-(["))  # "Not established" declines
    if lead_yes or lead_no:
        later = text[12:]
        if (lead_yes and re.search(r"\b(or no|and no|but no)\b", text, re.I)) or \
                (lead_no and re.search(r"\b(or yes|but yes)\b", later, re.I)):
            return "both"
        return "yes" if lead_yes else "no"
    found_yes, found_no = bool(YES_ANYWHERE.search(text)), bool(NO_ANYWHERE.search(text))
    if found_yes and found_no:
        return "both"
    return "yes" if found_yes else "no" if found_no else None


def direction(text: str) -> str | None:
    up, down = UP.search(text), DOWN.search(text)
    if up and down:
        return "up" if up.start() < down.start() else "down"
    return "up" if up else "down" if down else None


@dataclass(frozen=True)
class Moment:
    month: int | None
    day: int | None
    hour: int | None
    minute: int | None
    start: int
    end: int


def _month(word: str) -> int:
    return MONTHS.index(word.lower()[:3]) + 1


def _clocks(text: str) -> list[tuple[int, int, int, int]]:
    out = []
    for m in CLOCK.finditer(text):
        if m.group("word"):
            hour = 0 if m.group("word").lower() == "midnight" else 12
            out.append((hour, 0, m.start(), m.end()))
        elif m.group("h2"):
            out.append((int(m.group("h2")), int(m.group("mi2")), m.start(), m.end()))
        else:
            hour = int(m.group("h")) % 12 + (12 if m.group("ap").lower().startswith("p") else 0)
            out.append((hour, int(m.group("mi") or 0), m.start(), m.end()))
    return out


def moments(text: str) -> list[Moment]:
    """Dates and clock times, each date paired with the nearest time within a few words."""
    text = normalize(text)
    dates = []
    for m in DAY_MONTH.finditer(text):
        if m.group("im"):
            dates.append((int(m.group("im")), int(m.group("id")), m.start(), m.end()))
        else:
            month = _month(m.group("m") or m.group("m2"))
            dates.append((month, int(m.group("d") or m.group("d2")), m.start(), m.end()))
    clocks, used, out = _clocks(text), set(), []
    for month, day, start, end in dates:
        near = [c for c in clocks if abs(c[2] - end) < 25 or abs(start - c[3]) < 25]
        near = [c for c in near if c[2] not in used]
        if near:
            used.add(near[0][2])
            h, mi, cs, ce = near[0]
            out.append(Moment(month, day, h, mi, min(start, cs), max(end, ce)))
        else:
            out.append(Moment(month, day, None, None, start, end))
    out += [Moment(None, None, h, mi, s, e) for h, mi, s, e in clocks if s not in used]
    return sorted(out, key=lambda m: m.start)


def mask_moments(text: str) -> str:
    """The text with dates, clock times and weekdays blanked (same length), so their digits are not values."""
    text = normalize(text)
    spans = [(m.start, m.end) for m in moments(text)] + [(m.start(), m.end()) for m in WEEKDAY.finditer(text)]
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _name_tokens(text: str) -> list[tuple[str, int, int]]:
    out = []
    for m in TOKEN.finditer(normalize(text)):
        word = re.sub(r"'s$", "", m.group(0)).lower()
        out.append((word, m.start(), m.end()))
    return out


def name_tokens(name: str) -> list[str]:
    words = [w for w, _, _ in _name_tokens(name)]
    while words and words[0] in ("the", "a", "an"):
        words = words[1:]
    return words


def find_name(name: str, text: str) -> list[tuple[int, int, bool]]:
    """Whole-name occurrences of `name` in `text`: (start, end, extended) where `extended` says the
    occurrence runs on into a longer name (a superset such as 'Aurora Pilot Edition' for 'Aurora Pilot')."""
    want = name_tokens(name)
    if not want:
        return []
    text = normalize(text)
    toks = _name_tokens(text)
    out = []
    for i in range(len(toks) - len(want) + 1):
        if [t[0] for t in toks[i:i + len(want)]] != want:
            continue
        start, end = toks[i][1], toks[i + len(want) - 1][2]
        out.append((start, end, _runs_on(text, toks, i, i + len(want))))
    return out


def _continues(text: str, gap: str, word: str, raw: str) -> bool:
    if not re.fullmatch(r"[ \t]*|-", gap) or word in NOT_NAME:  # ' - ' is a dash between items, not a hyphen
        return False
    return raw[:1].isupper() or any(ch.isdigit() for ch in raw)


def _joined(toks: list[tuple[str, int, int]], j: int) -> bool:
    """'X + Y' / 'X & Y': a joining symbol followed by a name-like word extends the name."""
    return j + 1 < len(toks) and toks[j][0] in ("+", "&") and toks[j + 1][0] not in NOT_NAME


def _runs_on(text: str, toks: list[tuple[str, int, int]], i: int, j: int) -> bool:
    if _joined(toks, j):
        return True
    if j < len(toks):
        word, s, e = toks[j]
        if _continues(text, text[toks[j - 1][2]:s], word, text[s:e]):
            return True
    if i > 0:
        word, s, e = toks[i - 1]
        gap = text[e:toks[i][1]]
        sentence_start = i - 1 == 0 or re.search(r"[.!?:]\s*$", text[:s])
        if not sentence_start and _continues(text, gap, word, text[s:e]):
            return True
    return False
