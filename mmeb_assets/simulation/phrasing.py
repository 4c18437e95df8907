"""Each person's voice: wraps a first-person core message without touching its values.

The core carries every value verbatim; a voice only adds an opening, a closing or a layout, none of
which contains a digit, so MUST CONTAIN / MUST NOT CONTAIN hold by construction.
"""
from __future__ import annotations

import hashlib
import random

from mmeb_assets.schema.workspace import Person
from mmeb_assets.simulation.names import VOICES

STYLES = {
    "terse": (["", "", "fyi: ", "quick one: "], ["", "", " - that's it", ""]),
    "warm": (["Hi all! ", "Good news, ", "Thanks everyone - ", "Hey team, "], [" :tada:", " Thanks!", " :slightly_smiling_face:", ""]),
    "formal": (["Good morning, all. ", "Dear colleagues, ", "For the record: ", ""],
               [" Kind regards.", " Please let me know of any concerns.", " Thank you.", ""]),
    "bullets": (["Update:\n- ", "Summary:\n- ", "Notes:\n- ", "- "], ["", "\n- next: follow-up in the thread", "", ""]),
    "hedging": (["I think ", "If I read it right, ", "Not fully sure, but ", "Could be wrong, but "],
                [" - can someone double-check?", " (happy to be corrected)", "?", " - does that match what you see?"]),
    "brisk": (["", "Heads up: ", "Action: ", "Done: "], [" Moving on.", " Owners, please pick it up.", "", " Next item."]),
    "chatty": (["So - ", "Okay, so ", "Small update from my side - ", "Right, "],
               [" (took a bit longer than I hoped)", " - more in the thread", ", anyway, back to it", ""]),
}


def style_key(person: Person) -> str:
    for key, description in VOICES:
        if description == person.voice:
            return key
    keys = sorted(STYLES)
    return keys[int(hashlib.sha256(person.voice.encode()).hexdigest(), 16) % len(keys)]


TEMPLATE_STARTS = {"Numbers", "Finished", "Measured", "Got", "Noting", "For", "Recap", "Update", "Setting",
                   "Correction", "Correction:", "Please", "Sharing", "Decision:", "Today", "Thanks", "Nice", "Quick",
                   "Looks", "Wait,", "Interesting.", "Great", "Plan", "Picking", "Prepping", "Going", "That's",
                   "Good", "Wrapping", "Sure,", "Yes", "Can", "Are", "Where", "Want", "Saw", "The"}


def lower_first(text: str) -> str:
    """Lower-case the first letter only when it starts one of our own template words (never a value)."""
    word = text.split(" ", 1)[0]
    return text[0].lower() + text[1:] if word in TEMPLATE_STARTS else text


def voiced(person: Person, core: str, rng: random.Random, where: str, keep: list[str] = ()) -> str:
    """The message as this person would write it in a Slack channel or DM; a value in `keep` that
    ends the message keeps its own final '.' (a seed cell such as 'This menu is very good.')."""
    if where in ("notion", "files", "meeting"):
        return core
    if where == "email":
        return f"Hi,\n\n{core}\n\nBest,\n{person.first_name}"
    key = style_key(person)
    openings, closings = STYLES[key]
    opening, closing = rng.choice(openings), rng.choice(closings)
    if where.startswith("dm-") and opening in ("Hi all! ", "Hey team, ", "Thanks everyone - ", "Good morning, all. ",
                                               "Dear colleagues, ", "Good news, "):
        opening = ""
    body = lower_first(core) if opening and not opening.endswith("\n- ") and opening not in ("- ",) else core
    if key == "terse" or closing.startswith(("?", " -", ",", " (")):
        # a sentence's full stop goes; a value that ends in a detached '.' (a seed cell such as
        # 'sunny , with a high near 38 .' or '.') keeps it
        ends_value = any(v.endswith(".") and body.endswith(v) for v in keep)
        body = body[:-1] if body.endswith(".") and not body.endswith((" .", "..")) and not ends_value else body
    return f"{opening}{body}{closing}".strip()
