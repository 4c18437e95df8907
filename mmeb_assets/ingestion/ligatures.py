"""Ligatures a font's text layer gets wrong: the 'fi' glyph of some CID fonts maps to a lone 'i'
('Paciic Islander', 'age-speciic death rates', 'conidence interval').

Why: every later stage quotes the document's words, and a question asking about the 'Asian/Paciic
Islander' rate names nothing a reader can find. The glyph keeps the ligature's width, twice an 'i'
of its font and is another glyph than the font's 'i', so a word is repaired where an 'i' is drawn
with another glyph and is as wide as 'f' and 'i' together; the words so found are then written
right wherever the document's text is read (`normalize_text`).
"""
from __future__ import annotations

import re
import statistics

import pymupdf

LIGATURE_OF = {"i", "l"}  # the letters 'fi' / 'fl' ('ffi' / 'ffl') glyphs are misread as
TOLERANCE = 0.2  # of the width the ligature's letters take printed apart


def _glyph_stats(spans: list[dict]) -> dict[tuple, tuple[int, float]]:
    """Per (font, letter): the glyph most chars of that letter are drawn with, and its median width
    per point of type size (a word in small capitals draws every letter with another glyph)."""
    seen: dict[tuple, dict[int, list[float]]] = {}
    for span in spans:
        for unicode, gid, _origin, bbox in span["chars"]:
            if chr(unicode).isalpha() and gid >= 0:
                seen.setdefault((span["font"], chr(unicode)), {}).setdefault(gid, []).append((bbox[2] - bbox[0]) / span["size"])
    stats = {}
    for key, by_gid in seen.items():
        gid, widths = max(by_gid.items(), key=lambda item: len(item[1]))
        stats[key] = (gid, statistics.median(widths))
    return stats


def _as_ligature(span: dict, unicode: int, gid: int, width: float, stats: dict) -> str:
    """'fi' / 'ffi' (or 'fl' / 'ffl') where a letter is drawn with another glyph than its font's
    usual one and as wide as the letters the ligature stands for; else the letter."""
    letter = chr(unicode)
    usual, f = stats.get((span["font"], letter)), stats.get((span["font"], "f"))
    if letter not in LIGATURE_OF or usual is None or f is None or gid < 0 or gid == usual[0]:
        return letter
    per_point = width / span["size"]
    for prefix in ("f", "ff"):
        expected = len(prefix) * f[1] + usual[1]
        if abs(per_point - expected) <= TOLERANCE * expected:
            return prefix + letter
    return letter


def _page_runs(page: pymupdf.Page) -> tuple[dict[str, str], set[str]]:
    """(letter runs drawn with a ligature glyph -> their repair, letter runs drawn plainly)."""
    spans = [s for s in page.get_texttrace() if abs(s["dir"][1]) < 1e-3 and s["size"] > 0]  # not turned text
    stats = _glyph_stats(spans)
    repairs: dict[str, str] = {}
    plain: set[str] = set()
    for span in spans:
        word, fixed = [], []
        for unicode, gid, _origin, bbox in [*span["chars"], (32, -1, None, (0, 0, 0, 0))]:
            if not chr(unicode).isalpha():  # a run of letters: 'Paciic' in 'Asian/Paciic'
                if word != fixed:
                    repairs["".join(word)] = "".join(fixed)
                elif word:
                    plain.add("".join(word))
                word, fixed = [], []
                continue
            word.append(chr(unicode))
            usual = stats.get((span["font"], chr(unicode)))
            ligature = _as_ligature(span, unicode, gid, bbox[2] - bbox[0], stats)
            fixed.append(ligature if ligature != chr(unicode) or usual is None or usual[0] == gid else "\0")
    return {bad: good for bad, good in repairs.items() if "\0" not in good}, plain  # letters beside it drawn as usual


def ligature_repairs(doc: pymupdf.Document) -> dict[str, str]:
    """Misread words of the document and their repair, from pages set in CID (Identity-H) fonts; a
    misread form the document also prints as a word of its own ('low' beside 'low' misread from
    'flow') is left, since a whole-word repair would change that word too."""
    repairs: dict[str, str] = {}
    plain: set[str] = set()
    for page in doc:
        if any(font[2] == "Type0" for font in page.get_fonts()):
            found, printed = _page_runs(page)
            repairs.update(found)
            plain |= printed
    return {bad: good for bad, good in repairs.items() if bad not in plain}


class Repairs:
    """The open document's misread words; `normalize_text` writes them right in every text it reads."""

    def __init__(self) -> None:
        self.words: dict[str, str] = {}
        self.pattern: re.Pattern | None = None

    def use(self, words: dict[str, str]) -> None:
        self.words = dict(words)
        self.pattern = re.compile("|".join(rf"(?<!\w){re.escape(bad)}(?!\w)" for bad in sorted(words, key=len, reverse=True))) \
            if words else None

    def apply(self, text: str) -> str:
        return self.pattern.sub(lambda m: self.words[m.group(0)], text) if self.pattern else text


ACTIVE = Repairs()
