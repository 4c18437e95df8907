"""Results shared only as a screenshot: the items whose values live in images, not in text.

Why: in a real workspace many results are pasted as a table screenshot, and the paper's headline
finding is about answers that need such images (visual units are in the gold of most of its
questions). If every result were also typed in Slack and Notion, a text record would answer every
question and the images would never be needed. A share of the week's items is therefore posted as
a table screenshot only; text records name the item but leave its values out.

The same holds for one drifting budget or sample size and one format or title per project
(`mark_pictured_facts`).

Items stay typed when text must carry their values: the release (the milestone meeting and the
adoption decision quote it), items an error slips on (the slip and correction restate them), and
items a decision cites. Of the document's statements only stated figures may be pictured: the team
snips the passage that states the figure (an excerpt image); a definition or an abbreviation is typed
into the glossary.
"""
from __future__ import annotations

import random
import re

from mmeb_assets.schema.workspace import Decision, EvolvingFact, PlanItem, ScriptedError

PICTURED_SHARE = 0.6


def mark_pictured(items: list[PlanItem], errors: list[ScriptedError], decisions: list[Decision],
                  rng: random.Random, share: float = PICTURED_SHARE) -> list[PlanItem]:
    """`items` with `pictured` set on about `share` of those that may be pictured (same seed, same set)."""
    targeted = {e.target.split(":")[0] for e in errors}
    cited = {c for d in decisions for c in d.cites}
    eligible = [i.id for i in items if i.kind != "release" and (i.kind != "statement" or i.asked) and i.id not in targeted
                and not cited & set(i.values.values()) and any(re.search(r"\d", v) for v in i.values.values())]
    chosen = set(rng.sample(eligible, round(share * len(eligible)))) if eligible else set()
    return [i.model_copy(update={"pictured": True}) if i.id in chosen else i for i in items]


SHEET_KINDS = ("budget", "size")
SHEET_TEXT_KINDS = ("option", "name")


def mark_pictured_facts(facts: list[EvolvingFact], rng: random.Random) -> list[EvolvingFact]:
    """Two drifting facts per project are kept in a planning sheet whose screenshot is posted at each
    change: one budget or sample size and, when one drifts, the deliverable's format or title (hosting
    option or build name). 'What was it on Tuesday' then needs the image of that day; a Notion status
    board still mirrors it in text, later: the lag the conflict questions are about. Owners and
    deadlines stay in messages."""
    numeric = [f.id for f in facts if f.kind in SHEET_KINDS]
    texts = [f.id for f in facts if f.kind in SHEET_TEXT_KINDS]
    chosen = {rng.choice(numeric) if numeric else None, rng.choice(texts) if texts else None}
    return [f.model_copy(update={"pictured": True}) if f.id in chosen else f for f in facts]
