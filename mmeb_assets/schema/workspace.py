"""The simulated workspace: organization, people, channels, and the week's event plan.

Times are timezone-naive datetimes in the simulated company's local time.
"""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from mmeb_assets.schema.common import StageArtifact

Archetype = Literal["research_lab", "analysis_firm"]


class Person(BaseModel):
    id: str = Field(description="stable slug, e.g. 'maya'")
    name: str
    role: str
    owns: str = Field(description="the parts of the work this person owns")
    voice: str = Field(description="how the person writes")
    colour: str = "#4a6fa5"
    email: str
    joined_at: datetime | None = Field(default=None, description="set for the late joiner")

    @property
    def first_name(self) -> str:
        return self.name.split()[0]


class Channel(BaseModel):
    id: str = Field(description="channel name without '#', or 'dm-<a>-<b>' for a DM")
    purpose: str
    members: list[str] = Field(description="person ids")
    access: Literal["public", "restricted", "dm"]


class Customer(BaseModel):
    name: str
    contact: str
    email: str


class Milestone(BaseModel):
    name: str
    due: datetime
    kind: Literal["internal", "external"]


class Organization(StageArtifact):
    """`projects/<seed>/organization.json`."""

    archetype: Archetype
    archetype_reason: str
    company_name: str
    tagline: str
    product: str
    project_codename: str
    project_sentence: str
    internal_model_name: str
    customer: Customer
    milestone_a: Milestone
    milestone_b: Milestone
    people: list[Person]
    channels: list[Channel]
    late_joiner_id: str
    lead_id: str
    pm_id: str
    report_author_id: str
    window_start: datetime
    window_end: datetime

    def person(self, person_id: str) -> Person:
        return next(p for p in self.people if p.id == person_id)

    def channel(self, channel_id: str) -> Channel:
        return next(c for c in self.channels if c.id == channel_id)


ItemKind = Literal["baseline", "progression", "release", "analysis", "chronological", "statement"]


class PlanItem(BaseModel):
    """One source-table row turned into a run / analysis the team completes during the week."""

    id: str = Field(description="e.g. 'run_03'")
    kind: ItemKind
    label: str = Field(description="human name of what is measured; never contains a value")
    owner: str
    completed_at: datetime
    dataset: str = ""
    table_id: str = ""
    row_index: int | None = None
    values: dict[str, str] = Field(default={}, description="column header -> exact printed cell")
    pictured: bool = Field(default=False, description="its result was shared only as a table screenshot: text "
                                                      "records leave its values out, so they live in images")
    asked: str = Field(default="", description="a stated figure: the source sentence as a question, the figure "
                                               "blanked; questions ask the item in these words")
    sentence: str = Field(default="", description="a stated figure: its sentence as printed, which records quote")


class InventedFact(BaseModel):
    """A world-only value the company measures itself (not in the source); marked invented."""

    id: str
    name: str
    value: str
    unit: str
    owner: str
    channel: str
    time: datetime
    rationale: str
    invented: bool = True
    display: str = Field(default="", description="value with its unit as written in records, e.g. '184 ms'")


ErrorKind = Literal["swapped_digits", "wrong_row", "wrong_unit", "stale_value"]


class ScriptedError(BaseModel):
    id: str
    kind: ErrorKind
    target: str = Field(description="'<item id>:<column>' or an invented fact id")
    correct_value: str
    wrong_value: str
    slipped_by: str
    slipped_at: datetime
    slip_channel: str
    noticed_by: str
    noticed_at: datetime
    notice_channel: str = Field(description="a public channel or a DM id")
    fixed_at: datetime
    fix_channel: str


class Decision(BaseModel):
    id: str
    title: str
    body: str = Field(description="uses exact values from the facts")
    rationale: str = Field(description="the reason in words first, numbers as support")
    decided_by: str
    time: datetime
    channel: str
    cites: list[str] = Field(default=[], description="exact value strings the rationale cites")


class FactVersion(BaseModel):
    value: str
    time: datetime
    channel: str
    speaker: str
    note: str
    cause: Literal["initial", "slip", "correction", "change"]


FactKind = Literal["owner", "deadline", "option", "budget", "size", "name"]


