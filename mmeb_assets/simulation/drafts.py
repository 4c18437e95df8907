"""The JSON shapes each generating step returns (rules twin and LLM alike), before assembly.

Times inside drafts are `day` (0-based index into the window) plus `time` ("HH:MM"), which is what
a model can write reliably; assembly turns them into datetimes.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from mmeb_assets.schema.workspace import ErrorKind, FactKind, ItemKind


class Slot(BaseModel):
    day: int = Field(ge=0)
    time: str = Field(pattern=r"^\d{2}:\d{2}$")


class PersonDraft(BaseModel):
    id: str
    name: str
    role: str
    owns: str
    voice: str
    colour: str = "#4a6fa5"


class ChannelDraft(BaseModel):
    id: str
    purpose: str
    members: list[str]
    access: Literal["public", "restricted", "dm"]


class MilestoneDraft(BaseModel):
    name: str
    day: int
    time: str = "16:00"


class OrgDraft(BaseModel):
    company_name: str
    tagline: str
    product: str
    project_codename: str
    project_sentence: str
    internal_model_name: str
    customer_name: str
    customer_contact: str
    customer_contact_email: str
    milestone_a: MilestoneDraft
    milestone_b: MilestoneDraft
    people: list[PersonDraft]
    channels: list[ChannelDraft]
    late_joiner_id: str
    late_joiner_joins: Slot
    lead_id: str
    pm_id: str
    report_author_id: str


class ItemDraft(BaseModel):
    id: str
    kind: ItemKind
    label: str
    owner: str
    done: Slot
    dataset: str = ""
    table_id: str = ""
    row_index: int | None = None


class InventedDraft(BaseModel):
    id: str
    name: str
    value: str
    unit: str
    owner: str
    channel: str
    at: Slot
    rationale: str


class ScheduleDraft(BaseModel):
    items: list[ItemDraft]
    invented: list[InventedDraft]


class ErrorDraft(BaseModel):
    id: str
    kind: ErrorKind
    target: str
    wrong_value: str
    slipped_by: str
    slipped: Slot
    slip_channel: str
    noticed_by: str
    noticed: Slot
    notice_channel: str
    fixed: Slot
    fix_channel: str


class DecisionDraft(BaseModel):
    id: str
    title: str
    body: str
    rationale: str
    decided_by: str
    at: Slot
    channel: str
    cites: list[str]


class ErrorsDecisionsDraft(BaseModel):
    errors: list[ErrorDraft]
    decisions: list[DecisionDraft]


class VersionDraft(BaseModel):
    value: str
    at: Slot
    channel: str
    speaker: str
    note: str
    cause: Literal["initial", "slip", "correction", "change"]


class EvolvingDraft(BaseModel):
    id: str
    kind: FactKind
    subject: str
    versions: list[VersionDraft]


class EvolvingFactsDraft(BaseModel):
    facts: list[EvolvingDraft]
