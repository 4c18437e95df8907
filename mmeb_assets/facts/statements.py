"""Statements in prose: what a document says, not only what it measures.

Why: a framework, a guideline or a policy report states few numbers; what a team adopting it quotes,
applies and argues over are its statements. Two kinds are read here because their answer is short and
checkable against the page: a whole named with the count and the names of its parts ("The Framework
Core consists of five Functions: Identify, Protect, Detect, Respond, Recover", kept only when the count
printed equals the parts listed), and a term's definition ("Risk tolerance refers to the
organization's readiness to bear the risk ...", or a named thing said to be a kind of thing: "AI Management
Essentials is a self-assessment tool designed to help businesses ..."), kept to its first clause.
"""
from __future__ import annotations

import re

from mmeb_assets.ingestion.numbers import sentences
from mmeb_assets.schema.source import SourceDocument, Statement

COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
COMPONENTS = re.compile(
    r"^(?P<whole>(?:The |An? |Its |Each )?[A-Z][\w’'()\- ]{1,60}?)\s+(?:consists of|comprises|is composed of|"
    r"is made up of|is organized into|is organised into|is divided into|has|includes|contains)\s+"
    r"(?P<count>two|three|four|five|six|seven|eight|nine|ten|[2-9])\s+(?P<desc>(?:[\w-]+ ){0,5}?)"
    r"(?P<noun>[A-Za-z][\w-]*s)\s*(?::|—|–|--|,)\s*(?P<list>[^:;]+?)\.?$")
DEFINITION = re.compile(
    r"^(?P<term>(?:[“\"‘'][^”\"’']{2,50}[”\"’']|(?:The |An? )?[A-Z][\w’'\- ]{1,50}?)):?\s+(?:refers to|is defined as|"
    r"means|is the term for)\s+(?P<definition>.{12,})$")
COPULAR = re.compile(r"^(?P<term>[A-Z][\w’'\-]*(?: [A-Z][\w’'\-]*){0,4}) is (?P<definition>an? [a-z].{20,})$")
APPOSITIVE = re.compile(r"\b(?:the|a|an) (?P<term>[\w’'\-]+(?: [\w’'\-]+){0,2}), (?:that is|i\.e\.,?) "
                        r"(?P<definition>an? [a-z][^,;()]{15,})")
GLOSSARY_ENTRY = re.compile(r"^(?P<term>[A-Z][\w’'\-]*(?: [\w’'\-]+){0,4}):\s+(?P<definition>(?:an? |the )?[a-z][\w’'\-]*\b.{15,})$")
MIN_GLOSSARY_ENTRIES = 3
NOT_A_GLOSS = re.compile(r"^(?:see|we|you|in|includes?|broadly|for|it|this|these|our|refers?|please|e\.g\.)\b", re.I)
DEFINING_WORDS = re.compile(r"\b(?:that|which|designed|used|based|for|of|to)\b")
NOT_A_TERM = re.compile(r"^(?:this|that|it|these|those|which|there|here|below|above|such|what|our|my|we|since|while|as|if|when|"
                        r"because|although|though|unlike|whereas|thus|hence|finally|however|the (?:above|following))\b",
                        re.I)
PRONOUNS = {"it", "this", "that", "they", "these", "those", "he", "she", "we", "each", "both", "all", "which"}
SELF_REFERENCE = re.compile(r"^(?:the )?(?:company|organi[sz]ation|agency|department|government|firm|group|"
                            r"registrant|authors?|team|office|bureau|board|council|commission)$", re.I)
WEAK_TERM = re.compile(r"^(?:the )?(?:term|label|word|score|value|symbol|variable|notation)\b", re.I)
TERM_STOP = {"a", "an", "the", "is", "are", "was", "were", "has", "have", "can", "will", "provides", "this", "that",
             "by", "of", "for", "to", "with", "from", "in", "on", "at"}
# Nouns for people: 'Sarah is a first-time reader of medical literature' describes a person (a persona
# or a participant), which no one would ask to have defined.
PERSON_NOUNS = {"reader", "user", "student", "researcher", "participant", "patient", "person", "woman", "man",
                "child", "teacher", "doctor", "nurse", "clinician", "physician", "engineer", "employee", "worker",
                "manager", "customer", "consumer", "owner", "developer", "analyst", "scientist", "author", "member",
                "professor", "parent", "resident", "citizen", "volunteer", "expert", "annotator", "novice",
                "beginner", "practitioner", "adult", "girl", "boy", "lawyer", "officer", "farmer", "mother",
                "father", "caregiver", "journalist", "designer", "writer", "learner", "graduate", "undergraduate"}
# 'Broadband is an engine for opportunity': a figure of speech about a thing, not what it is
METAPHOR = re.compile(r"(?:an?|the)\s+(?:[a-z\-]+\s+)?(?:engine|driver|cornerstone|backbone|foundation|pillar|catalyst|"
                      r"lifeline|linchpin|priority|necessity|gateway|lifeblood|bedrock)\s+(?:of|for)\b", re.I)
