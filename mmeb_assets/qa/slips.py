"""Template slips in question text: doubled words, unfilled slots, wrong articles, 'value values' stutter.

A question is assembled from a template and the project's names (row labels, metrics, people). A slip
is what the template added, not what the seed printed: a doubled word that a label itself contains
("Walla Walla") is allowed when that label is passed in `names`.
"""
from __future__ import annotations

import re

from mmeb_assets.qa.phrasing import QUESTION_OPENERS, indefinite

DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)
STUTTER = re.compile(r"\b(\w{3,}?)\s+\1(s|es)\b", re.IGNORECASE)  # 'value values', 'result results'
SLOT = re.compile(r"\{[^{}]*\}|<[A-Z_]+>|\$\{|\bNone\b|\bnan\b|\[\]|\(\)|\s[,.;:?]|,,|\.\.(?!\.)")
MID_CAPITAL = re.compile(r", ([A-Z][a-z]+)\b")  # 'For the X project at Y, With the correction ...'
ARTICLE = re.compile(r"\b(a|an|A|An) ['\"‘“(]?([^\s'\"’”)]+)")


def _allowed(snippet: str, names: list[str]) -> bool:
    low = " ".join(snippet.lower().split())
    return any(low in " ".join(name.lower().split()) for name in names)


def template_slips(question: str, names: list[str] = ()) -> list[tuple[str, str]]:
    """(kind, snippet) for every slip found; empty when the question reads cleanly."""
    out = []
    for match in DOUBLED.finditer(question):
        if not _allowed(match.group(0), names):
            out.append(("doubled word", match.group(0)))
    for match in STUTTER.finditer(question):
        if not _allowed(match.group(0), names):
            out.append(("stutter", match.group(0)))
    for match in SLOT.finditer(question):
        if not _allowed(match.group(0), names):
            out.append(("unfilled slot", match.group(0)))
    for match in MID_CAPITAL.finditer(question):
        if match.group(1).lower() in QUESTION_OPENERS and not _allowed(match.group(0), names):
            out.append(("capitalized mid-sentence", match.group(0)))
    for match in ARTICLE.finditer(question):
        article, word = match.group(1).lower(), match.group(2)
        if not re.match(r"[\w.]", word) or _allowed(match.group(0), names):
            continue
        expected = indefinite(word).split()[0]
        if expected != article:
            out.append(("wrong article", match.group(0)))
    return out


def project_names(plan, org) -> list[str]:
    """The texts a question may quote as printed: labels, cells, headers, facts, people, documents."""
    names = [org.company_name, org.customer.name, org.customer.contact, org.project_codename, org.product,
             org.internal_model_name] + [p.name for p in org.people]
    for item in plan.items:
        names += [item.label, item.dataset or ""] + list(item.values) + list(item.values.values())
    names += [f.subject for f in plan.evolving_facts] + [v.value for f in plan.evolving_facts for v in f.versions]
    names += [f.name for f in plan.invented] + [d.title for d in plan.documents]
    return [n for n in names if n]
