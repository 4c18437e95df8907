"""The document's own numbered section titles ('1. AI system record', '2.2. Confabulation').

Why: guidance, frameworks and questionnaires print few measured quantities (the NIST AI RMF one, the
UK AI Management Essentials none), yet a team that adopts such a document works through its sections.
The simulation names review work after these titles when the facts are too few to carry a week; the
values of that work are the simulated team's own, never numbers taken from the document.
"""
from __future__ import annotations

import re

from mmeb_assets.facts.prose import contents_pages, running_blocks
from mmeb_assets.schema.source import SourceDocument

NUMBERED = re.compile(r"^(?:Section\s+)?\d{1,2}(?:\.\d{1,2}){0,2}\.?\s+(?P<title>[A-Z][^\d]{2,70})$")
NOT_A_TITLE = re.compile(r"\b(?:yes|no|contents|introduction|references|appendix|glossary|annex|acknowledg\w*|"
                         r"foreword|summary|abstract|conclusions?|bibliography)\b", re.I)
LEADING_WORDS = {"if", "see", "the", "these", "this", "under", "in", "for", "as", "when", "we", "our", "it", "a", "an"}
TRAILING_WORDS = {"are", "is", "was", "were", "a", "an", "the", "of", "to", "and", "or", "by", "with", "that"}
SENTENCE_ADVERB = re.compile(r"[A-Z][a-z]+(?:ally|ively|ently|antly|ously|ably|ibly|edly|ingly|ately|arly)|However|Moreover|Furthermore|Therefore|Thus|Hence|Also|Overall|"
                             r"Indeed|Instead|Meanwhile|Nevertheless|Nonetheless|Otherwise|First|Second|Third|Finally")
BARE_NUMBER = re.compile(r"^\d{1,2}(?:\.\d{1,2}){0,2}\.?$")
MAX_SECTIONS = 24


def _title(line: str) -> str:
    """The title of a numbered heading line, or '' when the line is no section title."""
    match = NUMBERED.match(" ".join(line.split()))
    if not match:
        return ""
    if match.group("title").rstrip().endswith(","):
        return ""  # '2 Specifically, ...': a numbered line of running text
    title = match.group("title").strip(" .:;-–—")
    words = title.split()
    if words and all(SENTENCE_ADVERB.fullmatch(w) for w in words):
        return ""  # 'Specifically', 'However': a sentence's first word, no subject to review
    if not 1 <= len(words) <= 8 or title.endswith("?") or NOT_A_TITLE.fullmatch(title) or \
            sum(w[:1].isupper() for w in words) == 0:
        return ""
    if re.search(r"[.;!?]\s", title) or words[0].lower() in LEADING_WORDS or words[-1].lower() in TRAILING_WORDS:
        return ""  # a numbered sentence or list item ('1 These strategies are'), not a heading
    return title


def document_sections(document: SourceDocument) -> list[str]:
    """Numbered section titles in reading order (first line of a heading or short block), once each;
    contents pages and running headers are skipped so a title is taken where its section starts."""
    skip_pages = contents_pages(document)
    running = running_blocks(document)
    out: dict[str, str] = {}
    for page in document.pages:
        if page.page in skip_pages:
            continue
        for index, block in enumerate(page.blocks):
            lines = [line for line in block.text.splitlines() if line.strip()]
            if (page.page, index) in running or not lines or len(block.text.split()) > 14:
                continue
            first = lines[0]
            if BARE_NUMBER.match(first.strip()) and len(lines) == 2:
                first = f"{first.strip()} {lines[1]}"  # number and title set on two lines
            title = _title(first)
            if title and title.lower() not in out:
                out[title.lower()] = title
    return list(out.values())[:MAX_SECTIONS]
