"""Each person's writing style, read from the free-text voice of the Organization.

The deterministic twin varies phrasing by person: openers, sign-offs, casing, emphasis and how
values are introduced. Values themselves are never touched by a style (they stay verbatim).
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from mmeb_assets.schema.workspace import Person

OPENERS = {
    "terse": ["", "", "fyi -", "heads up -", "ok -"],
    "warm": ["Hi all!", "Hey team!", "Quick one, friends:", "Hey everyone!"],
    "formal": ["Update:", "For the record:", "Status note:", "Please note:"],
    "plain": ["", "Update -", "Quick update:", ""],
}
CLOSERS = {
    "terse": ["", "", ""],
    "warm": ["Thanks!", "Shout if anything looks off.", "Nice work, everyone.", "Cheers!"],
    "formal": ["Please flag any concerns.", "Let me know if anything needs review.", "Thank you."],
    "plain": ["", "Let me know.", "More soon."],
}
ACKS = {
    "terse": ["ack", "seen", "on it", "ok, thx", "👍", "noted", "k, will check", "ty", "got it, moving on",
              "same here", "+1", "looks right to me"],
    "warm": ["Thanks so much, this helps!", "Love it, thank you!", "Great, appreciate it!",
             "This is really useful, thank you!", "Amazing, nice one!", "Oh nice, that unblocks me!",
             "Brilliant, thanks for the quick turnaround!", "Yay, great progress!"],
    "formal": ["Acknowledged, thank you.", "Noted. I will follow up.", "Received; reviewing now.",
               "Thank you. I will reflect this in my notes.", "Understood. No objections from my side.",
               "Confirmed on my end.", "Thank you for the update; I will review it today."],
    "plain": ["Thanks, looking now.", "Got it.", "Makes sense, thanks.", "Will take a look.",
              "Cool, thanks.", "OK, that matches what I expected.", "Nice. I'll read it after lunch.",
              "Thanks, I'll pass it on."],
}
FOLLOWUPS = {
    "result_posted": ["Is that on the full set or the dev split?", "Can we get this into the tracker?",
                      "Does the run config match last week's?", "I'll add it to the report draft."],
    "error_slipped": ["Will add it to the summary.", "Is this the final run?"],
    "correction": ["Thanks for catching that.", "I'll fix my copy of the table.", "Good catch, updating my notes."],
    "decision": ["Agreed.", "Works for me.", "I'll let the customer side know.", "Sounds right, let's go."],
    "document_posted": ["Reading it now.", "Left a couple of comments.", "Looks clean, thanks.",
                        "Will review before the sync."],
    "fact_update": ["Noted, updating the calendar.", "Thanks, I'll plan around that.", "OK, good to know."],
    "status_update": ["Same, wrapping up here.", "Thanks, have a good evening.", "See you tomorrow."],
}


HEDGES = [" I think, but please double-check.", " If I'm reading it right.", " Does that match what you see?"]
ASIDES = [" (side note: I'll keep the tracker in sync)", " — this is what we'd quote externally",
          " — more once I've double-checked the setup"]
BRISK = [" Owner: me.", " Next: review by end of day.", " Action: please sanity-check.", " Next step is on me."]
LABELS = ["Status:", "Result:", "Note:", "Update:"]


@dataclass(frozen=True)
class VoiceStyle:
    person_id: str
    register: str  # terse | warm | formal | plain
    lowercase: bool
    emoji: str
    seed: int
    hedge: bool = False       # cautious: asks for confirmation
    aside: bool = False       # chatty: dashes and asides
    brisk: bool = False       # direct: owners and next steps
    labelled: bool = False    # structured: starts with a label
    greets: bool = True

    def rng(self, salt: str) -> random.Random:
        digest = hashlib.sha256(f"{self.seed}:{self.person_id}:{salt}".encode()).hexdigest()
        return random.Random(int(digest[:16], 16))

    def pick(self, options: list[str], salt: str) -> str:
        return options[self.rng(salt).randrange(len(options))]

    def opener(self, salt: str) -> str:
        return self.pick(OPENERS[self.register], "open:" + salt)

    def closer(self, salt: str) -> str:
        return self.pick(CLOSERS[self.register], "close:" + salt)

    def ack(self, salt: str, kind: str = "") -> str:
        text = self.pick(ACKS[self.register], "ack:" + salt)
        extra = FOLLOWUPS.get(kind)
        if extra and self.rng("follow:" + salt).random() < 0.55:
            text += " " + self.pick(extra, "fu:" + salt)
        return text

    def shape(self, parts: list[tuple[str, bool]], salt: str, light: bool = False, dm: bool = False) -> str:
        """Join (text, is_value) parts; style applies to prose only, never to values."""
        out = []
        for text, is_value in parts:
            if not is_value and self.lowercase:
                text = text.lower()
            out.append(text)
        body = "".join(out).strip()
        opener, closer = self.opener(salt), self.closer(salt)
        if light:  # quick chatter: rarely an opener or a sign-off
            opener = opener if self.rng("lo:" + salt).random() < 0.15 else ""
            closer = closer if self.rng("lc:" + salt).random() < 0.1 else ""
        if dm and any(w in opener.lower() for w in ("all", "team", "everyone", "friends")):
            opener = ""
        if not self.greets:
            opener = ""
        if not light:
            body, opener, closer = self._habits(body, opener, closer, salt)
        if self.lowercase:
            opener, closer = opener.lower(), closer.lower()
        pieces = [p for p in (opener, body, closer) if p]
        text = " ".join(pieces)
        if self.emoji and self.rng("emoji:" + salt).random() < 0.5:
            text += " " + self.emoji
        return text


    def _habits(self, body: str, opener: str, closer: str, salt: str) -> tuple[str, str, str]:
        """The person's writing habits beyond the register (from their voice description)."""
        roll = self.rng("habit:" + salt).random()
        if self.labelled:
            opener = self.pick(LABELS, "label:" + salt)
        if self.hedge and roll < 0.6:
            closer = self.pick(HEDGES, "hedge:" + salt).strip()
        if self.aside and roll < 0.5:
            body = body.rstrip(".") + self.pick(ASIDES, "aside:" + salt) + "."
        if self.brisk and roll < 0.6:
            closer = self.pick(BRISK, "brisk:" + salt).strip()
        return body, opener, closer


