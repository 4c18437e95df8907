"""Numbers that are not facts, each with its reason code.

A report prints many numbers no reader would quote: running headers and page numbers (`furniture`),
section, list, figure and footnote numbers (`numbering`), numbers of laws, orders, standards, reports,
DOIs, URLs, phone numbers and addresses (`identifier`), author-year and report citations (`citation`),
years and dates standing alone (`date`), and thresholds a rule sets ('sanctions apply if performance is
less than 80 percent of ...': `threshold`), which are conditions, not results. `reason_for(sentence,
start, end)` names the class of the number at `sentence[start:end]`, or returns None when nothing rules
it out.
"""
from __future__ import annotations

import re

MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
YEAR = re.compile(r"^(1[89]|20)\d\d$")
NUMBERING_BEFORE = re.compile(
    r"(?:\b|(?<=\d))(?:Tables?|Figures?|Figs?\.|fig\.|Sections?|Sec\.|Appendix|Appendixes|Chapters?|Parts?|Steps?|Phases?|"
    r"Tiers?|Levels?|Stages?|Items?|Questions?|Rules?|Principles?|Annex|Box|Exhibits?|Notes?|footnotes?|Eq\.|"
    r"Equations?|Page|pages|pp?\.|Category|Subcategory|Functions?|Recommendations?|Objectives?|Goals?|Lines?|"
    r"Rows?|Columns?|Criteria|Criterion|Articles?|Clauses?|Paragraphs?|Outcomes?|"
    r"(?:continue|skip|go|proceed|return|move)\s(?:on\s)?to(?:\snext)?|see)\s*"
    r"(?:\d+(?:\.\d+)*[a-z]?\s*(?:,|and|or|to|through|-|–)\s*)*$", re.I)
IDENTIFIER_BEFORE = re.compile(
    r"(?:Pub\.\s?L\.(?:\s?No\.)?|P\.L\.|No\.|Nos\.|GAO[-/]?[A-Z]*-?|EO|E\.O\.|Executive Order|Order|ISO(?:/IEC)?|IEC|"
    r"IEEE|NIST\s(?:AI|SP|IR)|SP|NISTIR|FIPS|Stat\.|U\.S\.C\.(?:\s?§+)?|C\.F\.R\.|CFR|§+|Sec\.|Title|Letter|ID=|ISBN|"
    r"ISSN|DOI:?|doi:|arXiv:?|RFC|Mail Stop|Suite|Room|Box|Version|version|v\.|Release|Revision|Rev\.|Vol\.|vol\.|"
    r"Volume|Issue|Report|Bulletin|Memorandum|M-|OMB|Act|[Tt]op|\(EO\))\s*(?:\d+[-–.]?\s*)*$")
IDENTIFIER_AFTER = re.compile(r"^(?:\s(?:Program|Programme|Project|Plan|Grant|Initiative|Series|Code)\b|\s?[-–/]\s?\d|\s?U\.S\.C\.|\s?C\.F\.R\.|\s?Stat\.|[-–]\d|\.\d+\.\d)")
STREET_AFTER = re.compile(r"^\s[A-Z][a-z]+(?:\s[A-Z][a-z]+)?\s(?:Drive|Street|St\.|Avenue|Ave\.|Road|Rd\.|Boulevard|"
                          r"Blvd\.|Lane|Way|Place|Square|Court|Parkway|Plaza)\b")
POSTCODE_BEFORE = re.compile(r"(?:\bD\.C\.|\bDC|,\s[A-Z]{2}|\b[A-Z]{2})\s$")
ACRONYM_LIST_BEFORE = re.compile(r"\b[A-Z]{2,}(?:\s[A-Z]{2,})?,?\s(?:\d{1,5},?\s)*$")
PHONE = re.compile(r"\(?\d{3}\)?[\s.-]?\d{3}[-.]\d{4}")
CITATION_PAREN = re.compile(r"\((?:[^()]*?(?:et al\.|[A-Z][a-z]+(?:\s(?:and|&)\s[A-Z][a-z]+)?),?\s*)$")
CITATION_BEFORE = re.compile(r"(?:Washington,\s?D\.?C\.?:?|Proceedings|Proc\.|In\s[A-Z]|Journal|Conference|"
                             r"Press|Publishing|Retrieved|Accessed|available at)[^.]{0,80}$")
DATE_AFTER = re.compile(r"^(?:st|nd|rd|th)?\s*(?:of\s)?(?:January|February|March|April|May|June|July|August|September|"
                        r"October|November|December)\b|^s\b|^[-–/]\d{1,2}[-–/]\d{2,4}|^:\d\d")
DATE_BEFORE = re.compile(MONTH + r"\s(?:\d{1,2}(?:st|nd|rd|th)?,?\s)?$|(?:fiscal|calendar|program|performance|school|"
                         r"financial|academic)\syears?\s$|\b(?:FY|CY)\s?$", re.I)
