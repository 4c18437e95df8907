"""Locate the records that realize the plan's facts, and describe an evidence set.

A record's *surface* is what a reader can get from it: its stored text, title and filename, and for
standalone images (charts, table images, figures) the values the plan says the picture shows, since
those live in pixels, not in the stored text.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property

from mmeb_assets.qa.row_lines import row_shows
from mmeb_assets.qa.text import contains_value, is_numeric_cell
from mmeb_assets.schema import VISUAL_SOURCES, EventPlan, EvidenceStats, Organization, Record, RecordSet

PICTURE_KINDS = {"chart_image", "table_image", "seed_figure", "excerpt_image"}


@dataclass
class ProjectIndex:
    plan: EventPlan
    org: Organization
    records: RecordSet
    _surface: dict[str, str] = field(default_factory=dict)

    @cached_property
    def ordered(self) -> list[Record]:
        return sorted(self.records.records, key=lambda r: (r.timestamp, r.order, r.id))

    @cached_property
    def by_id(self) -> dict[str, Record]:
        return {r.id: r for r in self.records.records}

    @cached_property
    def by_event(self) -> dict[str, list[Record]]:
        out: dict[str, list[Record]] = defaultdict(list)
        for record in self.ordered:
            for event_id in record.event_ids:
                out[event_id].append(record)
        return out

    @cached_property
    def by_doc(self) -> dict[str, list[Record]]:
        out: dict[str, list[Record]] = defaultdict(list)
        for record in self.ordered:
            if record.doc_id:
                out[record.doc_id].append(record)
        return out

    @cached_property
    def events(self) -> dict:
        return {e.id: e for e in self.plan.events}

    @cached_property
    def docs(self) -> dict:
        return {d.id: d for d in self.plan.documents}

    @cached_property
    def items(self) -> dict:
        return {i.id: i for i in self.plan.items}

    @cached_property
    def errors_by_target(self) -> dict:
        return {e.target: e for e in self.plan.errors}

    def person_name(self, person_id: str) -> str:
        for person in self.org.people:
            if person.id == person_id:
                return person.name
        if person_id == "customer":
            return self.org.customer.contact
        return person_id

    def first_name(self, person_id: str) -> str:
        return self.person_name(person_id).split()[0]

    # ----- what a record shows -----
    def picture_values(self, record: Record) -> list[str]:
        """Values a standalone image depicts, from its document plan (wrong ones where it shows errors)."""
        doc = self.docs.get(record.doc_id)
        if record.source not in VISUAL_SOURCES or doc is None or doc.kind not in PICTURE_KINDS:
            return []
        values = []
        if doc.kind in ("table_image", "excerpt_image"):
            wrong = {e.target: e.wrong_value for e in self.plan.errors if e.id in doc.error_ids_shown_wrong}
            for item_id in doc.item_ids:
                item = self.items.get(item_id)
                for col, cell in (item.values.items() if item else []):
                    values.append(wrong.get(f"{item_id}:{col}", cell))
        for event in self.plan.events:
            if event.attachment == doc.id:
                values.extend(event.must_not_contain)
        return values

    def surface(self, record: Record) -> str:
        if record.id not in self._surface:
            parts = [record.text, record.pixel_text, record.title, record.filename, record.author, record.channel]
            parts += self.picture_values(record)
            self._surface[record.id] = "\n".join(p for p in parts if p)
        return self._surface[record.id]

    def shows(self, record: Record, value: str) -> bool:
        return contains_value(self.surface(record), value)

    def shows_in_row(self, record: Record, item, *values: str) -> bool:
        """The record prints one of `values` in the row of `item` (its label, then the value before the
        next row's label). A picture whose drawn text is not stored is known only by the values the
        plan drew in it: there, showing the value is all that can be read."""
        if record.modality == "visual" and not record.pixel_text:
            return any(self.shows(record, v) for v in values)
        siblings = [i for i in self.plan.items if i.table_id == item.table_id and i.id != item.id]
        return row_shows(self.surface(record).splitlines(), [item.label, *_row_names(item, siblings)],
                         [i.label for i in siblings], values)

    def find(self, value: str, among: list[Record] | None = None) -> list[Record]:
        pool = self.ordered if among is None else among
        return [r for r in pool if self.shows(r, value)]

    def mentions_any(self, terms: list[str]) -> list[Record]:
        """Records whose surface contains any of the terms (case-insensitive)."""
        return [r for r in self.ordered if any(contains_value(self.surface(r), term) for term in terms)]

    # ----- records realizing events -----
    def event_records(self, event_id: str, value: str | None = None) -> list[Record]:
        found = self.by_event.get(event_id, [])
        return [r for r in found if value is None or self.shows(r, value)]

    def events_of(self, kinds: set[str], ref: str | None = None) -> list:
        return [e for e in self.plan.events if e.kind in kinds and (ref is None or ref in e.refs)]

    def value_record(self, value: str, *, ref: str | None = None, kinds: set[str] | None = None,
                     prefer_visual: bool = False) -> Record | None:
        """A record showing `value`: first those realizing events that reference `ref`, then any."""
        candidates: list[Record] = []
        for event in self.plan.events:
            if (ref is None or ref in event.refs) and (kinds is None or event.kind in kinds):
                candidates += self.event_records(event.id, value)
        if ref is not None:
            for doc in self.plan.documents:
                if ref in doc.item_ids or ref == doc.id:
                    candidates += [r for r in self.by_doc.get(doc.id, []) if self.shows(r, value)]
        if not candidates and ref is None and kinds is None:
            candidates = self.find(value)
        unique = list({r.id: r for r in candidates}.values())
        item = self.items.get(ref or "")
        if is_table_row(item):
            unique = [r for r in unique if self.shows_in_row(r, item, value)]  # not the digits in another row
        if not unique:
            return None
        if prefer_visual:
            visual = [r for r in unique if r.modality == "visual"]
            return visual[0] if visual else None
        return sorted(unique, key=lambda r: (r.modality != "text", r.timestamp, r.order))[0]

    def doc_records(self, doc_id: str, value: str | None = None, target: str = "") -> list[Record]:
        """The document's records showing `value`; with a `target` ('item:column') of a table row,
        only those printing it in that row (the old digits in the row above are not the target's)."""
        item = self.items.get(target.partition(":")[0]) if target else None
        in_row = is_table_row(item)
        return [r for r in self.by_doc.get(doc_id, []) if value is None or self.shows(r, value)
                and (not in_row or self.shows_in_row(r, item, value))]


def is_table_row(item) -> bool:
    """A plan item made from a row of a printed table (not a statement or a figure of the prose)."""
    return item is not None and bool(item.table_id) and item.kind != "statement" and not item.asked


def _row_names(item, siblings) -> list[str]:
    """Words a row is also printed by: a text cell no other row of its table shares ('Method': 'LI+D')."""
    taken = {v.strip() for i in siblings for v in i.values.values()}
    return [v for k, v in item.values.items() if k.strip().lower() not in ("unit", "units") and v.strip() not in taken
            and not is_numeric_cell(v) and len(v) <= 40 and sum(c.isalpha() for c in v) >= 2]


def evidence_stats(index: ProjectIndex, record_ids: list[str]) -> EvidenceStats:
    records = [index.by_id[i] for i in record_ids if i in index.by_id]
    if not records:
        return EvidenceStats()
    modalities = {r.modality for r in records}
    modality = "text+visual" if len(modalities) == 2 else next(iter(modalities))
    times = [r.timestamp for r in records]
    span = (max(times) - min(times)).total_seconds() / 3600.0
    return EvidenceStats(n_units=len(records), source_types=sorted({r.source for r in records}),
                         modality=modality, n_images=sum(r.modality == "visual" for r in records),
                         span_hours=round(span, 2))
