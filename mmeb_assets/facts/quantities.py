"""Figures stated in prose, kept with the sentence that states them and asked as that sentence says them.

Why: a number in running text is named by its whole sentence, not by the noun beside it. "Memorized
secrets SHALL be at least 8 characters in length if chosen by the subscriber" measures no "characters";
asked as "the number of the characters" it means nothing. Kept whole, the same figure is a question a
reader of the guideline asks in its own words: "memorized secrets SHALL be at least how many characters
in length if chosen by the subscriber?" A figure becomes such a statement only when its sentence stands
alone (no 'this' or 'these' pointing back, a full sentence, one figure of that value) and the figure says
what it counts: a unit ('7 days', '2.13 percent', '$450 million') or a plural noun after it ('385
investigators', '5 consecutive failed authentication attempts'). Anything else is left out.
"""
from __future__ import annotations

import re

from mmeb_assets.facts.measures import FUNCTION, unit_after
from mmeb_assets.facts.misreads import without_table_head
from mmeb_assets.ingestion.numbers import NUMBER_RE
from mmeb_assets.schema.source import Fact, Statement

MIN_WORDS, MAX_WORDS = 6, 40
MAX_NUMBERS = 3
MAX_TOPIC_WORDS = 6
REFERRING = re.compile(r"^[“\"']?(?:this|that|these|those|it|its|they|their|such|here|there|both|each of these|"
                       r"the (?:above|following|latter|former|same)|she|he|her|his|i|ce|cet|cette|ces|celui|celle|"
                       r"ceux)\b", re.I)  # 'She also notices ...', 'I would have 10 tabs ...': a scenario, a quote
# 'The goal represents approximately 10 percent of ...': which goal is said in the sentence before
NAMED_BEFORE = re.compile(r"^(?:The|Our)\s+(?:goal|target|figure|number|amount|total|increase|decrease|change|result|"
                          r"estimate|difference|reduction|remainder|rest|balance|gap|sum)s?\s+(?:represents?|is|are|was|"
                          r"were|equals?|amounts?|accounts?|corresponds?|reflects?|means?)\b")
# 'The method only uses 10% of the data', 'the algorithm': which method is named in the sentences before
NAMED_BEFORE_SUBJECT = re.compile(r"^(?:The|Our)\s+(?:method|algorithm|problem|approach|technique|procedure|scheme|"
                                  r"estimator|sampler|variant|model|system|tool|program|programme|initiative)s?\s+[a-z]")
POINTS_BACK = re.compile(r"\b(?:this|these|those|such)\s+(?!paper|work|report|study|document|section|article|guide|"
                         r"framework|publication|profile|survey|chapter|appendix|table|figure)[a-z]", re.I)
NOT_A_SENTENCE = re.compile(r"https?:|www\.|§|•|\bXX|\.\.\.|…|\[\d|\bfor (?:example|instance)\b|\be\.g\.|\bsuch as\b|"
                            r"\b(?:each|the) (?:curve|bar|line|dot|marker|panel)s?\b|\bshaded\b|\berror bars?\b|"
                            r"\b[xy]-axis\b", re.I)  # a figure's legend describes the plot, not the world
DETERMINER_BEFORE = re.compile(r"(?:\b(?:the|a|an|these|those|this|that|its|their|our|his|her|each|every|all)|[’']s|"
                               r"\d\s*(?:to|-|–|/|and|or))\s*$", re.I)
NOT_A_TOPIC = {"we", "which", "and", "or", "but", "each", "scores", "it", "they", "there", "this", "these"}
SUBORDINATE = re.compile(r"^(?:if|when|for|as|after|before|while|because|although|though|even|despite|since|unless|"
                         r"once|where|whether|to|in order|with|without|by|on|at|in|from|of)\b", re.I)
NAME_BEFORE = re.compile(r"(?:\)|\b[A-Z][\w\-]*)\s*$")
VERB = re.compile(r"\s(?:SHALL|MUST|SHOULD|MAY|shall|must|should|may|will|can|could|would|is|are|was|were|has|"
                  r"have|had|does|do|did|uses|used|requires|required|provides|allows|accounts|makes|made|received|"
                  r"spent|reported|reports|found|finds|showed|shows|identified|achieves|achieved|reached|contains|"
                  r"includes|included)\b")
# 'Retirement Services With responsibility for ...': a heading run into its paragraph's first sentence
GLUED_HEADING = re.compile(r"^(?:[A-Z][\w’'&\-]*\s+){1,6}(?:With|The|In|For|As|To|A|An|This|Our|We|Each|All|By|"
                           r"On|At|From|Since|During|Under|Over|Through|After|Before)\s+[a-z]")