ORDINAL_AFTER = re.compile(r"^(?:st|nd|rd|th)\b")
COMPARATIVE_BEFORE = re.compile(r"\b(?:less|more|fewer|greater|lower|higher)\s+than\s+$|\b(?:below|under|above|over|"
                                r"exceeds?|exceeding|at\s+least|at\s+most|up\s+to|no\s+(?:more|less)\s+than)\s+$", re.I)
CONDITION_BEFORE = re.compile(r"\b(?:if|when|whenever|unless|once|until|should)\b[^,;:]*$", re.I)
STATISTIC_BEFORE = re.compile(r"\b[pP]\s*[<=>≤≥]\s*$|[<>≤≥]\s*$")
NAMED_CODE_BEFORE = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]{2,}\s$")
RANGE_START = (re.compile(r"\b(?:from|between)\s+(?:about\s+)?[$€£]?$", re.I),
               re.compile(r"^\s?(?:%|percent|per cent)?\s*(?:to|and|[-–])\s*[$€£]?\d"))
RANGE_END = re.compile(r"\b(?:from|between)\s+(?:about\s+)?[$€£]?\d[\d.,]*\s?(?:%|percent|per cent)?\s*(?:to|and|[-–])\s*[$€£]?$",
                       re.I)
LISTED_CODE = re.compile(r"[A-Z][A-Za-z]+\s(?:\d+\.\d+,\s?)*$")


def _token_around(sentence: str, start: int, end: int) -> str:
    left = re.search(r"\S*$", sentence[:start]).group()
    right = re.match(r"\S*", sentence[end:]).group()
    return left + sentence[start:end] + right


def unit_follows(after: str) -> bool:
    return bool(re.match(r"^\s?(?:%|percent|per cent|points?|million|billion|thousand)\b|^%", after))


def identifier_reason(sentence: str, start: int, end: int) -> bool:
    before, after = sentence[:start], sentence[end:]
    token = _token_around(sentence, start, end)
    if re.search(r"https?:|www\.|@|/|\\|\.(?:gov|org|com|edu|uk|pdf|html?)\b|=", token):
        return True
    if IDENTIFIER_BEFORE.search(before) or IDENTIFIER_AFTER.match(after) or STREET_AFTER.match(after):
        return True
    if re.search(r"[\dA-Za-z][-–]\s?$", before) and not re.search(r"\bto\s*$", before):
        return True  # the second part of '103-62', '20899-8900', 'GV- 1.1'
    value = sentence[start:end]
    if re.fullmatch(r"\d{5,}", value) and not YEAR.match(value):
        return True  # counts this large print thousands separators; bare long digit runs are ids and codes
    if (re.search(r"(?<=[a-z,;]\s)[A-Z][A-Za-z]+\s$", before) and not unit_follows(after)
            and re.match(r"^(?:\s*[).,;:”’\"]|\s*$|\s[A-Z(“\"])", after)):
        return True  # a name and its number: 'ISO GUIDE 73', 'Publication 1270', 'Section 347'
    if (ACRONYM_LIST_BEFORE.search(before) and re.fullmatch(r"\d{1,5}", value) and not unit_follows(after)
            and not re.match(r"^\s?(?:[a-z]|[-–]\d)", after)):
        return True  # control and version numbers of a standard: 'CIS CSC 1, 5, 16', 'COBIT 5', 'ISA 62443'
    window = sentence[max(0, start - 6):end + 10]
    if PHONE.search(window):
        return True
    return bool(re.search(r"\b[A-Z][A-Za-z]*[A-Z]\s$", before) and "." in value and not after.lstrip().startswith("%"))


def numbering_reason(sentence: str, start: int, end: int) -> bool:
    before, after = sentence[:start], sentence[end:]
    if NUMBERING_BEFORE.search(before):
        return True
    if before.endswith("(") and after.startswith(")"):
        return True  # '(1)' enumerations
    if after.startswith(")") and re.fullmatch(r"\d{1,2}", sentence[start:end]) and "=" not in before[-5:]:
        return True  # '1) the negative impact ...'
    if not before.strip() and re.match(r"^(?:\.|\))?\s*$|^(?:\.|\))\s+\S|^\s+[A-Z]", after):
        return True  # a list item, a section heading or a footnote marker at the start
    if re.search(r"[.!?”\"’]\s$", before) and re.match(r"^\s+[A-Z“\"]", after) and "." not in sentence[start:end]:
        return True  # a footnote marker after a sentence: 'activities. 37 Frequently ...'
    if re.match(r"^:", after) and not re.match(r"^:\d", after):
        return True  # 'Part 1:', 'GOVERN 1.5:'
    return False


