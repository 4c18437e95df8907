"""How question templates name things: metric names, row labels, sources, articles.

Table headers and row labels arrive as the seed printed them ('Visual tokens', 'nDCG@10', 'LLaVA-1.5',
'Drayage trucks over time'). Pasted into a sentence as they are, they give "What Visual tokens was
recorded for ...". These helpers put a header into running text (sentence-case words lowered,
acronyms and symbols kept), choose 'a' / 'an' by sound, and leave names (acronyms, codes, model
ids) without an article.
"""
from __future__ import annotations

import re

ACRONYM_AN = set("AEFHILMNORSX")  # letter names that start with a vowel sound: an F1, an MRR, an SLA
A_PREFIXES = ("uni", "use", "usu", "uti", "ure", "uro", "eu", "one", "once", "ubi")
AN_PREFIXES = ("hour", "honest", "honor", "honour", "heir")
SOURCE_NAMES = {"slack": "a Slack message", "email": "an e-mail", "notion": "a Notion page",
                "meeting": "the meeting notes", "txt": "a text file", "log": "a run log",
                "pdf_page": "a report page", "slide": "a slide", "image": "an image"}
ARTICLES = ("the ", "a ", "an ")
SPOKEN = re.compile(r"^(?:I|I/we|we|We|you|You|they|They|my|My|our|Our|ours|Ours|this|This|these|These|yes|Yes|no|No)\b(?![-.])")


def _is_acronym(word: str) -> bool:
    letters = [c for c in word if c.isalpha()]
    return bool(letters) and (sum(c.isupper() for c in letters) >= 2 or
                              (len(letters) == 1 and letters[0].isupper() and any(c.isdigit() for c in word)))


def _plain_capitalized(word: str) -> bool:
    """'Visual', 'Élan', 'Top-1': a first word capitalized only because it opens a header."""
    head = re.match(r"[^\W\d_]+", word)
    if not head or "@" in word:
        return False
    letters = head.group(0)
    rest = word[len(letters):]
    return len(letters) > 1 and letters[0].isupper() and letters[1:].islower() and not re.search(r"[A-Z]", rest)


SMALL_WORDS = {"of", "in", "on", "for", "and", "the", "a", "an", "to", "per", "vs", "with", "at", "by", "or"}


def _title_case(rest: str) -> bool:
    """The header's next content word is capitalized as a plain word ('Sents', '→Target', 'Questions'),
    not as a name ('SQuAD', 'BERT'): the header is printed in title case."""
    for word in rest.split():
        if word.lower() in SMALL_WORDS:
            continue
        bare = re.sub(r"[^\w]", "", word)
        letters = re.sub(r"[\d_]", "", bare)
        return bool(letters) and letters[0].isupper() and not _is_acronym(bare)
    return False


def metric(col: str) -> str:
    """A column header as it reads mid-sentence: 'Visual tokens' -> 'visual tokens', 'MRR' stays, and a
    header in title case ('Source Sents', 'Source →Target Coverage') stays as printed."""
    text = " ".join(col.split())
    first, sep, rest = text.partition(" ")
    title_case = _title_case(rest)
    if _plain_capitalized(first) and not _is_acronym(first) and len(first[0].lower()) == 1 and not title_case:
        first = first[0].lower() + first[1:]  # 'İ' lowers to two code points: such a word stays as printed
    return first + sep + rest


def is_name(label: str) -> bool:
    """A label that names something (an acronym, a code, a model id) and takes no article."""
    words = label.split()
    return bool(words) and len(words) <= 3 and any(_is_acronym(w) or re.search(r"\d", w) for w in words[:1])


def strip_series(label: str) -> str:
    return re.sub(r"\s+over time$", "", label.strip(), flags=re.IGNORECASE)


def the(label: str) -> str:
    """'the dense baseline', 'SPECTER', 'the Drayage trucks' (an existing article is lowered, not doubled)."""
    label = " ".join(strip_series(label).split())
    low = label.lower()
    for article in ARTICLES:
        if low.startswith(article):
            return article + label[len(article):]
    if label[:1] in "+-–" or low.startswith(("w/o ", "w/ ", "without ", "with ")):
        return f"the '{label}' variant"   # an ablation row: '+ author', 'w/o reranker'
    if SPOKEN.match(label):
        return f"the '{label}' row"   # a survey answer ('I/we kept the assets') is quoted, not a noun
    return label if is_name(label) else f"the {label}"


def indefinite(phrase: str) -> str:
    """'a' or 'an' before a phrase, by how its first word sounds: 'an MRR', 'a unit', 'an 8-bit'."""
    phrase = phrase.strip()
    word = phrase.split()[0] if phrase.split() else ""
    if not word:
        return phrase
    low = word.lower()
    if word[0].isdigit():
        digits = re.match(r"[\d,]+", low).group(0).replace(",", "")
        an = digits.startswith("8") or (digits[:2] in ("11", "18") and len(digits) % 3 == 2)
    elif _is_acronym(word) or (word.isupper() and len(word) <= 4):
        an = word[0].upper() in ACRONYM_AN
    elif low.startswith(AN_PREFIXES):
        an = True
    elif low.startswith(A_PREFIXES):
        an = False
    else:
        an = low[0] in "aeiouàáâäåæèéêëìíîïòóôöøùúûü"
    return f"{'an' if an else 'a'} {phrase}"


def source_name(source: str, definite: bool = False) -> str:
    """How a question names a record by its source: 'a Notion page', 'an e-mail' ('the e-mail' when definite)."""
    name = SOURCE_NAMES.get(source, indefinite(f"{source.replace('_', ' ')} record"))
    return re.sub(r"^(a|an) ", "the ", name) if definite else name


def plural_values(metric_name: str) -> str:
    """'nDCG@10 values', but 'value' / 'second value' / 'values' -> 'values' (no 'value values')."""
    words = metric_name.split()
    if words and words[-1].lower() in ("value", "values"):
        return "values"
    return f"{metric_name} values"


def sentence(text: str) -> str:
    """One space between words and a capital first letter."""
    text = " ".join(text.split())
    return text[:1].upper() + text[1:] if text else text


QUESTION_OPENERS = {"what", "which", "who", "whom", "whose", "when", "where", "why", "how", "in", "on", "at",
                    "did", "do", "does", "is", "was", "were", "are", "has", "had", "have", "among", "after",
                    "before", "by", "list", "as", "according", "a", "an", "the", "between", "from", "name",
                    "give", "can", "could", "should", "since", "until", "during", "for", "if", "of", "with",
                    "once", "given", "assuming", "ignoring", "excluding", "including", "using", "under", "across",
                    "looking", "counting", "taking", "going", "based", "comparing", "considering"}


def scope_to_project(q: str, codename: str, company: str) -> str:
    """The question asked of one project in a workspace that holds every project.

    The retrieval corpus is shared, so "What value was recorded for the Graduation rate in 2023?" asks
    about every project that has a graduation rate. A question that does not already name the
    project's company is opened with "For the <codename> project at <company>, ..."; its first word
    is lowered when it is an ordinary opening word (What, In, List ...), names and acronyms keep
    their case."""
    if not q or company in q:
        return q
    first, _, rest = q.partition(" ")
    ordinary = len(first) == 1 or first[1:2].islower()  # 'A message ...' as well as 'What ...'
    if first.lower().strip(",:") in QUESTION_OPENERS and first[:1].isupper() and ordinary:
        first = first[:1].lower() + first[1:]
    return f"For the {codename} project at {company}, {first} {rest}".rstrip()
