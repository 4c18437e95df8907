"""Server-rendered HTML of the annotation app. Every record, question and comment text is
untrusted and goes through `html.escape`; URLs are built from quoted ids only.

Nothing here reads the automatic validation: items come in blinded (see sampling.blind_item).
"""
from __future__ import annotations

from html import escape
from urllib.parse import quote

from mmeb_assets.annotation.db import Judgment
from mmeb_assets.schema.records import VISUAL_SOURCES, Record

APPLICATIONS = {
    "slack": "Slack", "email": "Email", "notion": "Notion", "meeting": "Meeting transcript", "txt": "Text file",
    "log": "Log file", "pdf_page": "PDF", "slide": "Slides", "image": "Image",
}
C1_LABELS = (("yes", "Yes"), ("no", "No"), ("cannot_judge", "Cannot judge"))
C3_LABELS = (("absent", "Yes, kept out"), ("present", "No, the question gives it away"))
KEYS = {"c1": "123", "c2": "456", "c3": "78"}  # a key per choice, in the order the choices are shown
KEY_HINT = ("Keys: 1-3 C1 &middot; 4-6 C2 &middot; 7-8 C3 &middot; s save &middot; n / p next / previous "
            "&middot; k skip &middot; c clear")


def e(value: object) -> str:
    return escape("" if value is None else str(value), quote=True)


def page(title: str, body: str) -> str:
    return ("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{e(title)}</title><link rel='stylesheet' href='/static/app.css'></head>"
            f"<body>{body}<script src='/static/app.js'></script></body></html>")


def error_page(status: int, reason: str, message: str, link: tuple[str, str] | None = None) -> str:
    back = f"<a id='error-link' href='{e(link[0])}'>{e(link[1])}</a> &middot; " if link else ""
    return page(f"{status} {reason}", f"<main class='error'><h1>{status} {e(reason)}</h1>"
                f"<p id='error-message'>{e(message)}</p><p>{back}<a href='/'>Back to the start page</a></p></main>")


def index_page(progress: list[tuple[str, int]], total: int) -> str:
    """No sampling notes here: they count accepted/rejected items, which annotators should not see."""
    rows = "".join(f"<li><a class='annotator' href='/a/{quote(name, safe='')}/'>{e(name)}</a> "
                   f"<span class='muted'>{done} of {total} judged</span></li>" for name, done in progress)
    overall = sum(done for _, done in progress)
    wanted = total * len(progress)
    return page("MMEB human validation", "<main><h1>MMEB human validation</h1>"
                f"<p>{total} items in the sample. Choose your name to continue where you left off. "
                f"<a href='/guidelines'>Guidelines</a>.</p>"
                f"<p id='overall'>Overall: {overall} of {wanted} judgments made.</p>"
                f"<ul class='annotators'>{rows}</ul></main>")


def done_page(annotator: str, total: int) -> str:
    return page("All items judged", f"<main><h1>Thank you, {e(annotator)}</h1>"
                f"<p id='done'>All {total} items of the sample are judged. You can still revisit any item "
                f"from the <a href='/a/{quote(annotator, safe='')}/item-list'>item list</a>.</p></main>")


def item_list_page(annotator: str, items: list[tuple[int, str, bool, str]]) -> str:
    """The sample, filtered in the page by status and task (app.js)."""
    base = f"/a/{quote(annotator, safe='')}"
    rows = "".join(f"<li data-status='{'judged' if done else 'open'}' data-task='{e(task)}'>"
                   f"<a href='{base}/item/{quote(i, safe='')}'>#{pos} {e(i)}</a> <span class='muted'>{e(task)}</span> "
                   f"{'<span class=saved>judged</span>' if done else ''}</li>" for pos, i, done, task in items)
    tasks = "".join(f"<option value='{e(t)}'>{e(t)}</option>" for t in sorted({task for *_, task in items if task}))
    judged = sum(1 for _, _, done, _ in items if done)
    filters = ("<p class='filters'><label>Status <select id='filter-status'><option value=''>all</option>"
               "<option value='open'>not judged</option><option value='judged'>judged</option></select></label> "
               f"<label>Task <select id='filter-task'><option value=''>all</option>{tasks}</select></label> "
               f"<span id='list-count' class='muted'></span></p>")
    return page("Items", f"<main><h1>Items for {e(annotator)}</h1><p>{judged} of {len(items)} judged.</p>{filters}"
                f"<ol id='item-list' class='plain'>{rows}</ol></main>")


