"""What every renderer shares: the inputs, the people's voices, access rules and a record builder."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from mmeb_assets.provenance import make_provenance
from mmeb_assets.records.voice import VoiceStyle, style_for
from mmeb_assets.schema.common import Provenance
from mmeb_assets.schema.records import Record
from mmeb_assets.schema.source import SourceFacts
from mmeb_assets.schema.workspace import DocumentPlan, EventPlan, Organization, PlanItem

SOURCE_RANK = {"email": 0, "slack": 1, "notion": 2, "meeting": 3, "txt": 4, "log": 4,
               "pdf_page": 5, "slide": 6, "image": 7}


@dataclass
class Draft:
    """A record before ids and order are assigned."""

    source: str
    timestamp: datetime
    text: str
    author: str = ""
    pixel_text: str = ""  # visual records: what the image shows (values included)
    channel: str = ""
    recipients: list[str] = field(default_factory=list)
    title: str = ""
    filename: str = ""
    page: int | None = None
    image_path: str | None = None
    doc_id: str = ""
    version: int = 1
    event_ids: list[str] = field(default_factory=list)
    access: list[str] = field(default_factory=list)
    generator: str = "rules"
    prompt_hash: str = ""
    model: str = ""
    renderer: str = ""
    doc_key: str = ""
    reply_to: str = ""
    supersedes_key: str = ""  # doc_key:page/slot of the earlier version it revises
    optional: int = 0  # > 0: derived extra that may be dropped to keep the project in range (higher first)


@dataclass
class RenderContext:
    facts: SourceFacts
    org: Organization
    plan: EventPlan
    project_dir: Path
    random_seed: int
    code: str = ""
    drafts: list[Draft] = field(default_factory=list)
    llm_fallbacks: list[str] = field(default_factory=list)  # LLM steps that used the rules twin, and why
    _styles: dict[str, VoiceStyle] = field(default_factory=dict)

    @property
    def seed_id(self) -> str:
        return self.org.seed_id

    def style(self, person_id: str) -> VoiceStyle:
        if person_id not in self._styles:
            self._styles[person_id] = style_for(self.org.person(person_id), self.random_seed)
        return self._styles[person_id]

    def name(self, person_id: str) -> str:
        try:
            return self.org.person(person_id).name
        except StopIteration:
            return person_id

    def people_ids(self) -> list[str]:
        return [p.id for p in self.org.people]

    def visible_to(self, candidates: list[str], when: datetime) -> list[str]:
        """Access list: the candidates who exist and had joined by `when`, in the org's order."""
        out = []
        for person in self.org.people:
            if person.id not in candidates:
                continue
            if person.joined_at is not None and when < person.joined_at:
                continue
            out.append(person.id)
        return out

    def channel_access(self, channel_id: str, when: datetime) -> list[str]:
        return self.visible_to(self.org.channel(channel_id).members, when)

    def everyone(self, when: datetime) -> list[str]:
        return self.visible_to(self.people_ids(), when)

    def add(self, draft: Draft) -> Draft:
        self.drafts.append(draft)
        return draft

    def provenance(self, draft: Draft) -> Provenance:
        generator = draft.generator + (f"+{draft.renderer}" if draft.renderer else "")
        return make_provenance(self.seed_id, "records", generator, model=draft.model,
                               prompt_hash=draft.prompt_hash, code=self.code, random_seed=self.random_seed,
                               inputs={"event_ids": draft.event_ids, "doc_id": draft.doc_id})

    def item(self, item_id: str) -> PlanItem | None:
        return next((i for i in self.plan.items if i.id == item_id), None)

    def document(self, doc_id: str) -> DocumentPlan | None:
        return next((d for d in self.plan.documents if d.id == doc_id), None)

    def rel(self, path: Path) -> str:
        return path.relative_to(self.project_dir).as_posix()


def to_records(ctx: RenderContext) -> list[Record]:
    """Sort drafts by time (ties: source, insertion), number ids per source, link supersedes."""
    indexed = sorted(enumerate(ctx.drafts), key=lambda p: (p[1].timestamp, SOURCE_RANK[p[1].source], p[0]))
    counters: dict[str, int] = {}
    records: list[Record] = []
    by_key: dict[str, tuple[str, int]] = {}
    for order, (_, d) in enumerate(indexed):
        counters[d.source] = counters.get(d.source, 0) + 1
        rid = f"{ctx.seed_id}-{d.source.replace('_', '')}-{counters[d.source]:03d}"
        previous = by_key.get(d.supersedes_key) if d.supersedes_key else None
        supersedes = previous[0] if previous else None
        version = max(d.version, previous[1] + 1) if previous else d.version
        if d.doc_key:
            by_key[d.doc_key] = (rid, version)
        records.append(Record(
            id=rid, project=ctx.seed_id, source=d.source,
            modality="visual" if d.source in ("pdf_page", "slide", "image") else "text",
            timestamp=d.timestamp, order=order, author=d.author, channel=d.channel,
            recipients=d.recipients, title=d.title, filename=d.filename, page=d.page, text=d.text, pixel_text=d.pixel_text,
            image_path=d.image_path, doc_id=d.doc_id, version=version, supersedes=supersedes,
            event_ids=d.event_ids, access=d.access, provenance=ctx.provenance(d),
            doc_key=d.doc_key, reply_to=d.reply_to,
        ))
    return records
