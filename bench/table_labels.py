"""The labelled table set (`bench/data/tables_labelled/*.yaml`) and the comparisons `bench_tables.py` makes.

Definitions (both sides of every comparison get the same treatment):

- value: the printed string with whitespace removed, thousands commas dropped ('1,512' = '1512') and the
  Unicode minus read as '-'; no other numeric equivalence ('(45)' is not '-45', '80.0' is not '80').
- path element: lower case, whitespace collapsed, a hyphen before a line break joined ('accu- racy' =
  'accuracy') and other hyphens dropped, punctuation and note marks stripped at the ends; empty elements
  dropped. A column element's trailing bracketed unit ('Accuracy (%)', 'Cost [in $ millions]') is removed,
  since the unit is scored on its own.
- unit: the multiset of its tokens, lower case, 'in' and 'of' dropped, '%' = 'percent' = 'per cent' =
  'percentage', 'usd' = '$' = 'dollars' = 'us dollars', plural scale words singular; so '$ millions' =
  'millions of dollars' = 'USD million'.
- content word: a word of 3+ letters or digits that is not a stopword.
"""
from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "bench" / "data" / "tables_labelled"
SEEDS = ROOT.parent / "shared" / "seeds"
CORPUS = Path(os.environ.get("MMEB_TABLE_CORPUS") or ROOT.parent / "corpus")
ICDAR = ROOT.parent / "shared" / "icdar2013"
ICDAR_DIRS = (ICDAR / "competition-dataset-eu", ICDAR / "competition-dataset-us")  # eu-001.pdf, us-020.pdf

UNIT_ALIASES = {"percent": "%", "percentage": "%", "percentages": "%", "hundreds": "hundred", "pct": "%", "$": "usd", "dollars": "usd", "dollar": "usd",
                "thousands": "thousand", "millions": "million", "billions": "billion", "trillions": "trillion",
                "€": "eur", "euro": "eur", "euros": "eur", "£": "gbp", "pounds": "gbp"}
UNIT_WORDS = {"%", "usd", "eur", "gbp", "thousand", "million", "billion", "trillion", "ms", "s", "sec", "secs",
              "seconds", "min", "minutes", "h", "hrs", "hours", "days", "weeks", "months", "years", "kg", "g", "mg",
              "t", "tons", "tonnes", "kb", "mb", "gb", "tb", "km", "m", "cm", "mm", "kwh", "mwh", "gwh", "kw", "mw",
              "x", "pp", "points", "pts", "ha", "acres", "lb", "lbs", "ml", "l", "bn", "k"}
STOPWORDS = {"the", "and", "for", "with", "from", "that", "this", "are", "was", "were", "our", "its", "all", "per",
             "not", "but", "has", "have", "into", "than", "each", "any", "both", "only", "also", "which", "what",
             "when", "where", "who", "how", "between", "over", "under", "after", "before", "more", "most", "less",
             "other", "such", "via", "using", "used", "vs", "versus", "total"}
END_PUNCT = " .,:;!?*'\"`_~^†‡§¶•"
BRACKETED = re.compile(r"\s*[(\[]([^()\[\]]*)[)\]]\s*$")


def norm_value(value: str) -> str:
    text = re.sub(r"\s+", "", str(value)).replace("\u2212", "-")
    return re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)


def bare_value(value: str) -> str:
    """The value without a leading currency sign or trailing '%' (a second-choice match only)."""
    return norm_value(value).lstrip("$€£").rstrip("%")


def unit_tokens(text: str) -> list[str]:
    s = str(text or "").lower()
    s = re.sub(r"\bper\s+cent\b", "percent", s)
    s = re.sub(r"\bu\.?s\.?\s*\$", "$", s)
    s = re.sub(r"\bu\.?s\.?\s+dollars?\b", "dollars", s)
    for sign in "$%€£":
        s = s.replace(sign, f" {sign} ")
    tokens = [UNIT_ALIASES.get(t, t) for t in (w.strip(".") for w in re.split(r"[\s(),;:\[\]]+", s))]
    return sorted(t for t in tokens if t and t not in ("in", "of", "measured", "expressed"))


def same_unit(a: str, b: str) -> bool:
    return Counter(unit_tokens(a)) == Counter(unit_tokens(b))


def unit_like(text: str) -> bool:
    text = text.strip().lower()
    tokens = unit_tokens(text)
    return bool(tokens) and (text.startswith(("in ", "per ")) or any(s in text for s in "%$€£")
                             or all(t in UNIT_WORDS for t in tokens))


def norm_element(text: str, column: bool = False) -> str:
    s = re.sub(r"\s+", " ", str(text or "")).strip()
    if column:
        match = BRACKETED.search(s)
        if match and match.start() > 0 and unit_like(match.group(1)):
            s = s[:match.start()]
    s = re.sub(r"(\w)[-\u00ad]\s+(\w)", r"\1\2", s.lower()).replace("-", "").replace("\u00ad", "")
    return re.sub(r"\s+", " ", s).strip(END_PUNCT)


def norm_path(path, column: bool = False) -> list[str]:
    return [e for e in (norm_element(x, column) for x in path or []) if e]


def content_words(text: str) -> set[str]:
    s = re.sub(r"(\w)[-\u00ad]\s+(\w)", r"\1\2", str(text or "").lower())
    return {w for w in re.findall(r"[a-z0-9]+", s) if len(w) >= 3 and w not in STOPWORDS}


def header_words(text: str) -> set[str]:
    """Content words of a column header without its bracketed unit suffix."""
    if unit_like(text or ""):
        return set()  # a leaf that is only a unit ('Percent') is named by the fact's unit
    match = BRACKETED.search(text or "")
    if match and match.start() > 0 and unit_like(match.group(1)):
        text = text[:match.start()]
    return content_words(text)


def caption_words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", str(text or "").lower())


def caption_starts_like(label_caption: str, parsed_caption: str, n: int = 6) -> bool:
    want = caption_words(label_caption)[:n]
    return bool(want) and caption_words(parsed_caption)[:len(want)] == want


def load_labels(folder: Path = LABELS) -> list[dict]:
    """One dict per YAML file, with its `file` name added; tables default their optional fields."""
    files = []
    for path in sorted(folder.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        data["file"] = path.name
        for table in data.get("tables") or []:
            table.setdefault("features", [])
            table.setdefault("cells", [])
            table.setdefault("unit", "")
        files.append(data)
    return files


def find_pdf(name: str, folders) -> Path | None:
    """The PDF `name` in the first of `folders` that has it, else in the ICDAR 2013 folders (read in place)."""
    for folder in (*folders, *ICDAR_DIRS):
        path = Path(folder) / name
        if path.is_file():
            return path
    return None


def match_tables(label: dict, tables: list) -> list:
    """Parsed tables for a labelled one: the same printed number (every part; those on the labelled page, or
    a page one of its cells is labelled on, if any), else those on the labelled page whose caption starts like the labelled caption."""
    number = label.get("number")
    if number is not None:
        same = [t for t in tables if t.number == number]
        pages = {label.get("page")} | {c.get("page") for c in label.get("cells") or [] if c.get("page")}  # split_pages
        on_page = [t for t in same if t.page in pages]
        if on_page or same:
            return on_page or same
    return [t for t in tables if t.page == label.get("page") and caption_starts_like(label.get("caption", ""), t.caption)]
