"""First-person Slack wording for the plan's chatter events (stand-ups, reactions, questions, DMs).

The plan describes chatter in the third person ("Zainab asks a follow-up on Baseline: BM25"); the
deterministic twin turns each pattern into what the person would actually type, in their voice.
"""
from __future__ import annotations

import re

from mmeb_assets.records.voice import VoiceStyle

NAME = r"(?P<who>[A-Z][\w'’-]+)"
PATTERNS: list[tuple[re.Pattern, list[str]]] = [
    (re.compile(NAME + r" plans the day around (?P<label>.+)$"),
     ["Today is mostly {label} for me.", "Planning my day around {label}.", "Focus today: {label}."]),
    (re.compile(NAME + r" is on (?P<label>.+) today$"),
     ["On {label} today.", "I'm on {label} today, ping me if you need anything.", "Heads-down on {label} today."]),
    (re.compile(NAME + r" picks up (?P<label>.+) next$"),
     ["Picking up {label} next.", "{label} is next on my list.", "Moving to {label} next."]),
    (re.compile(NAME + r" finishes prep for (?P<label>.+)$"),
     ["Prep for {label} is done.", "Finished the prep for {label}.", "{label}: prep complete, ready to run."]),
    (re.compile(NAME + r" reviews yesterday's numbers and moves on to (?P<label>.+)$"),
     ["Went through yesterday's numbers, moving on to {label}.",
      "Reviewed yesterday's numbers; now on {label}."]),
    (re.compile(NAME + r" wraps up day (?P<n>\d+)$"),
     ["That's a wrap for day {n}. Thanks everyone.", "Day {n} done. See you all tomorrow.",
      "Wrapping up day {n}; open items carry over to tomorrow's stand-up."]),
    (re.compile(NAME + r" reacts to (?P<label>.+)$"),
     ["Nice, {label} looks good.", "Oh nice, {label} is in.", "Good to see {label} land."]),
    (re.compile(NAME + r" asks a follow-up on (?P<label>.+)$"),
     ["Follow-up on {label}: is that the same setup as before?", "Quick question on {label}: same data split?",
      "For {label}, did anything change in the config?"]),
    (re.compile(NAME + r" thanks (?P<owner>[A-Z][\w'’-]+) for (?P<label>.+)$"),
     ["Thanks {owner} for {label}!", "Thank you {owner}, {label} helps a lot.", "{owner}, thanks for {label}."]),
    (re.compile(NAME + r" asks what (?P<col>.+?) was for (?P<label>.+)$"),
     ["What was {col} for {label} again?", "Can someone remind me of {col} for {label}?",
      "Which {col} did we end up with for {label}?"]),
    (re.compile(NAME + r" answers: (?P<rest>.+) for (?P<label>.+)$"),
     ["For {label}: {rest}.", "{label} has {rest}.", "It's {rest} for {label}."]),
    (re.compile(NAME + r" coordinates who reviews the next draft$"),
     ["Who's reviewing the next draft? I can take the first pass.", "Shall we split the review of the next draft?"]),
    (re.compile(NAME + r" checks whether the numbers are final$"),
     ["Are the numbers final, or still moving?", "Before I copy anything: are those numbers final?"]),
    (re.compile(NAME + r" asks for a quick call about the schedule$"),
     ["Do you have ten minutes for a quick call about the schedule?", "Quick call about the schedule later?"]),
    (re.compile(NAME + r" shares a note on the customer's last e-mail$"),
     ["Re the customer's last e-mail: worth a read before we reply.",
      "Note on the customer's last e-mail: they want a clear answer on timing."]),
    (re.compile(NAME + r" asks where the latest tracker lives$"),
     ["Where does the latest tracker live?", "Which tracker page is the current one?"]),
    (re.compile(NAME + r" offers to pair on the write-up$"),
     ["Happy to pair on the write-up if that helps.", "Want to pair on the write-up this afternoon?"]),
    (re.compile(NAME + r" replies to (?P<other>[A-Z][\w'’-]+)$"),
     ["{other}, sure, works for me.", "Sounds good {other}.", "Yes {other}, let's do that.", "{other}: on it.",
      "Makes sense, {other}.", "Agreed with {other} here.", "{other}, fine by me.", "Good call {other}.",
      "Will do, {other}.", "{other}: yes, go ahead."]),
    (re.compile(NAME + r" welcomes (?P<joiner>[A-Z][\w'’-]+) to the team$"),
     ["Please welcome {joiner} to the team! {joiner}, the e-mail I sent has the channels and your first task.",
      "Everyone, {joiner} joins us today. Welcome aboard, {joiner}!"]),
]


# A second sentence drawn on its own, so the same pattern gives many frames (issue 27: 60% of messages
# came from 11 frames); half the messages take none.
TAILS = ["", "", "", "", "", " More after lunch.", " Will keep the tracker in sync.", " Shout if that clashes.",
         " Back on it after the sync.", " Notes are in the thread.", " Ping me if I missed something.",
         " Then reviews.", " Will post an update later."]


def chatter_text(summary: str, style: VoiceStyle, salt: str) -> str | None:
    """First-person message for a known chatter pattern, or None."""
    text = summary.strip().rstrip(".")
    for pattern, options in PATTERNS:
        match = pattern.match(text)
        if match:
            fields = {k: v for k, v in match.groupdict().items() if k != "who"}
            body = style.pick(options, "chat:" + salt).format(**fields)
            return body + (style.pick(TAILS, "tail:" + salt) if body.endswith((".", "!")) else "")
    return None


def first_person(summary: str, first_name: str) -> str:
    """Fallback: drop the leading name of the narrator ('Kenji shares X' -> 'Sharing X')."""
    text = summary.strip()
    if text.startswith(first_name + " "):
        rest = text[len(first_name) + 1:]
        verb, _, tail = rest.partition(" ")
        if verb.endswith("es") and verb[:-2].endswith(("sh", "ch", "ss", "x")):
            verb = verb[:-2]
        elif verb.endswith("s"):
            verb = verb[:-1]
        gerund = (verb[:-1] if verb.endswith("e") and not verb.endswith("ee") else verb) + "ing"
        text = f"{gerund.capitalize()} {tail}".strip()
    return text.rstrip(".") + "."
