"""Facts in prose: every number of every text block is a fact (named measure) or a non-fact (reason)."""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from mmeb_assets.facts.measures import Measure, measure_of, unit_after
from mmeb_assets.facts.misreads import without_table_head
from mmeb_assets.facts.nonfacts import reason_for
from mmeb_assets.ingestion.numbers import NUMBER_RE, sentences
from mmeb_assets.schema.source import Fact, SourceDocument

REFERENCE_HEADING = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?\s*)?(?:references|bibliography|works cited|related gao products|"
                               r"endnotes|sources|literature cited|citations)\s*$", re.I)
LEAVE_REFERENCES = re.compile(r"^\s*(?:appendix|annex|acknowledg)", re.I)
MARGIN = 0.08


@dataclass
class Tally:
    """Numbers kept out, per reason, with a few examples each."""

    counts: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    examples: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def add(self, reason: str, example: str) -> None:
        self.counts[reason] += 1
        if len(self.examples[reason]) < 5 and example not in self.examples[reason]:
            self.examples[reason].append(example)


def _shape(text: str) -> str:
    return re.sub(r"\d+", "#", " ".join(text.split()))


def running_blocks(document: SourceDocument) -> set[tuple[int, int]]:
    """(page, block index) of running headers and footers: the same text shape (digits aside) in the top
    or bottom margin of three or more pages, or any short margin block holding a page number."""
    bottom = max((b.bbox[3] for p in document.pages for b in p.blocks), default=0.0) or 1.0
    in_margin: dict[tuple[int, int], str] = {}
    for page in document.pages:
        for index, block in enumerate(page.blocks):
            top_or_bottom = block.bbox[1] < MARGIN * bottom or block.bbox[3] > (1 - MARGIN) * bottom
            if top_or_bottom and len(block.text.split()) <= 16:
                in_margin[(page.page, index)] = _shape(block.text)
    pages_of: dict[str, set[int]] = defaultdict(set)
    for (page, _index), shape in in_margin.items():
        pages_of[shape].add(page)
    return {key for key, shape in in_margin.items()
            if len(pages_of[shape]) >= 3 or re.fullmatch(r"(?:Page\s)?[#ivxlc]+|[A-Za-z ]{0,30}#", shape.strip(), re.I)}


def contents_pages(document: SourceDocument) -> set[int]:
    """Pages of a table of contents (or list of figures): 'Contents' near the top and five or more lines
    ending in a bare page number, or three or more dotted leaders."""
    pages = set()
    for page in document.pages:
        lines = [line.strip() for line in page.text.splitlines() if line.strip()]
        ending = sum(1 for line in lines if re.fullmatch(r"(?:.*\D\s)?\d{1,3}", line))
        leaders = sum(1 for line in lines if re.search(r"\.{4,}|(?:\.\s){4,}", line))
        head = " ".join(lines[:12]).lower()
        if leaders >= 3 or (ending >= 5 and "contents" in head):
            pages.add(page.page)
    return pages


def _toc_or_list(text: str) -> bool:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if re.search(r"\.{4,}|(?:\.\s){4,}", text):
        return True
    numbered = sum(1 for line in lines if re.fullmatch(r"[\d.]{1,8}|\d+(?:\.\d+)*\.?\s+\S.*", line)
                   and not re.search(r"\d\s*(?:%|percent)", line))
    return bool(lines) and numbered >= 0.6 * len(lines) and len(lines) >= 2


def _block_reason(document: SourceDocument, page_no: int, index: int, text: str, running: set,
                  in_references: bool) -> str | None:
    if (page_no, index) in running:
        return "furniture"
    if in_references:
        return "citation"
    if _toc_or_list(text):
        return "numbering"
    return None


HYPOTHETICAL = re.compile(r"\b(?:let us (?:consider|assume|say|take)|let's (?:consider|assume|say)|suppose|imagine|"
                          r"consider an? (?:\d+-year-old|hypothetical|example|fictional)|hypothetical|for (?:example|instance),? "
                          r"(?:if|a|an|consider|assume)|as an example|a worked example)\b", re.I)


def _number_facts(sentence: str, page: int, tally: Tally, block_start: bool = False) -> list[Fact]:
    """The facts of one sentence; none from a worked or hypothetical example ('let us consider a
    40-year-old male who weighs 71.3 kg'): its numbers illustrate, they were never measured."""
    if HYPOTHETICAL.search(sentence):
        for match in NUMBER_RE.finditer(sentence):
            tally.add("example", f"p{page}: {match.group('value')!r} in {sentence[:80]!r}")
        return []
    facts: list[Fact] = []
    previous: Measure | None = None
    for match in NUMBER_RE.finditer(sentence):
        start, end = match.start("value"), match.end("value")
        value = match.group("value")
        unit, _scale, _end = unit_after(sentence, end)
        reason = reason_for(sentence, start, end, unit)
        if not reason and block_start and start == 0 and not unit and re.match(r"^\s[a-z]", sentence[end:]):
            reason = "numbering"  # a footnote marker set on its own line: '15 only provides incentive ...'

        if reason:
            tally.add(reason, f"p{page}: {value!r} in {sentence[max(0, start - 40):end + 20]!r}")
            previous = None
            continue
        measure = measure_of(sentence, start, end, previous)
        if measure is None:
            tally.add("no_measure", f"p{page}: {value!r} in {sentence[max(0, start - 40):end + 20]!r}")
            continue
        previous = measure
        facts.append(Fact(measure=measure.name, value=value, unit=measure.unit, scale=measure.scale,
                          subject=measure.subject, page=page, source=sentence))
    return facts


def prose_facts(document: SourceDocument, tally: Tally, exclude: dict[int, list[tuple]] | None = None) -> list[Fact]:
    """Facts from the text blocks of every page (table and figure areas in `exclude` are skipped)."""
    running = running_blocks(document)
    contents = contents_pages(document)
    facts: list[Fact] = []
    in_references = False
    exclude = exclude or {}
    for page in document.pages:
        boxes = exclude.get(page.page, [])
        for index, block in enumerate(page.blocks):
            text = block.text.strip()
            if block.kind == "heading" or (len(text) < 60 and REFERENCE_HEADING.match(text)):
                if REFERENCE_HEADING.match(text):
                    in_references = True
                elif LEAVE_REFERENCES.match(text):
                    in_references = False
            if _inside(block.bbox, boxes):
                continue
            reason = "numbering" if page.page in contents else _block_reason(document, page.page, index, text,
                                                                                 running, in_references)
            if reason or block.kind != "text":
                for match in NUMBER_RE.finditer(" ".join(text.split())):
                    tally.add(reason or ("numbering" if block.kind == "heading" else "no_measure"),
                              f"p{page.page}: {match.group('value')!r} in {text[:60]!r}")
                continue
            for n, sentence in enumerate(sentences(text)):
                facts.extend(_number_facts(without_table_head(sentence), page.page, tally, block_start=n == 0))
    return facts


def _inside(bbox, boxes) -> bool:
    cx, cy = (bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2
    return any(b[0] - 2 <= cx <= b[2] + 2 and b[1] - 2 <= cy <= b[3] + 2 for b in boxes)
