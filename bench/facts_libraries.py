"""Maintained libraries against the rules, on the labelled facts (`bench_facts.py --libraries`).

- quantulum3 as the whole extractor: every quantity it finds in prose, measure = its unit's name.
- units and scales of the labelled prose facts the rules extract: the rules' unit vs quantulum3's
  (the quantity whose span holds the value), pint's parse of the unit words, and price-parser's
  currency on money facts.
"""
from __future__ import annotations

import re

from mmeb_assets.ingestion.numbers import sentences
from mmeb_assets.schema.source import Fact, SourceDocument

QUANTULUM_UNITS = {"percentage": "%", "dollar": "USD", "euro": "EUR", "pound sterling": "GBP", "day": "days",
                   "year": "years", "hour": "hours", "month": "months", "week": "weeks", "minute": "minutes",
                   "second": "seconds", "dimensionless": "count", "square foot": "square feet"}


def _parser():
    """quantulum3's parser without its pickled classifier (the shipped pickle does not load with the
    installed scikit-learn); ambiguous units are then resolved by its own no-classifier rules."""
    from quantulum3 import classifier, parser
    classifier.USE_CLF = False
    return parser


def quantulum_facts(document: SourceDocument) -> list[Fact]:
    parser = _parser()

    facts = []
    for page in document.pages:
        for block in page.blocks:
            if block.kind != "text":
                continue
            for sentence in sentences(block.text):
                for quantity in parser.parse(sentence):
                    value = re.search(r"[\d][\d,]*(?:\.\d+)?", quantity.surface)
                    if value:
                        facts.append(Fact(measure=quantity.unit.entity.name if quantity.unit.entity else quantity.unit.name,
                                          value=value.group(), unit=quantity.unit.name, subject="",
                                          page=page.page, source=sentence))
    return facts


def normalise(unit: str) -> str:
    unit = unit.lower().replace("usd million", "usd").replace("usd billion", "usd")
    return {"percent": "%", "count": "", "dimensionless": ""}.get(unit, unit)


def unit_agreement(matched: list[tuple[dict, Fact]]) -> dict[str, tuple[int, int]]:
    """(agree, total) per method on labelled prose facts with a unit, compared on normalised units."""
    import pint
    from price_parser import Price

    parser = _parser()
    registry = pint.UnitRegistry()
    out = {"rules": [0, 0], "quantulum3": [0, 0], "pint (unit words after the value)": [0, 0],
           "price-parser (money facts)": [0, 0]}
    for label, fact in matched:
        want = normalise(label.get("unit", ""))
        if fact.table_id or not want:
            continue
        out["rules"][0] += normalise(fact.unit) == want
        out["rules"][1] += 1
        position = fact.source.find(fact.value)
        found = [q for q in parser.parse(fact.source) if q.span[0] <= position < q.span[1] + 1]
        unit = QUANTULUM_UNITS.get(found[0].unit.name, found[0].unit.name) if found else ""
        out["quantulum3"][0] += normalise(unit) == want
        out["quantulum3"][1] += 1
        words = fact.source[position + len(fact.value):].split()[:1]
        try:
            parsed = str(registry.parse_units(words[0].strip(".,;"))) if words else ""
        except Exception:  # pint refuses most words: that is its answer
            parsed = ""
        parsed = {"percent": "%", "day": "days", "year": "years", "hour": "hours"}.get(parsed, parsed)
        out["pint (unit words after the value)"][0] += normalise(parsed) == want
        out["pint (unit words after the value)"][1] += 1
        if want.startswith("usd") or label.get("unit", "").startswith("USD"):
            price = Price.fromstring(fact.source[max(0, position - 2):position + len(fact.value) + 10])
            out["price-parser (money facts)"][0] += price.currency == "$" and price.amount is not None
            out["price-parser (money facts)"][1] += 1
    return {k: (a, b) for k, (a, b) in out.items()}