def _meta(record: Record) -> str:
    parts = [("Application", APPLICATIONS.get(record.source, record.source)), ("File", record.filename),
             ("Title", record.title if record.title != record.filename else ""), ("Page", record.page),
             ("Author", record.author), ("To", ", ".join(record.recipients)), ("Channel", record.channel),
             ("Time", record.timestamp.isoformat(sep=" ", timespec="minutes")),
             ("Version", record.version if record.version > 1 else "")]
    return "".join(f"<span class='meta-{e(k.lower())}'><b>{e(k)}:</b> {e(v)}</span>"
                   for k, v in parts if v not in (None, ""))


def _name(record: Record) -> str:
    return f"{APPLICATIONS.get(record.source, record.source)} · {record.filename or record.title or record.id}"


def _snippet(text: str, limit: int = 140) -> str:
    """The first lines after the source header, shortened: enough to scan the browser closed."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    body = " ".join(lines[1:] if len(lines) > 1 else lines)
    return body if len(body) <= limit else body[: limit - 1] + "…"


def _image(project: str, record: Record) -> str:
    if record.source not in VISUAL_SOURCES or not record.image_path:
        return ""
    src = f"/image/{quote(project, safe='')}/{quote(record.id, safe='')}"
    return (f"<a class='zoom' href='{src}' target='_blank' rel='noopener' title='open full size'>"
            f"<img class='record-image' loading='lazy' src='{src}' alt='image of {e(record.id)}'></a>")


def evidence_cards(project: str, cited: list[str], records: dict[str, Record]) -> str:
    cards = []
    for number, record_id in enumerate(cited, start=1):
        record = records.get(record_id)
        if record is None:
            cards.append(f"<details class='card missing'><summary>Evidence {number}: {e(record_id)} "
                         f"(not found in the project's records)</summary></details>")
            continue
        cards.append(
            f"<details class='card' open id='card-{e(record.id)}' data-record='{e(record.id)}'>"
            f"<summary><span class='card-title'>Evidence {number}: {e(_name(record))}</span>"
            f"<span class='card-meta'>{_meta(record)}</span></summary>"
            f"<div class='card-body'><pre class='record-text'>{e(record.text)}</pre>{_image(project, record)}"
            f"<p class='muted'>Record id: {e(record.id)}</p></div></details>")
    return "".join(cards) or ("<p class='muted' id='no-evidence'>This item cites no evidence records (an "
                              "unanswerable question): for C1, judge whether the records, searched on the right, "
                              "leave the question unanswered, as the reference says. See the "
                              "<a href='/guidelines'>guidelines</a>.</p>")


def source_browser(project: str, records: list[Record], cited: set[str]) -> str:
    entries = []
    for record in sorted(records, key=lambda r: (r.timestamp, r.order, r.id)):
        haystack = " ".join([record.text, record.filename, record.title, record.author, record.channel, record.id,
                             APPLICATIONS.get(record.source, record.source)]).lower()
        klass = "source cited" if record.id in cited else "source"
        badge = "<span class='badge'>cited evidence</span>" if record.id in cited else ""
        entries.append(
            f"<li class='{klass}' data-record='{e(record.id)}' data-search='{e(haystack)}'>"
            f"<details><summary>{badge}<span class='card-title'>{e(_name(record))}</span>"
            f"<span class='card-meta'>{_meta(record)}</span><span class='snippet'>{e(_snippet(record.text))}</span>"
            "</summary>"
            f"<pre class='record-text'>{e(record.text)}</pre>{_image(project, record)}</details></li>")
    return ("<section class='browser' aria-label='Source browser'><h2>Source browser</h2>"
            "<input id='source-search' type='search' placeholder='Search all records of the project' "
            "autocomplete='off'> <span id='source-count' class='muted'></span>"
            f"<ul id='source-list' class='plain'>{''.join(entries)}</ul></section>")


def _radios(name: str, options: tuple[tuple[str, str], ...], chosen: str | None) -> str:
    """A required radio group (the browser asks before sending; the server checks again); each choice
    shows the key that picks it."""
    return "".join(f"<label><input type='radio' name='{name}' value='{value}' required data-key='{key}'"
                   f"{' checked' if chosen == value else ''}> <kbd>{key}</kbd> {label}</label>"
                   for (value, label), key in zip(options, KEYS[name]))


def assessment_panel(action: str, saved: Judgment | None, form_token: str = "") -> str:
    status = (f"<p id='saved-status' class='saved' data-revision='{saved.revision}'>Saved (revision "
              f"{saved.revision}): C1 {e(saved.c1)}, C2 {e(saved.c2)}, C3 {e(saved.c3)}. You may change and save "
              "again.</p>" if saved else "<p id='saved-status' class='muted' data-revision='0'>Not judged yet.</p>")
    return (f"<section class='panel' aria-label='Assessment'><h2>Assessment</h2>{status}"
            f"<form id='assessment' method='post' action='{action}'>"
            f"<input type='hidden' name='base_revision' value='{saved.revision if saved else 0}'>"
            f"<input type='hidden' name='form_token' value='{e(form_token)}'>"
            "<fieldset><legend>C1: Can the reference answer be derived using only the cited evidence?</legend>"
            f"{_radios('c1', C1_LABELS, saved.c1 if saved else None)}</fieldset>"
            "<fieldset><legend>C2: Is the reference answer correct for what the question asks?</legend>"
            f"{_radios('c2', C1_LABELS, saved.c2 if saved else None)}</fieldset>"
            "<fieldset><legend>C3: Does the question keep the requested answer out of its own text? (premise "
            "values, values being questioned and run ids are not a leak)</legend>"
            f"{_radios('c3', C3_LABELS, saved.c3 if saved else None)}</fieldset>"
            "<label class='block'>Comment (optional)<textarea name='comment' id='comment' rows='3' maxlength='4000'>"
            f"{e(saved.comment if saved else '')}</textarea></label>"
            "<button type='submit' id='save'>Save and next</button> "
            "<button type='button' id='clear'>Clear</button>"
            f"<p class='muted keys'>{KEY_HINT} &middot; <a href='/guidelines'>guidelines</a></p>"
            "<p id='draft-status' class='muted' hidden></p></form></section>")


def item_page(*, annotator: str, position: int, total: int, done: int, item: dict, records: list[Record],
              saved: Judgment | None, prev_id: str | None, next_id: str | None, form_token: str = "") -> str:
    base = f"/a/{quote(annotator, safe='')}"
    by_id = {r.id: r for r in records}
    cited = cited_ids(item)
    nav = "".join([
        f"<a id='prev' href='{base}/item/{quote(prev_id, safe='')}'>&larr; previous</a>" if prev_id else "",
        f"<a href='{base}/item-list'>all items</a>",
        f"<a id='next' href='{base}/item/{quote(next_id, safe='')}'>next &rarr;</a>" if next_id else "",
        "<a href='/guidelines'>guidelines</a>"])
    gold = item.get("gold", {})
    body = (
        f"<header><span>Annotator <b id='annotator'>{e(annotator)}</b></span>"
        f"<span id='position'>Item {position} of {total} &middot; {done} judged</span><nav>{nav}</nav></header>"
        f"<main class='layout'><div class='left'>"
        f"<section class='question'><h2>Question</h2><p id='question'>{e(item.get('q'))}</p></section>"
        f"<section class='reference'><h2>Reference answer</h2><p id='reference-answer'>{e(gold.get('answer'))}</p>"
        f"</section><section class='evidence'><h2>Cited evidence ({len(cited)})</h2>"
        f"{evidence_cards(item.get('project', ''), cited, by_id)}</section>"
        f"{assessment_panel(f'{base}/item/' + quote(item['id'], safe=''), saved, form_token)}</div>"
        f"<div class='right'>{source_browser(item.get('project', ''), records, set(cited))}</div></main>")
    return page(f"Item {position} of {total}", body)


def cited_ids(item: dict) -> list[str]:
    """The representative evidence set, else the union of the evidence paths, in first-seen order."""
    ids = list(item.get("evidence") or [])
    if not ids:
        for path in item.get("evidence_paths") or []:
            ids.extend(path)
    return list(dict.fromkeys(ids))