EVALUATIVE = re.compile(r"(?:an?|the)\s+(?:(?:very|most|particularly|especially)\s+)?(?:essential|important|key|critical|"
                        r"integral|crucial|vital|central|major|necessary|useful|good|great|powerful|popular|common|"
                        r"valuable|effective|significant|fundamental|excellent|ideal|simple|easy|best|better)\b", re.I)
ORGANIZATION = re.compile(r"(?:an?|the)\s+(?:[\w\-]+\s+){0,3}?(?:company|corporation|firm|organi[sz]ation|agency|"
                          r"department|business|enterprise|institution|employer|provider|manufacturer|retailer|"
                          r"bank|university|nonprofit|non-profit)(?=\s+(?:whose|that|which|who|with|in|of|for|committed|"
                          r"based|comprised|offering|providing|responsible|dedicated|serving|headquartered|located)\b"
                          r"|\s*[,.;]|\s*$)", re.I)  # the organisation is the head: not 'an onshore business platform'

PERSON_NAME = re.compile(r"^[A-Z][a-z]+$")
MAX_PART_WORDS = 6
MAX_DEFINITION_WORDS = 30


def statements(document: SourceDocument) -> list[Statement]:
    """Component lists and definitions of the document's running text, first of each subject."""
    out: list[Statement] = []
    seen: set[tuple[str, str]] = set()
    for page in document.pages:
        glossary = _glossary_page(page)
        repeated = _repeated_openings(page)
        for block in page.blocks:
            if block.kind != "text":
                continue
            for sentence in sentences(" ".join(block.text.split())):
                found = components_of(sentence) or definition_of(sentence, glossary)
                if found is None:
                    continue
                kind, subject, aspect, stated, count = found
                if (kind, subject.lower()) in seen or kind == "definition" and subject.lower() in repeated:
                    continue  # a label opening several entries ('Characteristics: ...' per row) defines nothing
                seen.add((kind, subject.lower()))
                if kind == "definition" and any(s.kind == kind and _aliases(s.subject, subject) for s in out):
                    continue  # 'AIME' and 'AI Management Essentials': one thing, asked once
                out.append(Statement(id=f"statement_{len(out) + 1:02d}", kind=kind, subject=subject, aspect=aspect,
                                     stated=stated, count=count, sentence=sentence, page=page.page))
    return out


def _names(term: str) -> set[str]:
    return {n.strip().lower() for n in re.split(r"\s+(?:or|and)\s+", term.strip())} if re.search(r"\s(?:or|and)\s", term) else set()


def _glossary_page(page) -> bool:
    """A page set as a glossary: several paragraphs open 'Term: what it is' ('AI impact assessment:
    a framework used to ...'). Only there is a colon read as 'is defined as'."""
    openings = [GLOSSARY_ENTRY.match(_bare(" ".join(b.text.split()))) for b in page.blocks if b.kind == "text"]
    return sum(1 for m in openings if m) >= MIN_GLOSSARY_ENTRIES


def _repeated_openings(page) -> set[str]:
    """Terms that open two or more paragraphs of a page as 'Term: ...': a table's row label printed
    in every row ('Characteristics: longer full name ...'), never a glossary's term."""
    openings = [GLOSSARY_ENTRY.match(_bare(" ".join(b.text.split()))) for b in page.blocks if b.kind == "text"]
    terms = [m.group("term").strip().lower() for m in openings if m]
    return {t for t in terms if terms.count(t) >= 2}


def _bare(sentence: str) -> str:
    """Without bracketed asides and with words broken at a line end joined."""
    return re.sub(r"(\w)- (\w)", r"\1\2", re.sub(r"\s*\([^()]*\)", "", sentence.strip()))


def _initials(name: str) -> str:
    """'AI Management Essentials' -> 'AIME' (a word in capitals gives all its letters)."""
    return "".join(w if w.isupper() else w[0] for w in re.findall(r"[A-Za-z][\w-]*", name)
                   if w.lower() not in {"of", "for", "and", "the", "in", "on", "to"}).upper()


def _aliases(a: str, b: str) -> bool:
    """One name is the other's abbreviation, or one of the names the other joins ('Robustness' and
    'Robustness or generalizability', defined once by the document)."""
    if a.strip().lower() in _names(b) or b.strip().lower() in _names(a):
        return True
    short, long = sorted((a.strip(), b.strip()), key=len)
    return " " not in short and short.isupper() and len(long.split()) > 1 and _initials(long) == short.upper()