def citation_reason(sentence: str, start: int, end: int) -> bool:
    before = sentence[:start]
    value = sentence[start:end]
    if re.search(r"\[\s*[\d,\s–-]*$", before):
        return True
    if YEAR.match(value) and (CITATION_PAREN.search(before) or re.match(r"^[a-z]?\)", sentence[end:])
                              and "(" in before[-60:]):
        return True
    if CITATION_BEFORE.search(before):
        return True
    return bool(re.search(r"\b(?:pp?\.|vol\.|Vol\.)\s*$", before))


def date_reason(sentence: str, start: int, end: int, unit: str) -> bool:
    value, before, after = sentence[start:end], sentence[:start], sentence[end:]
    if YEAR.match(value) and not unit:
        return True
    if DATE_BEFORE.search(before) or DATE_AFTER.match(after):
        return True
    return bool(re.fullmatch(r"\d{1,2}", value) and re.match(r"^,?\s(?:19|20)\d\d", after) and re.search(MONTH + r"\s$", before))


def threshold_reason(sentence: str, start: int) -> bool:
    """A bound a condition sets ('if their performance drops below 80 percent'), not a result."""
    before = sentence[:start].rstrip("$€£ ") + " "
    return bool(COMPARATIVE_BEFORE.search(before) and CONDITION_BEFORE.search(before))


def listed_code(sentence: str, start: int, end: int) -> bool:
    """A dotted number in a list of them after a name ('Govern 1.1, 1.2, 3.2'): codes, not values."""
    before, after, value = sentence[:start], sentence[end:], sentence[start:end]
    in_list = re.match(r"^,\s?\d+\.\d+", after) or re.search(r"\d+\.\d+,\s?$", before)
    return "." in value and bool(in_list) and bool(LISTED_CODE.search(before))


def named_code(sentence: str, start: int, end: int) -> bool:
    """A dotted number right after a name inside a sentence ('AI RMF: Govern 2.1', 'Python 3.8'):
    a reference, not a value, unless a unit follows."""
    value = sentence[start:end]
    return (bool(re.fullmatch(r"\d{1,2}\.\d{1,2}", value)) and bool(NAMED_CODE_BEFORE.search(sentence[:start]))
            and not unit_follows(sentence[end:]))


def range_end(sentence: str, start: int, end: int) -> str:
    """'lowest' or 'highest' when the number is one end of a range ('from 6 to 10 percent of ...',
    'between 24 and 66 percent'), else ''."""
    before, after = sentence[:start], sentence[end:]
    if RANGE_START[0].search(before) and RANGE_START[1].match(after):
        return "lowest"
    return "highest" if RANGE_END.search(before) else ""


PAGE_COUNT = re.compile(r"^\s+pages?\s*\((?:[A-Z][a-z]{2,8}\.?\s+)?(?:19|20)\d\d\)")


def reason_for(sentence: str, start: int, end: int, unit: str = "") -> str | None:
    """The non-fact class of the number at sentence[start:end], or None."""
    if STATISTIC_BEFORE.search(sentence[:start]):
        return "no_measure"  # the bound of a test statistic: 'p < 0.0001'
    if threshold_reason(sentence, start):
        return "threshold"
    if listed_code(sentence, start, end) or named_code(sentence, start, end):
        return "identifier"
    if ORDINAL_AFTER.match(sentence[end:]) and not DATE_AFTER.match(sentence[end:]):
        return "no_measure"  # '21st century'
    if re.match(r"^\s(?:or|and)\s(?:younger|older|over|under|above|below|more|less|fewer)\b", sentence[end:]):
        return "no_measure"  # a qualifier: 'children 18 or younger'
    if re.search(r"\bper\s+$", sentence[:start], re.I):
        return "no_measure"  # the base of a rate: 'Fatalities per 100 Million Persons', 'per 1,000 births'
    if re.match(r"^[-–][A-Za-z]", sentence[end:]):
        return "no_measure"  # a compound modifier: '10-year retrospective', '5-year contract'
    if citation_reason(sentence, start, end) or PAGE_COUNT.match(sentence[end:]):
        return "citation"  # a publication's length in its citation: '800-30, 54 pages (July 2002)'
    if re.match(r"^\s+https?://", sentence[end:]):
        return "numbering"  # a footnote's number before its link
    if re.match(r"^\d{1,2}\.\d{1,2}$", sentence[start:end]) and re.match(r"^\s+[A-Z][a-z]{3,}", sentence[end:]) \
            and (start == 0 or re.search(r"(?:^|[.;:]\s*|\s{2,})$", sentence[:start])):
        return "numbering"  # a section number before its title: '4.1 Coordination'
    if re.search(r"\(\s*e\.\s?g\.,?[^()]*$", sentence[:start]):
        return "example"  # inside '(e.g., 1 minute before ...)': an illustration, not a measurement
    if date_reason(sentence, start, end, unit):
        return "date"
    if identifier_reason(sentence, start, end):
        return "identifier"
    if numbering_reason(sentence, start, end):
        return "numbering"
    return None
