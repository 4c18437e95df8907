"""Ingestion and source-fact extraction outputs."""
from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field

from mmeb_assets.schema.common import StageArtifact

BBox = tuple[float, float, float, float]
# A caption's printed label: 'Table 2:', 'Table 3.4:', 'Exhibit 2a.', 'Table A-2.', 'Table SA3.', 'Exhibit B.4'
CAPTION_LABEL = re.compile(r"^\s*(?:table|exhibit|figure|fig\.)\s*(?:[A-Z]{1,3}[-.–]?)?\d+(?:[.\-–]\d+)?[a-z]?"
                           r"\s*[:.|\-–—]?\s*", re.I)


def caption_title(caption: str) -> str:
    """A caption without its label: what the table is about, as a company message would name it."""
    return CAPTION_LABEL.sub("", caption or "", count=1)


class TextBlock(BaseModel):
    page: int = Field(description="1-based page number")
    bbox: BBox
    text: str
    kind: Literal["text", "caption", "heading"] = "text"


class PageText(BaseModel):
    page: int
    text: str
    blocks: list[TextBlock] = []


class Table(BaseModel):
    """A table anchored to its printed 'Table N' caption; cells are the exact printed strings."""

    id: str = Field(description="e.g. 'table_1'")
    number: int | None = None
    caption: str
    page: int
    header: list[str]
    rows: list[list[str]]
    numbers: list[list[float | None]] = Field(
        default=[], description="parsed numeric value of each row cell, None where not numeric"
    )
    extractor: str = Field(default="", description="camelot-lattice | camelot-stream | pymupdf | generator")
    bbox: BBox | None = None
    header_rows: list[list[str]] = Field(
        default=[], description="the printed header rows, a spanning cell repeated over every column it spans")
    column_paths: list[list[str]] = Field(
        default=[], description="per column, its header path top-down ('Accuracy (%)', 'dev', '5-shot'); "
                                "[] for stub columns")
    stub_columns: int = Field(default=1, description="how many leading columns name the row")
    row_paths: list[list[str]] = Field(
        default=[], description="per body row: its group(s), then its own label(s) ('Neural', 'LSTM')")
    unit: str = Field(default="", description="the table-wide unit the document states (caption, a unit line "
                                              "under it): '%', 'USD million', 'kWh per household'")
    column_units: list[str] = Field(default=[], description="per column, the unit its header states, else ''")
    kind: Literal["results", "example", "list"] = Field(
        default="results", description="results: measured values; example: cells are examples, labels or "
                                       "positions (no facts); list: numbered or term lists (no facts)")
    kind_reason: str = ""
    part: str = Field(default="", description="'a', 'b', ... for stacked sub-tables of one printed table")
    topic: str = Field(default="", description="what sets the table apart from a twin table with the same "
                                               "columns: the words its caption has that the twin's lacks ('stroke')")
    glossary: dict[str, str] = Field(default={}, description="the document's expansions of abbreviations its "
                                                             "heads and rows print ('H&S': 'Heilman and Smith')")
    measure_hint: str = Field(default="", description="the measure the sentences citing the table name "
                                                      "('accuracy'), for heads and captions that name none")


class Figure(BaseModel):
    id: str = Field(description="e.g. 'figure_1'")
    number: int | None = None
    caption: str
    page: int
    image_path: str = Field(description="PNG path relative to the project folder")
    kind: Literal["raster", "vector"] = "raster"
    bbox: BBox | None = None


class NumericClaim(BaseModel):
    sentence: str
    value: str = Field(description="the number exactly as printed, e.g. '81.2' or '3,500'")
    unit: str = ""
    page: int


class SourceDocument(StageArtifact):
    """What ingestion read from one seed PDF (`projects/<seed>/source_document.json`)."""

    title: str
    path: str
    sha256: str
    n_pages: int
    pages: list[PageText]
    tables: list[Table]
    figures: list[Figure]
    numeric_claims: list[NumericClaim]


class ConfigFact(BaseModel):
    name: str
    value: str


class Claim(BaseModel):
    text: str
    value_strings: list[str] = Field(description="exact number strings the claim rests on")
    label: str = Field(description="what the leading number measures; no digit, unit or value")
    source_hint: str = ""


class TextualExtraction(BaseModel):
    method_name: str
    one_sentence: str
    task_summary: str
    components: list[str]
    config_facts: list[ConfigFact]
    claims: list[Claim]
    pipeline_steps: list[str]


class VisualFact(BaseModel):
    fact: str
    value: str = Field(description="exact short value string as printed in the image")


class VisualExtraction(BaseModel):
    figure_id: str
    description: str
    image_only_facts: list[VisualFact]
    text_labels: list[str]
    key_numbers: list[str]


class Fact(BaseModel):
    """A measured quantity a reader would quote: a named measure, its value, unit and scale, whom it
    belongs to, and where it is printed. There is no fact without a measure name."""

    measure: str = Field(min_length=1, description="what is measured, in the document's words; no digit")
    value: str = Field(description="the number exactly as printed, e.g. '81.2', '3,500'")
    unit: str = Field(default="", description="'%', 'USD', 'days', 'count', ... or '' (a score)")
    scale: str = Field(default="", description="'', 'thousand', 'million', 'billion'")
    subject: str = Field(default="", description="the system, group, year or condition it belongs to")
    page: int
    source: str = Field(description="the sentence it is printed in, or 'table_N row R column C'")
    table_id: str = ""
    row_path: list[str] = Field(default=[], description="table facts: the row's group(s) and label(s)")
    column_path: list[str] = Field(default=[], description="table facts: the column's header path, top-down")


class Statement(BaseModel):
    """What the document states in words: a whole and its named parts, a term's definition, an
    abbreviation's expansion, or a figure kept with the sentence that states it."""

    id: str = Field(description="e.g. 'statement_03'")
    kind: Literal["components", "definition", "quantity", "acronym"]
    subject: str = Field(description="the whole ('the Framework Core') or the term defined ('risk tolerance')")
    aspect: str = Field(description="the parts' noun ('Functions') or 'definition'")
    stated: str = Field(description="the parts as printed, comma-separated, or the definition's first clause")
    count: str = Field(default="", description="components: the count as printed ('five')")
    sentence: str
    page: int
    asked: str = Field(default="", description="quantity: the sentence as a question, its figure blanked "
                                               "('memorized secrets SHALL be at least how many characters ...?')")


class NonFactClass(BaseModel):
    """Numbers of one class kept out of the facts (page furniture, numbering, identifiers, ...)."""

    reason: Literal["furniture", "numbering", "identifier", "citation", "date", "threshold", "example", "no_measure",
                    "list_table"]
    count: int
    examples: list[str] = []


class SourceFacts(StageArtifact):
    """Structured facts the simulation builds on (`projects/<seed>/source_facts.json`)."""

    title: str
    domain: str = ""
    textual: TextualExtraction
    visual: list[VisualExtraction]
    tables: list[Table]
    figures: list[Figure]
    facts: list[Fact] = Field(default=[], description="measured quantities from prose and numeric tables")
    non_facts: list[NonFactClass] = Field(default=[], description="numbers kept out, per reason, with examples")
    statements: list[Statement] = Field(default=[], description="component lists and definitions stated in prose")
    sections: list[str] = Field(default=[], description="the document's numbered section titles, in order "
                                                        "(no facts: names for review work when facts are few)")
