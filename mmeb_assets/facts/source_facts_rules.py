"""The deterministic twin of source-fact extraction: from the title, tables, captions and prose."""
from __future__ import annotations

import re

from mmeb_assets.ingestion.numbers import NUMBER_RE, parse_number, sentences
from mmeb_assets.facts.source_checks import DIGIT, FigureHint
from mmeb_assets.provenance import code_version, make_provenance
from mmeb_assets.schema.source import (
    Claim, ConfigFact, Figure, SourceDocument, SourceFacts, TextualExtraction, VisualExtraction, VisualFact, caption_title,
)

MAX_CLAIMS = 40
CONFIG_WORDS = ("batch size", "learning rate", "epochs", "dimension", "dimensional", "tokens", "steps", "warmup",
                "dropout", "margin", "temperature", "layers", "heads", "resolution", "pixels", "GPUs", "budget",
                "truncated", "resized", "top", "nearest", "vectors", "seed", "weight decay")
STOP = {"of", "to", "a", "an", "the", "is", "are", "was", "were", "by", "at", "with", "from", "and", "or", "in",
        "on", "for", "reaches", "reach", "fell", "rose", "drops", "costs", "has", "have", "keeps", "uses", "now",
        "serves", "up", "down", "than", "as", "be", "it", "its", "that", "this", "which", "we", "our", "about"}
LEAD_IN = re.compile(r"^(in this (paper|work|report|article),?\s*)?(we|this (paper|report|work))\s+"
                     r"(present|propose|introduce|describe|report|develop)s?\s+", re.I)


def method_name(title: str) -> str:
    head, sep, _rest = title.partition(":")
    if sep and len(head.split()) <= 4:
        return head.strip()
    acronym = re.search(r"\(([A-Z][A-Za-z0-9 .\-]{1,20})\)", title)
    return acronym.group(1).strip() if acronym else title.strip()


def _prose(document: SourceDocument) -> list[tuple[int, str]]:
    return [(b.page, b.text) for p in document.pages for b in p.blocks if b.kind == "text" and len(b.text.split()) >= 12]


def one_sentence(document: SourceDocument, name: str) -> str:
    for _page, text in _prose(document):
        for sentence in sentences(text):
            if name.lower() in sentence.lower() and len(sentence.split()) >= 6:
                cleaned = LEAD_IN.sub("", sentence).strip()
                return cleaned[:1].upper() + cleaned[1:]
    first = _prose(document)
    return sentences(first[0][1])[0] if first else document.title


def _metrics(document: SourceDocument) -> list[str]:
    """Metric columns of numeric tables; for indicator tables (a 'Unit' column) the indicators."""
    seen: list[str] = []
    for table in document.tables:
        if not any(n is not None for row in table.numbers for n in row):
            continue
        lowered = [c.lower() for c in table.header]
        if "unit" in lowered or "units" in lowered:
            unit_col = lowered.index("unit") if "unit" in lowered else lowered.index("units")
            names = [f"{row[0]} ({row[unit_col]})" for row in table.rows if row[0] and row[unit_col]]
        else:
            names = [c for c in table.header[1:] if c and parse_number(c) is None and len(c) <= 40]
        seen.extend(n for n in names if n not in seen)
    return seen[:10]


def _table_topics(document: SourceDocument) -> list[str]:
    """Table captions without their numbering (company content never cites 'Table N')."""
    return [caption_title(t.caption).rstrip(".") for t in document.tables][:6]


def _datasets(document: SourceDocument) -> list[str]:
    found: list[str] = []
    texts = [t.caption for t in document.tables] + [t for _p, t in _prose(document)[:6]]
    for text in texts:
        for match in re.finditer(r"\b(?:on|from|of) (?:the )?([A-Z][A-Za-z]*[-\d][\w\-]*|[A-Z]{3,}[\w\-]*)", text):
            if match.group(1) not in found:
                found.append(match.group(1))
    return found[:6]


