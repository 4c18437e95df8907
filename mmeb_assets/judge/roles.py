"""Roles in attribution answers: who did which act ('A flagged it; B posted the correction')."""
from __future__ import annotations

import re

from mmeb_assets.judge import value_match as vm
from mmeb_assets.schema.qa import QAItem

ROLE_VERB = re.compile(r"^\s*(?:has\s+|had\s+|was\s+|first\s+|then\s+)?([a-z]+ed)\b")
BY_VERB = re.compile(r"\b([a-z]+ed)\s+(?:it\s+)?by\s+(?:the\s+)?$")


def role_swap(item: QAItem, candidate: str, parts: list[str]) -> str | None:
    """Roles given to the wrong people: the reference names each person with the act they did ('A
    flagged it; B posted the correction'); an answer that puts another of those acts right after (or,
    passive, right before) a person gives that person the other role. What is wrong, or None."""
    roles = {}
    for segment in (item.gold.answer or "").split(";"):
        for person in parts:
            match = ROLE_VERB.match(segment.strip()[len(person):]) if segment.strip().startswith(person) else None
            if match:
                roles[person] = match.group(1)
    if len(set(roles.values())) < 2:
        return None
    text = candidate.lower()
    for person, verb in roles.items():
        for hit in vm.find_value(person, candidate, None):
            after = ROLE_VERB.match(text[hit.end:])
            before = BY_VERB.search(text[max(0, hit.start - 40):hit.start])
            said = (after or before).group(1) if (after or before) else ""
            if said and said != verb and said in roles.values():
                return f"gives {person} the act '{said}', the reference '{verb}'"
    return None
