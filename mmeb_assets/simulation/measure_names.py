"""Is a prose measure a name a reader would ask about? A noun phrase ('total federal outlays',
'investigators', 'negotiated performance levels') is; a verb or clause the number happened to sit by
('receive', 'ultimately paid', 'people chose a boy ...', 'to provide facilities management services'),
an adjective or ordinal left alone ('due', 'closer', 'second') or a word cut at a line break ('con-') is
not. Facts keep such measures (the extraction benchmark counts them); the planner does not make
questions of them.
"""
from __future__ import annotations

import re

# Past forms of common irregular verbs, which the '-ed' test misses.
IRREGULAR_PAST = {
    "paid", "met", "spent", "made", "held", "given", "gave", "taken", "took", "known", "knew", "seen", "saw",
    "done", "did", "found", "gone", "went", "sent", "sold", "built", "won", "lost", "brought", "bought", "kept",
    "left", "told", "said", "chose", "chosen", "wrote", "written", "began", "begun", "grew", "grown", "shown",
    "ran", "came", "become", "became", "felt", "led", "meant", "thought", "understood", "paid", "fell", "rose",
    "got", "gotten", "put", "cut", "set", "let", "hit", "quit", "spread", "shut",
}
# Adjectives, adverbs and ordinals that name no quantity on their own.
NOT_A_NAME = {
    "due", "closer", "close", "academic", "first", "second", "third", "fourth", "fifth", "last", "next",
    "previous", "otherwise", "overall", "additional", "separate", "different", "several", "various",
    "general", "great", "past", "other", "further", "former", "latter", "same", "own", "new", "old", "high",
    "higher", "low", "lower", "large", "larger", "small", "smaller", "more", "less", "most", "least", "many",
    "few", "fewer", "much", "whole", "entire", "set", "time", "room", "part", "way", "case", "cases",
}
# A span of time is how long something lasted, not what was counted: '2 consecutive years' of DOL,
# '5 fiscal years' of the performance drops.
TIME_UNITS = {"year", "years", "month", "months", "week", "weeks", "day", "days", "hour", "hours", "minutes",
              "seconds", "quarters"}
MODAL_OR_TO = re.compile(r"\b(?:to|will|would|can|could|may|might|must|shall|should|did|does|do)\s+$", re.I)
ED_EXCEPTIONS = {"need", "speed", "seed", "feed", "breed", "bed", "red", "hundred", "shed"}


def verb_like(word: str) -> bool:
    low = word.lower().strip(".,;:")
    if low in IRREGULAR_PAST:
        return True
    return low.endswith("ed") and len(low) > 4 and "-" not in low and low not in ED_EXCEPTIONS \
        and not low.endswith("eed")


def nameable(measure: str, sentence: str = "") -> bool:
    """Whether `measure` (as the document words it, in `sentence`) names something a reader would ask for."""
    words = measure.split()
    if not words or measure.rstrip().endswith("-"):
        return False
    if len(words) == 1 and words[0].lower() in NOT_A_NAME:
        return False
    if words[-1].lower().endswith("ly") and len(words[-1]) > 4:
        return False
    if words[-1].lower() in TIME_UNITS:
        return False
    if any(verb_like(w) for w in words[1:]) or (len(words) == 1 and words[0].lower() in IRREGULAR_PAST):
        return False
    if sentence:
        at = sentence.find(measure)
        if at > 0 and MODAL_OR_TO.search(sentence[:at]):
            return False   # 'to receive 4 percent', 'can earn 10 percent': a verb
    return True
