"""The answering input, as the paper lays it out.

Retrieved records are shown ordered by timestamp, then stored order, then id; each record's stored
text (which starts with its source header and metadata); for vision models a visual record's text is
followed by its image; the question comes last, after "Question:". Records are fenced as data: each
sits between `<record n=..>` and `</record>` inside one `<records>` block, and anything in a record's
text that looks like those tags (or like the question marker on its own line) is defanged, so a
record cannot close its fence and speak as the user or the system prompt. When a model's prompt budget
(`max_prompt_tokens`) cannot hold all k records, the lowest-ranked ones are left out first and the
answer records which.
"""
from __future__ import annotations

import base64
import mimetypes
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from mmeb_assets.judge.readers import presentation_order
from mmeb_assets.prompts import PromptTemplate
from mmeb_assets.schema.records import Record

RECORDS_MARK = "\x00RECORDS\x00"
ImageLoader = Callable[[Record], str | None]


@dataclass
class AnswerPrompt:
    messages: list[dict]
    record_ids: list[str]
    dropped_ids: list[str] = field(default_factory=list)
    images: int = 0
    text_only: bool = True


def estimate_tokens(text: str) -> int:
    """A deterministic, tokenizer-free estimate (about 4 characters per token)."""
    return len(text) // 4 + 1


FENCE_LOOKALIKE = re.compile(r"<\s*(/?)\s*(records?)\b", re.IGNORECASE)
QUESTION_LOOKALIKE = re.compile(r"^(\s*)(question\s*:)", re.IGNORECASE | re.MULTILINE)


def escape_record_text(text: str) -> str:
    """Record text with fence look-alikes defanged: `<record>` / `</records>` become `‹record›`-style
    text (visible, not a tag) and a line starting with "Question:" is quoted."""
    text = FENCE_LOOKALIKE.sub(lambda m: f"‹{m.group(1)}{m.group(2)}", text)
    return QUESTION_LOOKALIKE.sub(lambda m: f"{m.group(1)}> {m.group(2)}", text)


def record_block(index: int, record: Record) -> str:
    return f'<record n="{index}">\n{escape_record_text(record.text.strip())}\n</record>'


def fit_budget(ranked: list[Record], budget_tokens: int | None, overhead_tokens: int) -> tuple[list[Record], list[str]]:
    """The longest prefix of the ranking that fits; the rest is dropped (ids returned).

    A prefix, so a capped model sees the same records at k=50 as at k=10 once the budget is full
    (and the response cache answers the repeat).
    """
    if not budget_tokens:
        return list(ranked), []
    used = overhead_tokens
    for index, record in enumerate(ranked):
        used += estimate_tokens(record_block(0, record)) + 2
        if used > budget_tokens:
            return list(ranked[:index]), [r.id for r in ranked[index:]]
    return list(ranked), []


def image_data_url(path: Path) -> str | None:
    if not path.exists():
        return None
    mime = mimetypes.guess_type(path.name)[0] or "image/png"
    return f"data:{mime};base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def project_image_loader(project_dir: Callable[[str], Path]) -> ImageLoader:
    """Images live at `projects/<seed>/<image_path>`."""

    def load(record: Record) -> str | None:
        if not record.image_path:
            return None
        return image_data_url(project_dir(record.project) / record.image_path)

    return load


def build_answer_prompt(template: PromptTemplate, question: str, ranked: list[Record], *, vision: bool,
                        image_loader: ImageLoader | None = None,
                        max_prompt_tokens: int | None = None) -> AnswerPrompt:
    """Messages for one question; `ranked` is best first (retrieval order) or the gold evidence."""
    system, user = template.render(records=RECORDS_MARK, question=question)
    prefix, _, suffix = user.partition(RECORDS_MARK)
    overhead = estimate_tokens(system) + estimate_tokens(prefix) + estimate_tokens(suffix) + 16
    kept, dropped = fit_budget(ranked, max_prompt_tokens, overhead)
    ordered = presentation_order(kept)
    blocks = [record_block(i, r) for i, r in enumerate(ordered, 1)]
    images = 0
    if not vision:
        content: str | list[dict] = prefix + "\n\n".join(blocks) + suffix
    else:
        parts: list[dict] = []
        lead = prefix  # the opening <records> line rides with the first record's text
        for block, record in zip(blocks, ordered):
            parts.append({"type": "text", "text": lead + block + "\n"})
            lead = ""
            url = image_loader(record) if (image_loader and record.modality == "visual") else None
            if url:
                parts.append({"type": "image_url", "image_url": {"url": url}})
                images += 1
        parts.append({"type": "text", "text": (lead + suffix).lstrip()})
        content = parts
    messages = [{"role": "system", "content": system}, {"role": "user", "content": content}]
    return AnswerPrompt(messages=messages, record_ids=[r.id for r in ordered], dropped_ids=dropped,
                        images=images, text_only=not vision)