def components(document: SourceDocument) -> list[str]:
    found: list[str] = []
    for _page, text in _prose(document):
        match = re.search(r"(?:components|modules|parts)\s*:\s*(.+?)\.(?:\s|$)", " ".join(text.split()))
        if match:
            for part in re.split(r",\s*(?:and\s+)?|\s+and\s+", match.group(1)):
                part = re.sub(r"^(a|an|the)\s+", "", part.strip())
                if part and part not in found:
                    found.append(part)
    for table in document.tables:
        if any(n is not None for row in table.numbers for n in row):
            for row in table.rows:
                label = row[0] if parse_number(row[0]) is None else (row[1] if len(row) > 1 else "")
                if label and parse_number(label) is None and label not in found and len(label) <= 60:
                    found.append(label)
    return found[:20]


def config_facts(document: SourceDocument) -> list[ConfigFact]:
    facts: list[ConfigFact] = []
    pattern = re.compile(r"\b(" + "|".join(re.escape(w) for w in CONFIG_WORDS) +
                         r")\s(?:of|to|is|=)\s(" + NUMBER_RE.pattern + r"(?:\s?x\s?\d+)?(?:\s(?:tokens|pixels|GPUs))?)")
    for _page, text in _prose(document):
        flat = " ".join(text.split())
        for match in pattern.finditer(flat):
            facts.append(ConfigFact(name=match.group(1).strip(), value=match.group(2)))
        for match in re.finditer(r"(?:for|over) (\d[\d,]*) (epochs|steps|iterations)", flat):
            facts.append(ConfigFact(name=f"training {match.group(2)}", value=match.group(1)))
        for match in re.finditer(r"(?:on|with) (\d+) ([A-Z][\w\-]*\d[\w\-]* GPUs|GPUs)", flat):
            facts.append(ConfigFact(name=f"{match.group(2)}", value=match.group(1)))
    unique: dict[tuple, ConfigFact] = {}
    for fact in facts:
        unique.setdefault((fact.name.lower(), fact.value), fact)
    return list(unique.values())[:20]


def _clean_word(word: str) -> str:
    return re.sub(r"[@\d]+", "", word).strip(",;:()[].%")


def claim_label(sentence: str, value: str) -> str:
    """A value-free noun phrase for what the leading number measures: the words just before it
    (back to the nearest function word), else the words after it; digits are removed."""
    index = sentence.find(value)
    before = [_clean_word(w) for w in re.split(r"[:;,]", sentence[:index])[-1].split()][-6:]
    after = [_clean_word(w) for w in sentence[index + len(value):].split()][:4]
    while before and (not before[-1] or before[-1].lower() in STOP):
        before.pop()
    phrase: list[str] = []
    for word in reversed(before):
        if not word or word.lower() in STOP or len(phrase) == 4:
            break
        phrase.insert(0, word)
    if not phrase:
        phrase = [w for w in after if w and w.lower() not in STOP][:3]
    label = " ".join(phrase)
    return label if label and not DIGIT.search(label) else "reported value"


def claims(document: SourceDocument) -> list[Claim]:
    by_sentence: dict[str, list] = {}
    for claim in document.numeric_claims:
        by_sentence.setdefault(claim.sentence, []).append(claim)
    out = []
    for sentence, found in by_sentence.items():
        values = list(dict.fromkeys(c.value for c in found))
        out.append(Claim(text=sentence, value_strings=values, label=claim_label(sentence, values[0]),
                         source_hint=f"page {found[0].page}"))
    return out[:MAX_CLAIMS]


def pipeline_steps(document: SourceDocument) -> list[str]:
    steps: list[str] = []
    in_method = False
    for page in document.pages:
        for block in page.blocks:
            if block.kind == "heading":
                in_method = bool(re.search(r"method|approach|model|pipeline|architecture|system", block.text, re.I))
            elif in_method and block.kind == "text":
                steps.extend(s for s in sentences(block.text) if len(s.split()) >= 6)
    if not steps:  # a report: its sections in order, without their numbering
        front = {b.text for b in document.pages[0].blocks[:3]} | {document.title}
        steps = [re.sub(r"^\d+(\.\d+)*\.?\s+", "", b.text) for p in document.pages for b in p.blocks
                 if b.kind == "heading" and b.text not in front]
    return list(dict.fromkeys(steps))[:10]


