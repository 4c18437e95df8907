"""The strict rules judge: one verdict and one reason code per (question, answer).

Rules (each general, read from what the question record holds):
- unanswerable items: an abstention is right, a concrete value (or no abstention) is `answered_unanswerable`;
  answerable items: an abstention is `false_abstention`.
- names match whole (`entity_mismatch` for a part, a look-alike or a longer name);
- numbers at the question's stated precision, else the reference's (`wrong_precision`); units and
  scales converted with pint (`wrong_unit` for MB given for GB);
- the reference's competing versions (derivation.competing_values) given as the answer: `superseded_value`;
- two values offered as alternatives: `hedge`;
- yes/no items need the reference's verdict (`wrong_verdict`); choices and signed changes the right
  direction (`wrong_direction`), and the margin when the question asks 'by how much' (`wrong_margin`);
- several components: every one (`missing_component`) and no false one (`extra_component`); sequences
  in order (`wrong_order`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from mmeb_assets.judge import answer_text as at
from mmeb_assets.judge import value_match as vm
from mmeb_assets.judge.documents import judge_documents
from mmeb_assets.judge.number_words import words_to_digits
from mmeb_assets.judge.quantities import quantities, unit_kind
from mmeb_assets.judge.roles import role_swap
from mmeb_assets.schema.qa import QAItem

WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "zero": 0}
OPTIONS = re.compile(r"[:,]\s*(?:the\s+)?(?P<a>[^:,?]+?)\s+or\s+(?:the\s+)?(?P<b>[^:,?]+?)\s*(?:,[^?]*)?\?\s*$", re.I)
SEQUENCE_KINDS = {"version_sequence"}
CURRENT_KINDS = {"version_latest", "corrected_value", "stale_sources", ""}  # asks for the value now in force
CHOICE_KINDS = {"rank", "rank_low", "budget_choice"}


@dataclass(frozen=True)
class Verdict:
    correct: bool
    reason: str
    ok: bool = True  # False: the LLM judge gave no usable verdict (the rules verdict decides)
    code: str = ""   # the reason code (correct_exact, wrong_unit, hedge, ...)


def verdict(code: str, detail: str) -> Verdict:
    return Verdict(code.startswith("correct"), f"{code}: {detail}"[:300], code=code)


def question_precision(question: str) -> int | None:
    q = question.lower()
    stated = re.search(r"\b(\d|one|two|three|four)\s+decimal", q)
    if stated:
        word = stated.group(1)
        return int(word) if word.isdigit() else WORD_NUMBERS[word]
    if re.search(r"nearest (?:whole|integer)|whole number|nearest percent(?:age point)?\b", q):
        return 0
    if "nearest tenth" in q:
        return 1
    if "nearest hundredth" in q:
        return 2
    return None


def question_options(question: str) -> tuple[str, str] | None:
    """The two candidates of a choice question ('Which is higher: the A or the B?')."""
    match = OPTIONS.search(question)
    return (match.group("a").strip(), match.group("b").strip()) if match else None


def competing(item: QAItem) -> list[str]:
    gold = (item.gold.value or "").strip()
    values = item.derivation.competing_values if item.derivation else []
    return [v for v in dict.fromkeys(values) if v.strip() and v.strip() != gold]


def shape(item: QAItem) -> str:
    gold = (item.gold.value or "").strip()
    kind = item.derivation.kind if item.derivation else ""
    if gold.lower() in ("yes", "no"):
        return "yes_no"
    if kind in SEQUENCE_KINDS or "->" in gold or ("in order" in item.q.lower() and ";" in gold):
        return "sequence"
    if ";" in gold:
        return "list"
    if _options(item):
        return "choice"
    return "single" if gold else "sentence"


def judge_rules(item: QAItem, candidate: str) -> Verdict:
    """The deterministic judge (see the module docstring)."""
    candidate = words_to_digits(at.normalize(candidate or ""))
    if not candidate.strip():
        return verdict("no_answer", "the answer is empty")
    if item.answer_status == "unanswerable":
        return _unanswerable(item, candidate)
    if (item.derivation.kind if item.derivation else "") == "stale_sources" and item.gold.value:
        found = verdict(*judge_documents(_components(item.gold.value), candidate))  # a set of documents
    else:
        found = {"yes_no": _yes_no, "sequence": _sequence, "list": _list, "choice": _choice,
                 "single": _single, "sentence": _sentence}[shape(item)](item, candidate)
    if not found.correct and found.code not in ("false_abstention",) and at.abstains(candidate) \
            and found.code in ("wrong_value", "entity_mismatch", "missing_component", "no_verdict"):
        return verdict("false_abstention", "declines although the reference gives a concrete answer")
    return found


def _unanswerable(item: QAItem, candidate: str) -> Verdict:
    if not at.abstains(candidate):
        return verdict("answered_unanswerable", "gives an answer although the records do not establish one")
    asked = {round(q.value, 9) for q in quantities(at.mask_moments(item.q))}
    context = at.context_spans(candidate)
    extra = [q for q in quantities(at.mask_moments(candidate)) if round(q.value, 9) not in asked
             and not _is_year(q)  # a year is context
             and not any(a <= q.start < b for a, b in context)]  # what the records do hold, said before declining
    asked_moments = {(m.month, m.day, m.hour, m.minute) for m in at.moments(item.q)}
    extra += [m for m in at.moments(candidate) if (m.month, m.day, m.hour, m.minute) not in asked_moments]
    if extra:
        return verdict("answered_unanswerable", "abstains but still gives a concrete value")
    return verdict("correct_abstention", "abstains on an unanswerable question")


def _is_year(q) -> bool:
    """A bare whole number between 1900 and 2100: a year said as context, not a value."""
    return q.value.is_integer() and 1900 <= q.value <= 2100 and not q.kind


def _places(item: QAItem, value: str) -> int | None:
    stated = question_precision(item.q)
    if stated is not None:
        return stated
    return vm.reference_places(value, None) if vm.value_kind(value) == "quantity" else None


def reference_value(item: QAItem) -> str:
    """gold.value, with gold.unit attached when the value is a bare number ('14.2' + 'GB'); numbers in
    words read as the candidate's are ('five' -> '5'), so a gold printed in words matches itself."""
    value = words_to_digits((item.gold.value or "").strip())
    unit = item.gold.unit.strip()
    if unit and vm.value_kind(value) == "quantity":
        quantity = vm.reference_quantity(value)
        if quantity is not None and not quantity.kind and unit_kind(unit.split()[0]) is not None:
            return f"{value} {unit}"
    return value


