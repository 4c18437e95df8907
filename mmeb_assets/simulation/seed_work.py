"""What a project works on, in its seed's words: the names its drifting and invented facts carry.

Why: the retrieval workspace holds every project, and a subject every project of an archetype shares
("the fieldwork budget", "median query latency") asks about 30 different facts under one name; drawn
from the seed, "the deadline for the pre-read" becomes the deadline of this document's work.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from mmeb_assets.schema.source import SourceFacts

BOILERPLATE_SECTION = re.compile(r"^(?:\d[\d.]*\s*)?(?:introduction|conclusions?|summary|references|abstract|"
                                 r"acknowledge?ments?|related works?|background|appendix|overview|contents|foreword|"
                                 r"executive summary|discussion|future work)\b", re.I)


MAX_WORK_WORDS = 4
SMALL_WORDS = {"of", "for", "and", "the", "a", "an", "in", "on", "to", "from", "by", "with"}


@dataclass(frozen=True)
class SeedWork:
    """What the project works on, in its seed's words: `work` names the whole ('SPECTER', 'the AI RMF'),
    `part` one piece of it a person can own ('Risk tolerance', 'Table 3 results')."""

    work: str = ""
    part: str = ""

    @classmethod
    def of(cls, facts: SourceFacts | None) -> "SeedWork":
        if facts is None:
            return cls()
        name = facts.textual.method_name.strip()
        work = name if 0 < len(name.split()) <= 5 and len(name) <= 40 and _plain(name) else short_title(facts.title)
        sections = [s for s in facts.sections if 0 < len(s.split()) <= 6 and not BOILERPLATE_SECTION.match(s)]
        parts = ([s.subject for s in facts.statements if s.kind == "components"] + sections
                 + [f"'{s.subject}' definition" for s in facts.statements if s.kind == "definition"])
        part = next((p for p in parts if p.lower() != work.lower() and _plain(p)), "")
        return cls(work, part)


def short_title(title: str) -> str:
    """What a team calls the document it works on: its title before a colon, without brackets, report
    numbers or years; a long title by the name it ends on ('Designing and Testing the Messages Produced
    by a Virtual Dietitian' -> 'Virtual Dietitian'), else its first words; '' when nothing plain is left."""
    before, _, after = title.partition(":")
    return _short(before) or _short(after)


def _short(text: str) -> str:
    head = re.sub(r"\([^)]*\)|\[[^]]*\]|[?!]", " ", text).split(",")[0]  # a title's '?' is no part of a name
    words = [w for w in head.split() if not _numbering(w)]
    if len(words) > MAX_WORK_WORDS:
        tail: list[str] = []
        for word in reversed(words):
            if not word[:1].isupper():
                break
            tail.insert(0, word)
        words = tail if 2 <= len(tail) <= 6 else words[:MAX_WORK_WORDS]
    while words and words[-1].lower() in SMALL_WORDS:
        words.pop()
    name = " ".join(words)
    return name if len(name) >= 3 and _plain(name) else ""


def _numbering(word: str) -> bool:
    """A year, report or version number ('2011', '800-63B', '1.1'), not a name with a digit in it
    ('VideoSearch-R1')."""
    return bool(re.search(r"\d", word)) and len(re.findall(r"[A-Za-z]", word)) < 3


def _plain(name: str) -> bool:
    """A name a person says: no report number or section number in it, not set in capitals (one word
    in capitals is a method's name: 'SPECTER')."""
    return not any(_numbering(w) for w in name.split()) and (
        not name.isupper() or re.fullmatch(r"[A-Z][A-Z\-]{2,}", name) is not None)
