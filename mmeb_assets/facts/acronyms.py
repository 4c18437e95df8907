"""Abbreviations a document introduces: 'Presentation Attack Detection (PAD)'.

Why: reports and guidelines define their vocabulary as they go, and a team adopting one keeps a
glossary of it; 'what does PAD stand for in the guideline?' is a question its readers really ask, with
a short answer printed on the page. An abbreviation is kept only when the initials of the words
before it spell it, so a parenthesised citation, unit or example is never read as one.
"""
from __future__ import annotations

import re

from mmeb_assets.facts.prose import LEAVE_REFERENCES, REFERENCE_HEADING
from mmeb_assets.ingestion.numbers import sentences
from mmeb_assets.schema.source import SourceDocument, Statement

INTRODUCED = re.compile(r"\(([A-Z][A-Za-z&]{1,9}?)(s?)\)")
SMALL_WORDS = {"of", "and", "for", "the", "in", "on", "to", "a", "an", "&", "by", "with", "at"}
MAX_WORDS = 10
MAX_ACRONYMS = 10


def acronym_statements(document: SourceDocument, first_number: int = 1) -> list[Statement]:
    """The first introduction of each abbreviation, spread over the document (at most `MAX_ACRONYMS`);
    an abbreviation the document expands in two ways is left out."""
    found: list[Statement] = []
    seen: set[str] = set()
    meanings: dict[str, set[str]] = {}
    in_references = False
    for page in document.pages:
        for block in page.blocks:
            heading = block.text.strip()
            if block.kind == "heading" or (len(heading) < 60 and REFERENCE_HEADING.match(heading)):
                in_references = bool(REFERENCE_HEADING.match(heading)) or (
                    in_references and not LEAVE_REFERENCES.match(heading))
            if block.kind != "text" or in_references:
                continue  # a cited title's '(EMNLP)' is the citation's, not the document's vocabulary
            for sentence in sentences(" ".join(block.text.split())):
                for match in INTRODUCED.finditer(sentence):
                    acronym = match.group(1)
                    expansion = expansion_of(sentence[:match.start()], acronym)
                    expansion = re.sub(r"[’']s$", "", expansion)  # 'Department for ... Technology’s (DSIT)'
                    if match.group(2) and expansion.endswith("s"):
                        expansion = _singular(expansion)  # 'Internet service providers (ISPs)': an ISP is one provider
                    if not expansion:
                        last = re.findall(r"[A-Za-z][\w’'\-]*", sentence[:match.start()])[-1:]
                        if last and last[0][:1].isupper():  # 'System and Communications Protection (SC)'
                            meanings.setdefault(acronym.upper(), set()).add(f"? {last[0].lower()}")
                        continue
                    meanings.setdefault(acronym.upper(), set()).add(expansion.lower())
                    if acronym.upper() not in seen:
                        seen.add(acronym.upper())
                        found.append(Statement(id="", kind="acronym", subject=acronym, aspect="expansion",
                                               stated=expansion, sentence=sentence, page=page.page))
    found = [s for s in found if len(meanings[s.subject.upper()]) == 1]  # 'SC': security category, and
    # System and Communications Protection ten pages on: no one expansion is the document's
    step = max(1, len(found) / MAX_ACRONYMS)
    spread = [found[int(n * step)] for n in range(min(MAX_ACRONYMS, len(found)))]
    return [s.model_copy(update={"id": f"statement_{first_number + n:02d}"}) for n, s in enumerate(spread)]


def expansion_of(before: str, acronym: str) -> str:
    """The words just before '(PAD)' whose initials spell it ('Presentation Attack Detection'), else ''."""
    letters = [c for c in acronym if c.isupper() or c == "&"]
    if len(letters) < 2 or acronym.isupper() is False and sum(c.isupper() for c in acronym) < 2:
        return ""
    words = re.findall(r"[A-Za-z][\w’'\-]*", before)[-MAX_WORDS:]
    for start in range(len(words) - 1, -1, -1):
        phrase = words[start:]
        content = [w for w in phrase if w.lower() not in SMALL_WORDS]
        initials = [part[0].upper() for w in content for part in w.split("-") if part]
        if initials == [c.upper() for c in letters] and phrase[0].lower() not in SMALL_WORDS:
            if not before.rstrip().endswith(phrase[-1]):
                return ""
            if start >= 2 and words[start - 1].lower() in SMALL_WORDS and words[start - 2][:1].isupper():
                return ""  # 'System and Services Acquisition (SA)': the name runs on before its initials
            return " ".join(phrase)
        if len(initials) > len(letters):
            break
    return ""


def _singular(phrase: str) -> str:
    """The phrase's last word in the singular: 'providers' -> 'provider', 'processes' -> 'process',
    'policies' -> 'policy'."""
    if re.search(r"(?:ss|x|z|ch|sh)es$", phrase):
        return phrase[:-2]
    if re.search(r"[^aeiou]ies$", phrase):
        return phrase[:-3] + "y"
    return phrase[:-1]