def _single(item: QAItem, candidate: str, value: str | None = None) -> Verdict:
    value = (value or reference_value(item)).strip()
    signed = vm.value_kind(value) == "quantity" and _expected_direction(item) is not None
    hits = vm.find_value(value, candidate, _places(item, value), absolute=signed)
    rivals = [(v, h) for v in competing(item) for h in vm.equal_hits(vm.find_value(v, candidate, _places(item, v)))]
    rivals = [(v, h) for v, h in rivals if not any(g.start <= h.start < g.end for g in vm.equal_hits(hits))]
    exact = vm.equal_hits(hits)
    if not exact:
        if rivals:
            return verdict("superseded_value", f"gives {rivals[0][0]!r}, a superseded or competing value")
        status = vm.best(hits)
        if status == "wrong_unit":
            return verdict("wrong_unit", f"the number of {value!r} in another unit or scale")
        if status == "wrong_precision":
            return verdict("wrong_precision", f"{value!r} only at a coarser precision")
        if status == "superset" or vm.partial_name(value, candidate) and vm.value_kind(value) == "name":
            return verdict("entity_mismatch", f"names something other than the whole name {value!r}")
        code = "entity_mismatch" if vm.value_kind(value) == "name" else "wrong_value"
        return verdict(code, f"does not give {value!r}")
    problem = _rival_problem(item, candidate, value, exact, rivals)
    if problem:
        return problem
    if signed:
        wrong = _direction_problem(item, candidate)
        if wrong:
            return wrong
    code = "correct_exact" if candidate.strip().rstrip(".").lower() == value.lower() else "correct_match"
    return verdict(code, f"gives {value!r}")