def _register(voice: str) -> str:
    v = voice.lower()
    if any(w in v for w in ("terse", "blunt", "clipped", "minimal", "brisk")):
        return "terse"
    if any(w in v for w in ("formal", "precise", "careful", "measured", "polite")):
        return "formal"
    if any(w in v for w in ("warm", "friendly", "enthusias", "cheer", "upbeat", "chatty")):
        return "warm"
    return "plain"


def style_for(person: Person, seed: int) -> VoiceStyle:
    v = person.voice.lower()
    register = _register(person.voice)
    if register == "plain":
        # an unclassified voice still gets a stable, person-specific register
        digest = int(hashlib.sha256(f"{seed}:{person.id}".encode()).hexdigest()[:8], 16)
        register = ["plain", "terse", "warm", "formal"][digest % 4] if not v else "plain"
    emoji = ""
    if "emoji" in v:
        emoji = ["🙂", "🚀", "✅", "📈"][len(person.id) % 4]
    return VoiceStyle(person_id=person.id, register=register, lowercase="lowercase" in v, emoji=emoji, seed=seed,
                      hedge=any(w in v for w in ("cautious", "hedge", "unsure", "asks clarifying")),
                      aside=any(w in v for w in ("aside", "dashes", "explains context", "chatty")),
                      brisk=any(w in v for w in ("brisk", "action items", "direct")),
                      labelled=any(w in v for w in ("structured", "bullet", "labels")),
                      greets=not any(w in v for w in ("no greeting", "no greetings")))