# a number that names a statement, a part or a place in the document ('proposition 1 holds', 'step 3')
NUMBERING_BEFORE = re.compile(r"\b(?:proposition|lemma|theorem|corollary|assumption|equation|eq\.|section|figure|"
                              r"fig\.|table|appendix|chapter|step|article|footnote|hypothesis|phase|tier|level)\s*$",
                              re.I)
MAX_COUNTED_WORDS = 4
PARALLEL_AFTER = 6  # words after the subject that parallel sentences share ('$# billion or #% driven by')
# a sentence opening with a time, a source or a condition ('By September 30, 2026, EPA will ...',
# 'According to the authorities, ...') says what it measures after it, not in its opening words
LEAD_IN_WORDS = {"by", "according", "in", "on", "at", "during", "as", "for", "from", "since", "after", "before",
                 "under", "over", "with", "between", "within", "through", "until", "if", "when", "while", "of",
                 "more", "less", "about", "approximately", "nearly", "almost", "some", "up", "roughly", "around"}
CURRENCY_SIGNS = "$€£"
DURATION_UNITS = {"ms", "seconds", "minutes", "hours", "days", "weeks", "months", "years", "GB", "MB", "TB", "km",
                  "kg", "kWh", "MW", "GW", "miles", "tonnes", "square feet", "square miles", "points",
                  "percentage points", "times"}


def quantity_statements(facts: list[Fact], first_number: int = 1) -> list[Statement]:
    """One statement per prose sentence whose figure can be asked in the sentence's own words."""
    out: list[Statement] = []
    seen_topics: set[str] = set()
    seen_sentences: set[str] = set()
    seen_stated: set[tuple[str, str]] = set()
    parallel = _parallel_sentences(facts)
    for fact in facts:
        sentence = " ".join(fact.source.split())
        if fact.table_id or sentence in seen_sentences or not _stands_alone(sentence) or sentence in parallel:
            continue
        found = blanked(sentence, fact.value)
        if found is None:
            continue
        asked, stated = found
        topic = topic_of(sentence)
        if topic and topic.lower() in seen_topics or (fact.value, stated) in seen_stated:
            continue
        seen_sentences.add(sentence)
        seen_stated.add((fact.value, stated))
        seen_topics.add(topic.lower())
        out.append(Statement(id=f"statement_{first_number + len(out):02d}", kind="quantity", subject=topic,
                             aspect="figure", stated=stated, count=fact.value, sentence=sentence, page=fact.page,
                             asked=asked))
    return out


def _parallel_sentences(facts: list[Fact]) -> set[str]:
    """Sentences the document prints in parallel, word for word but their figures ('Operating expenses
    increased $2.7 billion or 30% ...' under each of a 10-Q's segments): which one a sentence means is
    in its heading, not in its words, so none of them is quoted alone."""
    shapes: dict[str, list[str]] = {}
    for sentence in {" ".join(f.source.split()) for f in facts if not f.table_id}:
        first = NUMBER_RE.search(sentence)
        lead = sentence[:first.start()].rstrip(" $€£").lower().split() if first else []
        if len(lead) >= 2 and re.fullmatch(r"[a-z][a-z\-]*", lead[0]) and lead[0] not in LEAD_IN_WORDS:
            shape = " ".join(NUMBER_RE.sub("#", sentence).lower().split()[:len(lead) + PARALLEL_AFTER])
            shapes.setdefault(shape, []).append(sentence)  # the same words around the figures
    return {s for group in shapes.values() if len(group) >= 2 for s in group}


def _stands_alone(sentence: str) -> bool:
    words = sentence.split()
    return (MIN_WORDS <= len(words) <= MAX_WORDS and bool(re.match(r"[A-Z“\"]", sentence))
            and sentence.rstrip().endswith(".") and not REFERRING.match(sentence) and not NOT_A_SENTENCE.search(sentence)
            and not NAMED_BEFORE.match(sentence) and not NAMED_BEFORE_SUBJECT.match(sentence)
            and not POINTS_BACK.search(sentence)  # '... this estimation ...': what it measures is in another sentence
            and len(NUMBER_RE.findall(sentence)) <= MAX_NUMBERS and sentence.count("(") == sentence.count(")")
            and not re.search(r"[a-z]{3,}\. (?:[a-z] )?[A-Z]", sentence)  # two sentences read as one ('share. b Data')
            and not re.match(r"[A-Z][\w ]{0,30}:\s+[a-z]", sentence)  # a row's label and its cell ('Characteristics: ...')
            and not GLUED_HEADING.match(sentence)
            and without_table_head(sentence) == sentence)  # no table heads read into its start