def _rival_problem(item: QAItem, candidate: str, value: str, exact: list[vm.Hit],
                   rivals: list[tuple[str, vm.Hit]]) -> Verdict | None:
    gold = exact[0]
    known = [value, item.q, item.gold.answer, *competing(item)]
    others = vm.other_quantities(value, candidate, known) if vm.value_kind(value) == "quantity" else []
    for rival in [h for _, h in rivals] + others:
        if at.linked_as_alternatives(candidate, (gold.start, gold.end), (rival.start, rival.end)):
            return verdict("hedge", f"offers {value!r} and another value as alternatives")
    for other in others:
        if at.stance(candidate, other.start, other.end) != "history" and item.task != "computation":
            return verdict("extra_component", f"gives {value!r} and also {candidate[other.start:other.end]!r}")
    current = (item.derivation.kind if item.derivation else "") in CURRENT_KINDS
    for name, rival in rivals:
        rival_stance = at.stance(candidate, rival.start, rival.end)
        if current and rival_stance == "final" and at.stance(candidate, gold.start, gold.end) != "final":
            return verdict("superseded_value", f"asserts {name!r} as the answer, not {value!r}")
        if at.hedged(candidate) and rival_stance != "history":
            return verdict("hedge", f"hedges between {value!r} and {name!r}")
    if vm.value_kind(value) == "name":
        after = candidate[gold.end:gold.end + 40]
        before = candidate[max(0, gold.start - 40):gold.start]
        if re.match(r"\s*(?:or|/)\s*\w", after) or re.search(r"[A-Z]\w+\s*(?:or|/)\s*$", before):
            return verdict("hedge", f"offers {value!r} or another name")
        if re.match(r"\W*(?:and|&|as well as|plus|(?:along |together )?with)\s+(?:also\s+)?[A-Z]\w", after) or \
                re.search(r"\b[A-Z]\w+\s+(?:and|&)\s*$", before):
            return verdict("extra_component", f"names {value!r} together with another name")
    return None


def _expected_direction(item: QAItem) -> str | None:
    """'up'/'down' when the reference states a signed change ('0.014 lower', '-3.2')."""
    if item.task not in ("computation",):
        return None
    gold = (item.gold.value or "").strip()
    words = at.direction(re.sub(r"\(.*", "", item.gold.answer))
    if words:
        return words
    if gold.startswith(("-", "\u2212")):
        return "down"
    if re.search(r"\b(change|higher or lower|difference)\b", item.q, re.I) and re.match(r"\d", gold):
        return "up" if re.search(r"\b(by how much|how much)\b", item.q, re.I) else None
    return None


def _direction_problem(item: QAItem, candidate: str) -> Verdict | None:
    expected = _expected_direction(item)
    masked = candidate.replace(item.q, "")
    stated = at.direction(re.sub(r"\b(?:higher or lower|lower or higher)\b", "", masked, flags=re.I))
    signs = [q.value for q in quantities(at.mask_moments(masked)) if q.value]
    if stated is None and signs and re.search(r"(?<![\w.])[-\u2212]\d", masked):
        stated = "down"
    if stated is None and expected == "down":
        return verdict("wrong_direction", "gives the size of a decrease without saying it is one")
    if stated is not None and stated != expected:
        return verdict("wrong_direction", f"states the change as {'an increase' if stated == 'up' else 'a decrease'}")
    return None


def _yes_no(item: QAItem, candidate: str) -> Verdict:
    want = (item.gold.value or "").strip().lower()
    said = at.polarity(candidate)
    if said == "both" or (said and at.HEDGE.search(candidate) and re.search(r"\b(hard to say|not sure|either)\b",
                                                                             candidate, re.I)):
        return verdict("hedge", "answers both yes and no")
    if said is None:
        return verdict("no_verdict", "gives no yes/no verdict")
    if said != want:
        return verdict("wrong_verdict", f"answers {said} where the reference says {want}")
    unsupported = _unsupported_numbers(item, candidate)
    if unsupported:
        return verdict("wrong_reason", f"answers {want}, but for a figure the records do not give: {unsupported[0]!r}")
    return verdict("correct_verdict", f"answers {want}")


