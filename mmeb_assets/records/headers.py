"""Source headers that open every record's stored text, and small value-matching helpers."""
from __future__ import annotations

import re
from datetime import datetime

SOURCE_LABEL = {
    "slack": "Slack", "email": "Email", "notion": "Notion", "meeting": "Meeting notes",
    "txt": "TXT", "log": "LOG", "pdf_page": "PDF", "slide": "Slide", "image": "Image",
}


def stamp(when: datetime) -> str:
    """'2026-08-27 14:12' — minutes only, the workspace's own clock (no time zone)."""
    return when.strftime("%Y-%m-%d %H:%M")


def channel_label(channel_id: str) -> str:
    if channel_id.startswith("dm-"):
        return "DM " + " / ".join(channel_id[3:].split("-"))
    return f"#{channel_id}"


def source_header(source: str, when: datetime, *, author: str = "", channel: str = "", title: str = "",
                  page: int | None = None, recipients: list[str] | None = None) -> str:
    """e.g. '[Slack #results] Maya Draper — 2026-08-27 14:12' or '[PDF Aurora report v2 p. 3] ...'."""
    label = SOURCE_LABEL[source]
    where = ""
    if channel:
        where = " " + channel_label(channel)
    elif title:
        where = " " + title
    if page is not None:
        where += f" p. {page}"
    head = f"[{label}{where}]"
    who = f" {author}" if author else ""
    to = f" to {', '.join(recipients)}" if recipients else ""
    return f"{head}{who}{to} — {stamp(when)}"


def contains_value(text: str, value: str) -> bool:
    """True when `value` occurs verbatim and is not part of a longer number or word.

    Not `qa.text.contains_value`, on purpose: the records checks and renderers hold the text to the
    event's exact value (must-contain values are copied verbatim, case and thousands separators
    included), and a pixel-only '250' must not count as written where the text says '3,250'. The qa
    helper is lenient for paraphrased questions and answers (any case, '3,500' ~ '3500', a '250'
    after a comma, the value stripped); using it here would pass drafts that reword a value and fail
    ones that only share its digits."""
    if not value:
        return False
    pattern = _bounded(value) if value[0].isalnum() else re.escape(value) + r"(?![\w]|[.,]\d)"
    return re.search(pattern, text) is not None


def scrub_value(text: str, value: str, replacement: str) -> str:
    """Replace every bounded occurrence of `value` by `replacement`."""
    return re.sub(_bounded(value), replacement, text)


def _bounded(value: str) -> str:
    """`value` not inside a longer number or word: '250' is not in '3,250' nor in '250.5'."""
    return r"(?<![\w.])(?<!\d,)" + re.escape(value) + r"(?![\w]|[.,]\d)"
