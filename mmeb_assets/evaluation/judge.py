"""Judges: a deterministic one for offline runs, and LLM-as-judge through the shared client.

Deterministic rules: for unanswerable items an abstention (or a rejected premise) is correct and a
concrete answer is not; for answerable items a refusal is wrong, and every component of the gold
value must appear in the candidate: numbers compared at the question's precision (stated, e.g. "to
one decimal place", else the reference's own decimals), names and identifiers after normalization.
The LLM judge gets question, reference and candidate as JSON-encoded strings (untrusted data) and
must reply with exactly {"correct": bool, "reason": str}.
"""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass

from pydantic import BaseModel, ValidationError

from mmeb_assets.prompts import PromptTemplate, load_prompt
from mmeb_assets.schema.qa import QAItem
from mmeb_resources.llm import LLMError, LLMResource, extract_json_object, failure_reason

RULES_JUDGE = "rules"
ABSTENTION = re.compile(
    r"\b(not (?:been |be )?(?:established|stated|specified|mentioned|available|provided|given|reported|found|"
    r"recorded|documented|known|determin\w*|clear|possible to \w+)|cannot (?:be )?(?:determin\w*|establish\w*|"
    r"answer\w*|tell|find|confirm\w*)|can ?not be|unable to|no (?:information|record|mention|data|evidence|"
    r"indication|such)|insufficient|unknown|does not (?:say|state|mention|specify|appear|exist|establish)|"
    r"do not (?:say|state|mention|specify|contain|establish)|there is no|none of the records|"
    r"premise is (?:false|incorrect|wrong)|contradict\w*)\b", re.I)
TIME = re.compile(r"\b\d{1,2}:\d{2}\b")
NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?")
WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "zero": 0}
MONTHS = {m: m[:3] for m in ("january", "february", "march", "april", "june", "july", "august", "september",
                             "october", "november", "december")}
FILLER = frozenset("a an the of and or to in on at for by is was were be it its this that with as".split())


class JudgeVerdict(BaseModel):
    correct: bool
    reason: str


@dataclass(frozen=True)
class Verdict:
    correct: bool
    reason: str
    ok: bool = True  # False: the LLM judge gave no usable verdict (the rules verdict decides)