def _unsupported_numbers(item: QAItem, candidate: str) -> list[str]:
    """Figures a verdict gives as its reason ('the gap is 9.5 points') that neither the question nor the
    reference states: a right yes or no for a wrong reason is not a right answer. An aside in brackets
    ('(the next lowest is 11)') and a small count ('fewer than the other five') are context."""
    stated = quantities(words_to_digits(at.mask_moments(item.gold.answer)))
    if not stated:
        return []  # a reference that gives no figures of its own cannot tell a wrong reason
    known = {round(q.value, 6) for q in [*stated, *quantities(words_to_digits(at.mask_moments(item.q)))]}
    out = []
    for q in quantities(at.mask_moments(candidate)):
        small_count = q.value.is_integer() and 0 <= q.value < 10 and not q.kind and not q.unit
        aside = candidate[:q.start].count("(") > candidate[:q.start].count(")")
        if round(q.value, 6) not in known and not (_is_year(q) or small_count or aside):
            out.append(candidate[q.start:q.end])
    return out


def _components(value: str) -> list[str]:
    return [p.strip() for p in re.split(r"\s*(?:->|;|\u2192)\s*", value) if p.strip()]


def _sequence(item: QAItem, candidate: str) -> Verdict:
    parts = _components(item.gold.value or "")
    places = question_precision(item.q)
    found = [vm.equal_hits(vm.find_value(p, candidate, places)) for p in parts]
    missing = [p for p, hits in zip(parts, found) if not hits]
    position, in_order, used = -1, True, set()
    for hits in found:
        later = [h for h in hits if h.start > position and h.start not in used]
        if not later:
            in_order = False
            break
        position = later[0].start
        used.add(position)
    if missing or (not in_order and _too_few(parts, found)):
        return verdict("missing_component", "missing: " + "; ".join(missing or parts)[:160])
    extra = _extra_values(item, candidate, parts)
    if extra:
        return extra
    if not in_order:
        return verdict("wrong_order", "every value is there but not in the recorded order")
    return verdict("correct_sequence", "every value, in order")


def _too_few(parts: list[str], found: list[list[vm.Hit]]) -> bool:
    """A value that must occur twice ('A -> B -> A') but occurs once is missing, not out of order."""
    counts: dict[str, int] = {}
    for part in parts:
        counts[part] = counts.get(part, 0) + 1
    return any(len(hits) < counts[p] for p, hits in zip(parts, found))


def _extra_values(item: QAItem, candidate: str, parts: list[str]) -> Verdict | None:
    known = [*parts, item.q, item.gold.answer]
    for part in parts:
        if vm.value_kind(part) == "quantity":
            others = vm.other_quantities(part, candidate, known)
            if others:
                return verdict("extra_component", f"adds a value the reference does not have: "
                                                  f"{candidate[others[0].start:others[0].end]!r}")
            break
    allowed = {w for text in known + competing(item) for w in at.name_tokens(text)}
    for m in re.finditer(r"\b[A-Z][a-z]+(?:\s+[A-Z]\w+)+", candidate):
        words = at.name_tokens(m.group(0))
        if m.start() == 0 or re.search(r"[.!?:;]\W*$", candidate[:m.start()]):
            words = words[1:]  # a capital at the start of a sentence says nothing
        if len(words) >= 1 and any(w not in allowed for w in words) and words[0] not in at.NOT_NAME:
            return verdict("extra_component", f"adds {m.group(0)!r}, which the reference does not have")
    return None


def _list(item: QAItem, candidate: str) -> Verdict:
    parts = _components(item.gold.value or "")
    places = question_precision(item.q)
    missing = [p for p in parts if not vm.equal_hits(vm.find_value(p, candidate, places))]
    if missing:
        one = _single(item, candidate, missing[0])
        if one.code in ("superseded_value", "wrong_unit", "wrong_precision"):
            return one
        return verdict("missing_component", "missing: " + "; ".join(missing)[:160])
    extra = _extra_values(item, candidate, parts)
    if extra:
        return extra
    swapped = role_swap(item, candidate, parts)
    return verdict("role_swap", swapped) if swapped else verdict("correct_list", "every component, none extra")


