"""The document's own abbreviations, for naming table heads and rows a reader can follow.

Why: papers print short heads ('H&S', 'M&T', 'Sents', 'S1') and explain them once, elsewhere: in the
caption, a note under the table ('H&S = Heilman and Smith'), or the sentence that first uses them
('the system of Heilman and Smith (H&S)'). A question that asks for 'the H&S of Test Data' names
nothing a reader of that one table can follow; 'H&S (Heilman and Smith)' does. Only the document's
own words are used: an expansion is kept when its initials spell the abbreviation, or when a note
or caption defines it outright ('S1: story endings written by crowd workers'), and an abbreviation
expanded two different ways is left unexpanded.
"""
from __future__ import annotations

import re
from collections import Counter

from mmeb_assets.facts.acronyms import expansion_of
from mmeb_assets.ingestion.numbers import sentences
from mmeb_assets.schema.source import SourceDocument, Table

INTRODUCED = re.compile(r"\(([A-Z][A-Za-z&]{0,9}?\d?)(s?)\)")
# 'H&S = Heilman and Smith', 'S1: stories written ...', 'Sents - sentences', 'Synth.: number of synthetic
# problems ...' (a clipped head spelt out) in notes and captions
DEFINED = re.compile(r"(?:^|[;.,(]\s*|\s)([A-Z][A-Za-z&]{0,7}\d?\.?|[A-Z]{1,3}\d{1,2})\s*(?:=|:|–|—|\bstands for\b|"
                     r"\bdenotes\b|\brefers to\b|\bis\b)\s+([A-Za-z][^;=:.()]{2,90}?)"
                     r"(?=\s*(?:[;.)]|,\s*[A-Z][A-Za-z&]{0,7}\d?(?:\s*[=:]|\.\s)|$))")
HYPHENATED = re.compile(r"(?<=[a-z])- (?=[a-z])")  # 'Recom- mendation': a word broken at a line end
# 'Heilman and Smith (H&S)', 'story endings (Ends)': a name before an abbreviation in brackets
ABBREVIATED = re.compile(r"^(?=.*[A-Z&\d])[A-Za-z&\d.\-]{1,8}$")
MAX_DEFINED_WORDS = 10  # 'number of synthetic problems generated per unsolved target statement'
CONTRACTED = {"avg": "average", "std": "standard", "pct": "percent", "tot": "total", "cum": "cumulative"}
NOT_ABBREVIATIONS = {"Table", "Figure", "Note", "Notes", "Source", "Sources", "Fig", "Eq", "The", "A", "I", "We"}


def _introductions(text: str) -> list[tuple[str, str]]:
    out = []
    for sentence in sentences(" ".join(text.split())):
        for match in INTRODUCED.finditer(sentence):
            abbreviation = match.group(1)
            expansion = expansion_of(sentence[:match.start()], abbreviation.replace("&", ""))
            if expansion:
                out.append((abbreviation, expansion))
    return out


def _definitions(text: str) -> list[tuple[str, str]]:
    """'X = words' / 'X: words' in a note or caption, kept when the words do not merely restate a
    number ('N = 120') and X is no common word."""
    out = []
    for match in DEFINED.finditer(HYPHENATED.sub("", " ".join(text.split()))):
        abbreviation, words = match.group(1), match.group(2).strip(" ,")
        if abbreviation in NOT_ABBREVIATIONS or not re.search(r"[a-z]{3,}", words) or re.search(r"\d", words):
            continue
        if len(words.split()) > MAX_DEFINED_WORDS or re.search(r"\b(?:is|are|was|were)\b|[^\x00-\x7f’–—]", words):
            continue  # 'XZ: the selected candidate and Ŷ is the output': a sentence about symbols, not a name
        out.append((abbreviation, words))
    return out


def _note_texts(document: SourceDocument) -> list[str]:
    """Captions, and short text blocks that read as notes ('Note:', 'H&S = ...')."""
    texts = [t.caption for t in document.tables] + [f.caption for f in document.figures]
    for page in document.pages:
        for block in page.blocks:
            flat = " ".join(block.text.split())
            if block.kind == "caption" or re.match(r"^(?:notes?|abbreviations?|key|legend)\b", flat, re.I):
                texts.append(flat)
    return texts


def document_glossary(document: SourceDocument) -> dict[str, str]:
    """Abbreviation -> its one expansion in the document's own words."""
    meanings: dict[str, dict[str, str]] = {}
    pairs = [pair for page in document.pages for pair in _introductions(page.text)]
    for text in _note_texts(document):
        pairs += _introductions(text) + _definitions(text)
    for abbreviation, expansion in pairs:
        meanings.setdefault(abbreviation, {}).setdefault(expansion.lower().strip(), expansion.strip())
    return {a: next(iter(m.values())) for a, m in meanings.items() if len(m) == 1}


