"""Where a reference value occurs in an answer: as a quantity, a moment (date and time) or a whole name.

Each occurrence carries a status: 'equal', or the near miss it is ('wrong_unit', 'wrong_precision',
'superset' for a name that runs on into a longer one). The rules judge builds its verdicts on these.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from mmeb_assets.judge.answer_text import find_name, mask_moments, moments, name_tokens, normalize
from mmeb_assets.judge.quantities import Quantity, compare, quantities, same_kind

STATUS_RANK = {"equal": 0, "wrong_unit": 1, "wrong_precision": 2, "superset": 3}


@dataclass(frozen=True)
class Hit:
    start: int
    end: int
    status: str


def value_kind(value: str) -> str:
    """'moment' | 'quantity' | 'name' for a reference value string."""
    found = moments(value)
    if found and (found[0].month or found[0].hour is not None):
        return "moment"
    qs = quantities(mask_moments(value))
    if len(qs) == 1:
        rest = value[:qs[0].start] + value[qs[0].end:]
        if not re.search(r"[A-Za-z]{2,}", rest):
            return "quantity"
    return "name"


def reference_quantity(value: str) -> Quantity | None:
    qs = quantities(mask_moments(value))
    return qs[0] if qs else None


def reference_places(value: str, question_places: int | None) -> int:
    quantity = reference_quantity(value)
    return question_places if question_places is not None else (quantity.decimals if quantity else 0)


def find_value(value: str, candidate: str, places: int | None, absolute: bool = False) -> list[Hit]:
    """Occurrences of the reference value (and its near misses) in the candidate answer."""
    kind = value_kind(value)
    if kind == "moment":
        return _find_moment(value, candidate)
    if kind == "quantity":
        gold = reference_quantity(value)
        if gold is None:
            return []
        if absolute and gold.value < 0:
            gold = Quantity(-gold.value, gold.decimals, gold.unit, gold.kind, -gold.base, gold.start, gold.end)
        wanted = places if places is not None else gold.decimals
        hits = []
        for q in quantities(mask_moments(candidate)):
            if absolute and q.value < 0:
                q = Quantity(-q.value, q.decimals, q.unit, q.kind, -q.base, q.start, q.end)
            status = compare(gold, q, wanted)
            if status != "different":
                hits.append(Hit(q.start, q.end, status))
        return hits
    return [Hit(s, e, "superset" if extended else "equal") for s, e, extended in find_name(value, candidate)]


def _find_moment(value: str, candidate: str) -> list[Hit]:
    gold = moments(value)[0]
    hits = []
    for m in moments(candidate):
        same_day = gold.month is None or (m.month, m.day) == (gold.month, gold.day)
        same_time = gold.hour is None or (m.hour, m.minute) == (gold.hour, gold.minute)
        if same_day and same_time and (m.month is not None or gold.month is None):
            hits.append(Hit(m.start, m.end, "equal"))
        elif same_day and m.hour is None and gold.hour is not None:
            hits.append(Hit(m.start, m.end, "wrong_precision"))
    return hits


def best(hits: list[Hit]) -> str | None:
    return min((h.status for h in hits), key=STATUS_RANK.__getitem__) if hits else None


def equal_hits(hits: list[Hit]) -> list[Hit]:
    return [h for h in hits if h.status == "equal"]


def other_quantities(reference: str, candidate: str, known: list[str]) -> list[Hit]:
    """Quantities of the reference's kind in the candidate that are none of the known values
    (reference, competing values, numbers of the question and of the reference answer)."""
    gold = reference_quantity(reference)
    if gold is None:
        return []
    known_qs = [q for text in known for q in quantities(mask_moments(text))]
    out = []
    for q in quantities(mask_moments(candidate)):
        if not same_kind(gold, q) or (gold.kind and not q.kind and abs(q.value) < 1 <= abs(gold.value)):
            continue
        if any(abs(abs(k.value) - abs(q.value)) < 1e-9 or (k.kind and q.kind and abs(k.base - q.base) < 1e-9)
               for k in known_qs):
            continue
        out.append(Hit(q.start, q.end, "other"))
    return out


def partial_name(value: str, candidate: str) -> bool:
    """Some but not all words of a multi-word name appear (a look-alike or a part of the name)."""
    want = set(name_tokens(value))
    have = set(name_tokens(normalize(candidate)))
    return len(want) > 1 and bool(want & have)