def _options(item: QAItem) -> tuple[str, str] | None:
    gold = (item.gold.value or "").strip().lower()
    premise = item.derivation.premise_values if item.derivation else []
    if item.derivation and item.derivation.kind in CHOICE_KINDS and len(premise) == 2 and \
            gold in [p.lower() for p in premise]:
        return premise[0], premise[1]
    options = question_options(item.q)
    if options and gold and any(at.name_tokens(gold) == at.name_tokens(o) or gold in o.lower().split()
                                for o in options):
        return options
    return None


def _choice(item: QAItem, candidate: str) -> Verdict:
    options = _options(item)
    gold = (item.gold.value or "").strip().lower()
    chosen = next((o for o in options if at.name_tokens(o) == at.name_tokens(gold)), None) or \
        next(o for o in options if gold in o.lower().split())  # 'Agree' is not 'Agree Strongly'
    other = options[1] if chosen == options[0] else options[0]
    at_chosen, at_other = _mentions(chosen, other, candidate), _mentions(other, chosen, candidate)
    if not at_chosen and not at_other:
        return _single(item, candidate)
    if _picked(item.q, candidate, {chosen: at_chosen, other: at_other}) != chosen:
        return verdict("wrong_direction", f"picks {other!r} where the reference picks {chosen!r}")
    margin = re.search(r"\bby ([^()]+?)\)?\s*$", item.gold.answer)
    if margin and re.search(r"\bby how much\b", item.q, re.I):
        hits = vm.find_value(margin.group(1), candidate, question_precision(item.q), absolute=True)
        if not vm.equal_hits(hits):
            known = [item.gold.answer, item.q]
            given = vm.other_quantities(margin.group(1), candidate, known)
            code = "wrong_margin" if given or hits else "missing_component"
            state = "wrong" if code == "wrong_margin" else "missing"
            return verdict(code, f"the margin {margin.group(1)!r} is {state}")
    return verdict("correct_choice", f"picks {chosen!r}")


def _mentions(option: str, rival: str, candidate: str) -> list[int]:
    """Where the candidate names an option: the whole option, else the words that tell it from the rival
    ('the reranker's peak memory' names 'the peak memory of the reranker' against '... of the indexer')."""
    found = [h.start for h in vm.find_value(option, candidate, None) if h.status == "equal"]
    if found:
        return found
    own = [w for w in at.name_tokens(option) if w not in set(at.name_tokens(rival)) and w not in at.NOT_NAME]
    if not own:
        return []
    return sorted(m.start() for w in own for m in re.finditer(rf"(?<![\w@]){re.escape(w)}(?![\w@])", candidate.lower()))


def _picked(question: str, candidate: str, mentions: dict[str, list[int]]) -> str:
    """The option the answer picks: the subject of its first comparative ('B is lower than A' picks A
    for 'which is higher?'; 'of A and B, B has the higher ...' picks B), else the option named first."""
    asked = at.direction(question)
    comparatives = sorted([(m.start(), "up") for m in at.UP.finditer(candidate)] +
                          [(m.start(), "down") for m in at.DOWN.finditer(candidate)])
    for position, said in comparatives:
        before = {o: max([p for p in ps if p < position], default=-1) for o, ps in mentions.items()}
        subject = max(before, key=before.get)
        if before[subject] >= 0 and asked is not None:
            others = [o for o in mentions if o != subject]
            return subject if said == asked else others[0]
    named = {o: ps[0] for o, ps in mentions.items() if ps}
    return min(named, key=named.get)


def _sentence(item: QAItem, candidate: str) -> Verdict:
    """No bare gold value: its numbers must all be there, and half of its content words."""
    numbers = [q for q in quantities(at.mask_moments(item.gold.answer))]
    have = quantities(at.mask_moments(candidate))
    places = question_precision(item.q)
    for number in numbers:
        wanted = places if places is not None else number.decimals
        if not any(abs(round(h.value, wanted) - round(number.value, wanted)) < 10 ** -wanted / 2 for h in have):
            return verdict("wrong_value", f"does not give {number.value:g}")
    words = set(at.name_tokens(item.gold.answer)) - set(at.name_tokens(item.q)) - at.NOT_NAME
    if words and len(words & set(at.name_tokens(candidate))) < max(1, len(words) // 2):
        return verdict("wrong_value", "misses the reference's content words")
    return verdict("correct_match", "gives the reference's values and words")