def document_words(document: SourceDocument) -> Counter:
    """How often each lower-case word of the document's text occurs, and each pair of words ('external
    resources'), for clipped heads."""
    words = Counter(w if re.search(r"[-\d]", w) else w.lower() for page in document.pages
                    for w in re.findall(r"[A-Za-z]{4,}(?:-[A-Za-z\d]+)?|[A-Za-z]+-\d+", page.text))
    for page in document.pages:
        plain = re.findall(r"[A-Za-z]+", page.text.lower())
        words.update(f"{a} {b}" for a, b in zip(plain, plain[1:]) if len(a) >= 4)
    return words


def clipped_word(token: str, words: Counter, following: str = "") -> str:
    """The document's word a clipped head stands for: 'Recomm.' -> 'recommendation', 'Avg.' ->
    'average', when the document prints one word with that stem far more often than any other; a
    clipped word before another ('Ext. Resources') only where the text prints the two together
    ('external resources'): 'Cont. Conversation' is left as printed when the text never spells it."""
    word = _clipped(token, words)
    if word and following and re.fullmatch(r"[A-Za-z]+", following) and " " not in word \
            and not words.get(f"{word.lower()} {following.lower()}", 0) and not token.startswith(("Avg", "avg")):
        return ""
    return word


def _clipped(token: str, words: Counter) -> str:
    if short := re.fullmatch(r"([A-Za-z]{1,2})(-\w+)", token):  # 'R-1' where the text says 'ROUGE-1'
        found = sorted((n, w) for w, n in words.items() if len(w) > len(token) + 1 and w.endswith(short.group(2))
                       and w.lower().startswith(short.group(1).lower()) and w[:len(short.group(1))].isupper())
        return found[-1][1] if found and len({w.lower() for _, w in found}) == 1 else ""
    stem = token.rstrip(".").lower()
    if not token.endswith(".") or not re.fullmatch(r"[a-z]{3,}", stem):
        return ""
    if stem in CONTRACTED and words.get(CONTRACTED[stem], 0):
        return CONTRACTED[stem]  # 'Avg.' is no prefix of 'average'; the document still says 'average'
    found = sorted(((n, w) for w, n in words.items() if w.startswith(stem) and len(w) > len(stem) + 1
                    and " " not in w), reverse=True)
    if not found or found[0][0] < 2 or len(found) > 1 and found[1][0] * 2 > found[0][0]:
        return ""
    return found[0][1]


def with_glossary(tables: list[Table], glossary: dict[str, str], words: Counter | None = None) -> list[Table]:
    """Each table with the expansions of the abbreviations and clipped words its heads and row
    labels print."""
    out = []
    for table in tables:
        parts = [re.findall(r"[A-Za-z&\d.\-]+", part) for p in [*table.column_paths, *table.row_paths,
                                                                  [table.caption]] for part in p]
        printed = {w for tokens in parts for w in tokens}
        used = {a: e for a, e in glossary.items() if a in printed and a.lower() != e.lower()}
        for tokens in parts:
            for k, token in enumerate(tokens):
                following = tokens[k + 1] if k + 1 < len(tokens) else ""
                if token not in used and (word := clipped_word(token, words or Counter(), following)):
                    used[token] = word
        out.append(table.model_copy(update={"glossary": used}) if used else table)
    return out


def expanded(label: str, glossary: dict[str, str]) -> str:
    """A head or row label with the document's expansion after it: 'H&S' -> 'H&S (Heilman and
    Smith)'; a longer label gains the expansion of one abbreviated word ('S1 F' -> 'S1 (first
    story) F')."""
    if not glossary or not label.strip():
        return label
    tokens = label.strip().split()
    for k, token in enumerate(tokens):
        meaning = glossary.get(token, "")
        if not meaning and glossary.get(f"{token}."):  # 'Synth' read from the head 'Synth.'
            token, meaning = f"{token}.", glossary[f"{token}."]
        if meaning and (token.endswith(".") and re.fullmatch(r"[a-z]+(?: [a-z\-]+)*", meaning)
                        or token.endswith(".") and re.fullmatch(r"[a-z]+", meaning.lower())
                        or re.fullmatch(r"[A-Za-z]{1,2}-\w+", token) and meaning.endswith(token.split("-", 1)[1])):
            tokens[k] = meaning if k else meaning[:1].upper() + meaning[1:]  # 'Recomm.' -> 'Recommendation'
        elif meaning and (len(tokens) == 1 or ABBREVIATED.match(token)) and token not in NOT_ABBREVIATIONS:
            tokens[k] = f"{token} ({meaning})"
            return " ".join(tokens)
    return " ".join(tokens)
