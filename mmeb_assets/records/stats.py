"""Workspace statistics in the shape of the paper's Table 3 (b): records by source, text vs visual,
record versions, and tokens of stored text."""
from __future__ import annotations

import re
from collections import Counter

from pydantic import BaseModel, Field

from mmeb_assets.schema.common import Provenance
from mmeb_assets.schema.records import RecordSet

TEXT_ROWS = [("Slack messages", ("slack",)), ("Notion entries", ("notion",)), ("Email", ("email",)),
             ("Meeting notes", ("meeting",)), ("TXT / LOG", ("txt", "log"))]
VISUAL_ROWS = [("PDF pages", ("pdf_page",)), ("Standalone images", ("image",)), ("Slides", ("slide",))]
TOKEN = re.compile(r"\w+|[^\w\s]")
TOKENS_METHOD = "regex word/punctuation pieces (\\w+|[^\\w\\s]) of stored text"


def count_tokens(text: str) -> int:
    return len(TOKEN.findall(text))


class WorkspaceStats(BaseModel):
    """One project's (or the corpus's) Table 3 (b) block."""

    projects: list[str]
    text: dict[str, int] = Field(description="Slack messages, Notion entries, Email, Meeting notes, TXT / LOG")
    visual: dict[str, int] = Field(description="PDF pages, Standalone images, Slides")
    textual_records: int
    visual_records: int
    retrieval_records: int
    record_versions: int = Field(description="document versions after the first (v2+) kept beside earlier ones")
    versions_by_kind: dict[str, int] = Field(default={}, description="PDFs, presentations, images, Notion, logs")
    superseding_records: int = 0
    tokens_text: int = 0
    tokens_visual: int = 0
    tokens_total: int = 0
    tokens_method: str = TOKENS_METHOD
    provenance: Provenance | None = None

    def markdown(self) -> str:
        rows = [f"| Text | {k} | {v} |" for k, v in self.text.items()]
        rows += [f"| Visual | {k} | {v} |" for k, v in self.visual.items()]
        return "\n".join(["| | Source | Records |", "|---|---|---|", *rows,
                          f"| | textual | {self.textual_records} |", f"| | visual | {self.visual_records} |",
                          f"| | Retrieval records | {self.retrieval_records} |",
                          f"| | Record versions | {self.record_versions} |",
                          f"| | Tokens (text / visual) | {self.tokens_text} / {self.tokens_visual} |"])


def _version_kind(source: str) -> str:
    return {"pdf_page": "PDFs", "slide": "presentations", "image": "images", "notion": "Notion"}.get(source, source)


def workspace_stats(sets: list[RecordSet], provenance: Provenance | None = None) -> WorkspaceStats:
    by_source = Counter(r.source for rs in sets for r in rs.records)
    versions: dict[str, set] = {}
    for rs in sets:
        for r in rs.records:
            if r.version > 1:
                key = r.doc_id or r.doc_key.split(":")[0] + f"#v{r.version}"
                versions.setdefault(_version_kind(r.source), set()).add((rs.seed_id, key))
    text = {label: sum(by_source[s] for s in srcs) for label, srcs in TEXT_ROWS}
    visual = {label: sum(by_source[s] for s in srcs) for label, srcs in VISUAL_ROWS}
    tok_t = sum(count_tokens(r.text) for rs in sets for r in rs.records if r.modality == "text")
    tok_v = sum(count_tokens(r.text) for rs in sets for r in rs.records if r.modality == "visual")
    by_kind = {k: len(v) for k, v in sorted(versions.items())}
    return WorkspaceStats(
        projects=[rs.seed_id for rs in sets], text=text, visual=visual, textual_records=sum(text.values()),
        visual_records=sum(visual.values()), retrieval_records=sum(text.values()) + sum(visual.values()),
        record_versions=sum(by_kind.values()), versions_by_kind=by_kind,
        superseding_records=sum(1 for rs in sets for r in rs.records if r.supersedes),
        tokens_text=tok_t, tokens_visual=tok_v, tokens_total=tok_t + tok_v, provenance=provenance)