def _running_lines(document: SourceDocument) -> set[str]:
    """Lines printed on three or more pages: running headers and footers, not figure labels."""
    pages_of: dict[str, set[int]] = {}
    for page in document.pages:
        for block in page.blocks:
            for line in block.text.splitlines():
                pages_of.setdefault(line.strip(), set()).add(page.page)
    return {line for line, pages in pages_of.items() if len(pages) >= 3}


def _figure_text(document: SourceDocument, figure: Figure) -> list[tuple[str, tuple]]:
    """Text lines drawn inside a figure's box (vector figures carry their labels as PDF text)."""
    if not figure.bbox:
        return []
    x0, y0, x1, y1 = figure.bbox
    page = document.pages[figure.page - 1]
    running = _running_lines(document)
    return [(line.strip(), b.bbox) for b in page.blocks if b.kind != "caption"
            and x0 - 1 <= (b.bbox[0] + b.bbox[2]) / 2 <= x1 + 1 and y0 - 1 <= (b.bbox[1] + b.bbox[3]) / 2 <= y1 + 1
            for line in b.text.splitlines()
            if line.strip() and line.strip() not in running and line.isprintable() and len(line.split()) <= 12]


def _written_in(value: str, text: str) -> bool:
    """The value as a token of the text: another figure's caption that states 'λ = 0.8' makes a
    '0.8' printed in this figure no value that lives only in pixels."""
    return re.search(rf"(?<![\d.]){re.escape(value)}(?![\d])", text) is not None


def visual(document: SourceDocument, figure: Figure, hint: FigureHint | None) -> VisualExtraction:
    caption_body = re.sub(r"^(Figure|Fig\.)\s*\d+\s*[:.]\s*", "", figure.caption)
    description = f"A {figure.kind} figure on page {figure.page}: {caption_body}"
    if hint is None:
        texts = _figure_text(document, figure)
        numbers = [t for t, _b in texts if parse_number(t) is not None]
        labels = [t for t, _b in texts if parse_number(t) is None]
        boxes = {t: b for t, b in texts}
        pairs = []
        for number in numbers:
            nx = (boxes[number][0] + boxes[number][2]) / 2
            near = min(labels, key=lambda label: abs((boxes[label][0] + boxes[label][2]) / 2 - nx), default="")
            pairs.append((near, number))
        hint = FigureHint(text_labels=labels, key_numbers=numbers, pairs=pairs)
    def phrase(what: str) -> str:
        if what.startswith("label of"):
            return what
        return f"value printed for {what}" if what else "value printed in the figure"

    captions = " ".join([*(f.caption for f in document.figures), *(t.caption for t in document.tables)])
    facts = [VisualFact(fact=phrase(what), value=value) for what, value in hint.pairs
             if value not in figure.caption and not _written_in(value, captions)]
    return VisualExtraction(figure_id=figure.id, description=description, image_only_facts=facts,
                            text_labels=list(hint.text_labels), key_numbers=list(hint.key_numbers))


class RulesSourceFacts:
    generator = "rules"

    def extract(self, document: SourceDocument, *, domain: str = "",
                figure_hints: dict[str, FigureHint] | None = None) -> SourceFacts:
        name = method_name(document.title)
        metrics, datasets = _metrics(document), _datasets(document)
        task = f"{document.title}."
        if datasets:
            task += f" Data: {', '.join(datasets)}."
        if metrics:
            task += f" Measures: {', '.join(metrics)}."
        if topics := _table_topics(document):
            task += f" Tabulated: {'; '.join(topics)}."
        textual = TextualExtraction(
            method_name=name, one_sentence=one_sentence(document, name), task_summary=task,
            components=components(document), config_facts=config_facts(document), claims=claims(document),
            pipeline_steps=pipeline_steps(document),
        )
        hints = figure_hints or {}
        return SourceFacts(
            seed_id=document.seed_id,
            provenance=make_provenance(document.seed_id, "source_facts", "rules", code=code_version("ingestion"),
                                       inputs=document.sha256),
            title=document.title, domain=domain, textual=textual,
            visual=[visual(document, f, hints.get(f.id)) for f in document.figures],
            tables=document.tables, figures=document.figures,
        )