class EvolvingFact(BaseModel):
    id: str
    kind: FactKind
    subject: str = Field(description="what the fact is about, e.g. 'customer acceptance checklist deadline'")
    versions: list[FactVersion] = Field(description="chronological; 2-4 versions")
    pictured: bool = Field(default=False, description="each value was shared as a screenshot of the planning "
                                                      "sheet: the messages announce the change, the image shows it")

    def value_at(self, when: datetime) -> FactVersion | None:
        """The version in force at `when` (the latest one stated at or before it)."""
        current = None
        for version in self.versions:
            if version.time <= when:
                current = version
        return current


EventKind = Literal[
    "result_posted", "error_slipped", "error_noticed", "correction", "decision",
    "fact_update", "invented_fact", "document_posted", "welcome", "customer_email",
    "meeting", "notion_update", "log_written", "status_update",
]


class Event(BaseModel):
    """A workplace action by one person at one time; records are its realizations."""

    id: str
    time: datetime
    actor: str
    kind: EventKind
    where: str = Field(description="channel id, 'email', 'notion', 'meeting', 'files'")
    summary: str
    must_contain: list[str] = []
    must_not_contain: list[str] = Field(default=[], description="values that live only in an image or a DM")
    refs: list[str] = Field(default=[], description="ids of items, errors, decisions, facts, documents")
    recipients: list[str] = Field(default=[], description="person ids; 'customer' for the customer contact")
    attachment: str | None = Field(default=None, description="a DocumentPlan id")
    title: str = Field(default="", description="e-mail subject, Notion page, meeting or log title")
    reply_to: str = Field(default="", description="event id this one answers or reacts to")
    visible_to: list[str] = Field(default=[], description="person ids who can see it (late joiner only after joining)")
    draft: str = Field(default="", description="ready-to-use message in the actor's voice: every must_contain "
                                               "value verbatim, no must_not_contain value")


DocKind = Literal["report", "deck", "notion_tracker", "chart_image", "table_image", "seed_figure", "run_log",
                  "excerpt_image"]


class DocumentPlan(BaseModel):
    """A versioned document of the week; v2 supersedes v1 but v1 is kept."""

    id: str = Field(description="e.g. 'report_v1'")
    doc_key: str = Field(description="shared by all versions of one document, e.g. 'report'")
    kind: DocKind
    version: int
    title: str
    author: str
    time: datetime
    reflects_corrections: bool
    item_ids: list[str] = []
    pending_item_ids: list[str] = Field(default=[], description="results described as pending")
    error_ids_shown_wrong: list[str] = Field(default=[], description="errors whose wrong value it shows")
    figure_ids: list[str] = []
    where: str = Field(default="", description="channel id, 'notion', 'files' or 'email' where it is shared")
    supersedes: str | None = Field(default=None, description="id of the previous version")
    as_of: datetime | None = Field(default=None, description="information cut-off (Notion trails Slack)")
    invented_ids: list[str] = Field(default=[], description="invented facts it reports")
    decision_ids: list[str] = Field(default=[], description="decisions recorded so far that it includes")
    fact_values: dict[str, str] = Field(default={}, description="evolving fact id -> value it shows")
    values: dict[str, str] = Field(default={}, description="label -> value for charts of invented series")
    pixel_only_values: list[str] = Field(default=[], description="values visible only inside the image")
    table_id: str = Field(default="", description="source table a table/chart image renders")
    filename: str = ""
    description: str = ""


class Conflict(BaseModel):
    """Where two records disagree on one value: across sources at one time, or over time."""

    id: str
    kind: Literal["cross_source", "temporal"]
    subject: str = Field(description="error target ('<item>:<column>' / invented id) or evolving fact id")
    old_value: str
    new_value: str
    old_event_ids: list[str] = Field(default=[], description="events (and so records) that carry the old value")
    new_event_ids: list[str] = Field(default=[], description="events that carry the new value")
    document_ids: list[str] = Field(default=[], description="documents that still show the old value")
    from_time: datetime = Field(description="when the new value is first stated")
    until: datetime | None = Field(default=None, description="when the lagging source catches up (cross-source)")
    error_id: str = ""


class EventPlan(StageArtifact):
    """`projects/<seed>/event_plan.json`: the whole scripted week, chronological."""

    window_start: datetime
    window_end: datetime
    items: list[PlanItem]
    invented: list[InventedFact]
    errors: list[ScriptedError]
    decisions: list[Decision]
    evolving_facts: list[EvolvingFact]
    documents: list[DocumentPlan]
    events: list[Event]
    conflicts: list[Conflict] = Field(default=[], description="index of the plan's cross-source and temporal conflicts")