def components_of(sentence: str) -> tuple[str, str, str, str, str] | None:
    """('components', whole, part noun, 'A, B, C', count) when the count printed equals the parts named."""
    match = COMPONENTS.match(sentence.strip())
    if not match:
        return None
    listed = re.split(r",\s*(?:which|that|who|where|each|both|all of which)\b", match.group("list"))[0]
    parts = [re.sub(r"^(?:(?:and|or)\s+)?(?:the\s+)?", "", p.strip(), flags=re.I).strip()
             for p in re.split(r",\s*|\s+and\s+|\s+or\s+", listed)]
    parts = [p for p in parts if p]
    count = match.group("count")
    expected = COUNT_WORDS.get(count.lower()) or int(count)
    if len(parts) != expected or any(len(p.split()) > MAX_PART_WORDS or not re.match(r"[\w“\"]", p) for p in parts):
        return None
    if NOT_A_TERM.match(match.group("whole").strip()) or match.group("whole").strip().lower() in PRONOUNS:
        return None  # 'It has three parts': the whole is named in another sentence
    whole = re.sub(r"^(?:An?|Its|Each)\s+", "the ", match.group("whole").strip())
    whole = whole[0].lower() + whole[1:] if whole.startswith("The ") else whole
    desc = match.group("desc").split()
    keep = len(desc) <= 3 and not {"and", "or", "key", "main", "major", "following"} & {w.lower() for w in desc}
    noun = " ".join([*desc, match.group("noun")]) if keep else match.group("noun")  # 'flight control computers
    return "components", whole, noun, ", ".join(parts), count


def definition_of(sentence: str, glossary: bool = False) -> tuple[str, str, str, str, str] | None:
    """('definition', term, 'definition', its first clause, '') for 'X refers to / is defined as / means Y'
    (and, on a glossary page, 'X: Y')."""
    text = _bare(sentence)
    match = DEFINITION.match(text)
    if not match and glossary and (entry := GLOSSARY_ENTRY.match(text)):
        if NOT_A_GLOSS.match(entry.group("definition")):
            return None  # 'Anonymity: in practice, ...', 'DPIA: see ICO guidance': a note, not what it is
        match = entry
    if not match:
        match = COPULAR.match(text)  # 'AIME is a resource that is designed to ...': a named thing said to be a kind
        match = match or APPOSITIVE.search(text)  # 'the Gedeone database, that is a collection of 500 recipes'
        if not match or not DEFINING_WORDS.search(match.group("definition").split(",")[0]) or re.search(
                r"[=<>+]", match.group("definition")) or match.group("term").islower() and " " not in match.group("term"):
            return None
        if _describes_a_person(match.group("term"), match.group("definition")):
            return None
        if ORGANIZATION.match(match.group("definition")):
            return None  # 'Microsoft is a technology company whose mission is ...': who it is, not a term
        if EVALUATIVE.match(match.group("definition")) or METAPHOR.match(match.group("definition")):
            return None  # 'DNS is an essential part of the solution infrastructure': a judgement, not what DNS is
    term = match.group("term").strip().strip("“”\"‘’'")
    term = re.sub(r"^The\s+(?=[A-Z][A-Z\d\-]+$)", "", term)  # 'The EM is ...': the term is 'EM'
    words = term.split()
    if (NOT_A_TERM.match(term) or len(words) > 5 or re.search(r"\d", term) or WEAK_TERM.match(term)
            or any(w.lower() in TERM_STOP for w in words[1:]) or term.startswith("The ") and words[1][:1].islower()):
        return None
    if SELF_REFERENCE.match(term) or re.match(r"[A-Z][a-z]+ing\b", term):
        return None  # 'The Company is an equal opportunity employer', 'Mitigating risks means ...': no term defined
    definition = match.group("definition")
    if re.search(r"\b(?:must|shall|should|will|can|may)\b", definition.split(",")[0]):
        return None  # '... means the PE and PA components must be configured': what is required, not what it is
    if re.match(r"that\b", definition):
        return None  # 'X means that the baseline scores higher': what a result says, not what a term is
    if re.match(r"^[^,]{0,60}?\bas\b", definition):
        return None  # 'The AI RMF refers to an AI system as ...' names how it uses a term, not what the term is
    clause = re.split(r"[;:]|,\s(?:and|but|including|such as|e\.g\.|whereas|while)\b|\s[—–]\s|(?<!\b[A-Z])\.\s",
                      definition)[0]  # not at an initial: '55,000 U.S. housing units'; ', which ...' says what it is
    if clause.count("“") != clause.count("”"):
        clause = clause.replace("“", "").replace("”", "")
    words = clause.strip().rstrip(".,").split()
    if len(words) < 3:
        return None
    if len(words) > MAX_DEFINITION_WORDS:
        return None  # a definition cut short is an incomplete gold: only one said in full is asked
    stated = " ".join(words)
    return "definition", term, "definition", stated, ""


def _describes_a_person(term: str, definition: str) -> bool:
    """'Sarah is a first-time reader of ...', 'Ana is a nurse who ...': a one-word name said to be a
    kind of person (the head of the first noun phrase, or any phrase with 'who')."""
    if not PERSON_NAME.match(term):
        return False
    phrase = re.split(r"\b(?:of|who|whom|that|which|with|in|at|for|from|on|to)\b|[,;:(]", definition)[0].split()
    while len(phrase) > 2 and phrase[-1].endswith(("ing", "ed")):
        phrase.pop()  # 'a software developer working (for ...)'
    head = phrase[-1].lower().rstrip(".") if phrase else ""
    return head in PERSON_NOUNS or head.rstrip("s") in PERSON_NOUNS or re.search(r"\bwho\b", definition) is not None

