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
    numbers or years ('Highlights From PIRLS 2011 (excerpt)' -> 'Highlights From PIRLS'), at most six
    words; '' when nothing plain is left."""
    head = re.sub(r"\([^)]*\)|\[[^]]*\]", " ", title.split(":")[0])
    words = [w for w in head.split() if not re.search(r"\d", w)]
    while words and words[-1].lower() in {"of", "for", "and", "the", "a", "an", "in", "on", "to", "from"}:
        words.pop()
    name = " ".join(words[:6])
    return name if len(name) >= 3 and _plain(name) else ""


def _plain(name: str) -> bool:
    """A name a person says: no report number or section number in it, not set in capitals."""
    return not re.search(r"\d", name) and not name.isupper()