def normalize(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub(r"[\u2010-\u2015\u2212]", "-", text)
    text = re.sub(r"[^\w\s.:%-]", " ", text)
    words = [MONTHS.get(w, w) for w in re.split(r"\s+", text.replace(",", " ")) if w]
    return " ".join(w.strip(".-") for w in words if w.strip(".-") not in FILLER)


def _tokens(text: str) -> set[str]:
    out = set()
    for word in normalize(text).split():
        out.add(word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word)
    return out


def numbers_in(text: str) -> list[float]:
    cleaned = TIME.sub(" ", text)
    values = []
    for match in NUMBER.finditer(cleaned):
        raw = match.group(0).replace(",", "")
        try:
            values.append(float(raw))
        except ValueError:
            continue
    return values


def _decimals(raw: str) -> int:
    raw = raw.replace(",", "")
    return len(raw.split(".", 1)[1]) if "." in raw else 0


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


def abstains(candidate: str) -> bool:
    return bool(ABSTENTION.search(candidate)) or not candidate.strip()


def _components(value: str) -> list[str]:
    parts = re.split(r";|\s+/\s+|\band\b|,(?!\d)", value)
    return [p.strip() for p in parts if p.strip()]


def _number_matches(raw: str, candidate_numbers: list[float], precision: int | None) -> bool:
    target = float(raw.replace(",", ""))
    places = precision if precision is not None else _decimals(raw)
    return any(abs(round(c, places) - round(target, places)) < 10 ** (-places) / 2 for c in candidate_numbers)


def _component_present(component: str, candidate: str, precision: int | None) -> bool:
    cand_numbers = numbers_in(candidate)
    raw_numbers = [m.group(0) for m in NUMBER.finditer(TIME.sub(" ", component))]
    if any(not _number_matches(raw, cand_numbers, precision) for raw in raw_numbers):
        return False
    times = TIME.findall(component)
    if any(t.lstrip("0") not in candidate for t in times):
        return False
    words = {t for t in _tokens(NUMBER.sub(" ", TIME.sub(" ", component))) if not t.replace(".", "").isdigit()}
    if not words:
        return True
    return normalize(component) in normalize(candidate) or words <= _tokens(candidate)


OPTIONS = re.compile(r"[:,]\s*(?:the\s+)?(?P<a>[^:,?]+?)\s+or\s+(?:the\s+)?(?P<b>[^:,?]+?)\s*\?\s*$", re.I)


def question_options(question: str) -> tuple[str, str] | None:
    """The two candidates of a choice question ('Which is higher: the A or the B?')."""
    match = OPTIONS.search(question)
    return (match.group("a").strip(), match.group("b").strip()) if match else None


def prefers_other_option(item: QAItem, candidate: str) -> bool:
    """A choice answer that names the rejected option first (or only) picks it, even if the chosen
    one's words also appear further on ('the first one was larger than the final one')."""
    options = question_options(item.q)
    if not options:
        return False
    gold_text = normalize(f"{item.gold.value or ''} {item.gold.answer}")
    chosen = [o for o in options if normalize(o) and normalize(o) in gold_text]
    if len(chosen) != 1:
        return False
    other = options[1] if chosen[0] == options[0] else options[0]
    text = normalize(candidate)
    at_chosen, at_other = text.find(normalize(chosen[0])), text.find(normalize(other))
    return at_other >= 0 and (at_chosen < 0 or at_other < at_chosen)


def judge_rules(item: QAItem, candidate: str) -> Verdict:
    """The deterministic judge (see the module docstring)."""
    if item.answer_status == "unanswerable":
        if abstains(candidate):
            return Verdict(True, "abstains on an unanswerable question")
        return Verdict(False, "gives a concrete answer although the records do not establish one")
    gold = (item.gold.value or "").strip()
    precision = question_precision(item.q)
    if gold:
        missing = [c for c in _components(gold) if not _component_present(c, candidate, precision)]
    else:
        missing = _missing_from_sentence(item.gold.answer, item.q, candidate, precision)
    if not missing:
        if abstains(candidate) and not numbers_in(candidate):
            return Verdict(False, "declines although the reference gives a concrete answer")
        if prefers_other_option(item, candidate):
            return Verdict(False, "names the other option of the choice first")
        return Verdict(True, f"contains the reference value {gold or item.gold.answer!r}")
    if abstains(candidate):
        return Verdict(False, "declines although the reference gives a concrete answer")
    return Verdict(False, "missing or different: " + "; ".join(missing)[:200])


def _missing_from_sentence(answer: str, question: str, candidate: str, precision: int | None) -> list[str]:
    """No bare gold value: require its numbers and times, and half of its new content words."""
    missing = [raw for raw in (m.group(0) for m in NUMBER.finditer(TIME.sub(" ", answer)))
               if not _number_matches(raw, numbers_in(candidate), precision)]
    missing += [t for t in TIME.findall(answer) if t not in candidate]
    words = _tokens(answer) - _tokens(question)
    words = {w for w in words if not w.replace(".", "").isdigit()}
    if words and len(words & _tokens(candidate)) < max(1, len(words) // 2):
        missing.append("content words: " + ", ".join(sorted(words))[:120])
    return missing


def judge_prompt() -> PromptTemplate:
    return load_prompt("evaluation", "judge")


def judge_messages(template: PromptTemplate, item: QAItem, candidate: str) -> list[dict]:
    """Each field is a JSON string literal: quotes and braces in the candidate cannot escape it."""
    return template.messages(question_json=json.dumps(item.q, ensure_ascii=False),
                             reference_json=json.dumps(item.gold.answer, ensure_ascii=False),
                             candidate_json=json.dumps(candidate, ensure_ascii=False))


def validate_verdict_reply(text: str) -> tuple[JudgeVerdict | None, str]:
    try:
        raw = extract_json_object(text)
    except ValueError as exc:
        return None, str(exc)
    if set(raw) != {"correct", "reason"}:
        return None, f"expected exactly the keys correct, reason; got {sorted(raw)}"
    if not isinstance(raw["correct"], bool):
        return None, "'correct' must be true or false"
    try:
        return JudgeVerdict.model_validate(raw), ""
    except ValidationError as exc:
        return None, str(exc)[:300]


def judge_llm_batch(llm: LLMResource, items: list[QAItem], candidates: list[str]) -> list[Verdict]:
    """One batched pass; replies that break the contract are evicted from the cache and re-asked with
    the error appended. An item whose request fails for good, or whose replies never fit the
    contract, gets `ok=False` and the reason (the caller uses the rules verdict)."""
    template = judge_prompt()
    batch = [judge_messages(template, item, cand) for item, cand in zip(items, candidates)]
    params = {"max_tokens": 256, "temperature": 0.0, **llm.json_params(JudgeVerdict)}
    replies = llm.chat_batch(batch, stage="evaluation.judge", keep_going=True, **params)
    verdicts: list[Verdict] = []
    for item, cand, messages, reply in zip(items, candidates, batch, replies):
        if reply.error:
            verdicts.append(Verdict(False, f"LLM judge request failed: {reply.error[:200]}", ok=False))
            continue
        parsed, error = validate_verdict_reply(reply.text)
        if parsed is None:
            llm.forget(messages, **params)
            try:
                result = llm.generate_json(
                    template, {"question_json": json.dumps(item.q), "reference_json": json.dumps(item.gold.answer),
                               "candidate_json": json.dumps(cand)}, JudgeVerdict, stage="evaluation.judge")
                parsed = result.value  # type: ignore[assignment]
            except LLMError as exc:
                verdicts.append(Verdict(False, f"LLM judge reply invalid ({error[:80]}); {failure_reason(exc, 160)}",
                                        ok=False))
                continue
        verdicts.append(Verdict(bool(parsed.correct), parsed.reason.strip()[:300]))
    return verdicts