def blanked(sentence: str, value: str) -> tuple[str, str] | None:
    """(the sentence as a question with its figure blanked, the figure as printed) or None when the
    figure is printed twice, is a bare year, or says nothing of what it counts."""
    spots = [m for m in NUMBER_RE.finditer(sentence) if m.group("value") == value]
    if len(spots) != 1 or re.fullmatch(r"(?:19|20)\d\d", value):
        return None
    start, end = spots[0].start("value"), spots[0].end("value")
    if sentence[:start].count("(") > sentence[:start].count(")"):
        return None  # '(average 3.34 seconds, σ = 10.99)': a figure in an aside, no sentence of its own
    if NUMBERING_BEFORE.search(sentence[:start]):
        return None  # 'whenever proposition 1 holds': the number names a proposition, it counts nothing
    if DETERMINER_BEFORE.search(sentence[:start].rstrip(CURRENCY_SIGNS)):
        return None  # 'the 15 candidates', 'from 6 to 10 percent': blanked, the sentence no longer reads
    if start > 0 and sentence[:start].strip() and NAME_BEFORE.search(sentence[:start].rstrip(CURRENCY_SIGNS + " ")) \
            and sentence[:start].strip().count(" ") > 0:
        return None  # 'Section 5', '(GRS) 24', 'AAL 2': a number that names, not one that counts
    unit, scale, unit_end = unit_after(sentence, end)
    sign = start > 0 and sentence[start - 1] in CURRENCY_SIGNS
    if sign:
        start -= 1
        phrase = "how much"
    elif unit == "%":
        phrase = "what percent"
    elif unit in DURATION_UNITS and not scale:
        phrase = f"how many {_plural(sentence[end:unit_end].strip())}"
    elif not unit and (counted := _counted(sentence, end)):
        unit_end = end + len(counted)
        phrase = f"how many {counted.strip()}"
    else:
        return None
    if sign and scale:
        unit_end = max(unit_end, end + len(re.match(r"\s?(?:thousand|million|billion|trillion|bn|m|k)\b",
                                                   sentence[end:]).group(0)))
    stated = sentence[start:unit_end].strip()
    rest = sentence[unit_end:]
    asked = (sentence[:start] + phrase + (" " if rest[:1].isalnum() else "") + rest).rstrip(" .") + "?"
    return lower_first(asked), stated


def _counted(sentence: str, end: int) -> str:
    """' consecutive failed authentication attempts' after '5': the words up to the last plural noun
    before a function word or punctuation; '' when none."""
    words = re.match(r"(?:\s[a-z][a-z\-]*){1,%d}" % MAX_COUNTED_WORDS, sentence[end:])
    if not words:
        return ""
    kept: list[str] = []
    for word in words.group(0).split():
        if word in FUNCTION:
            break
        kept.append(word)
    while kept and not re.search(r"[a-rt-z]s$", kept[-1]):
        kept.pop()
    return (" " + " ".join(kept)) if kept else ""


def _plural(unit: str) -> str:
    return unit + "s" if unit in ("year", "day", "hour", "minute", "second", "week", "month", "point") else unit


def topic_of(sentence: str) -> str:
    """What the sentence is about: its subject before the verb ('memorized secrets', 'the verifier'),
    or '' when that is no short noun phrase."""
    verb = VERB.search(sentence)
    head = sentence[:verb.start()].strip() if verb else ""
    head = head.rsplit(",", 1)[-1].strip()
    if head and len(head.split()) <= MAX_TOPIC_WORDS and not re.search(r"\d|[;:()]", head) \
            and not SUBORDINATE.match(head) and head.split()[0].lower() not in NOT_A_TOPIC \
            and head.split()[-1].lower() not in FUNCTION:
        return lower_first(head)
    return ""


def lower_first(text: str) -> str:
    """A sentence as the middle of a question: its first word lowered unless it is a name or acronym."""
    first, _, rest = text.partition(" ")
    bare = first.rstrip(",;:").replace("-", "")
    if len(bare) > 1 and bare[0].isupper() and bare[1:].islower() and bare.isalpha():
        return first.lower() + (" " + rest if rest else "")
    return text
