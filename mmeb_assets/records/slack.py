"""Slack: one message per scripted channel event (deterministic twin), plus conversational replies."""
from __future__ import annotations

from datetime import datetime, timedelta

from mmeb_assets.records.chatter import chatter_text, first_person
from mmeb_assets.records.context import Draft, RenderContext
from mmeb_assets.records.headers import contains_value, scrub_value, source_header
from mmeb_assets.schema.workspace import Event

P = tuple[str, bool]  # (text, is_value)


def item_ref(ctx: RenderContext, event: Event):
    """The plan item an event is about ('run_03' or 'run_03:Recall@10' refs)."""
    for ref in event.refs:
        item = ctx.item(ref.split(":", 1)[0])
        if item is not None:
            return item
    return None


def _cols_for(ctx: RenderContext, event: Event) -> list[P]:
    """'Recall@10 81.2, MRR 0.611' from the event's item and its must-contain values."""
    item = item_ref(ctx, event)
    wrong = {e.target.split(":", 1)[1]: e.wrong_value for e in ctx.plan.errors
             if e.id in event.refs and item and e.target.startswith(item.id + ":")}
    parts: list[P] = []
    used = set()
    if item:
        for col, val in item.values.items():
            shown = wrong.get(col, val)
            if shown in event.must_contain:
                parts += [(", " if parts else "", False), (f"{col} ", False), (shown, True)]
                used.add(shown)
    rest = [v for v in event.must_contain if v not in used]
    for val in rest:
        parts += [(", " if parts else "", False), (val, True)]
    return parts


def _statement_parts(item, event: Event) -> list[P]:
    """A statement of the source document quoted as the team looks it up: its parts, or its definition."""
    values = list(item.values.items())
    said = [(v, v in event.must_contain) for _c, v in values]
    if item.sentence and item.values and (stated := values[0][1]) in item.sentence:
        before, _, after = item.sentence.partition(stated)
        return [("From the source document: “", False), (before, False), (stated, said[0][1]), (after, False),
                ("”", False)]
    if len(values) == 2:  # components: the parts, then their count
        (aspect, parts), (_count_col, count) = values
        return [(f"Checked the source document: {item.label} consists of ", False), (count, said[1][1]),
                (f" {aspect}: ", False), (parts, said[0][1]), (".", False)]
    if item.label.startswith("the abbreviation "):
        short = item.label.removeprefix("the abbreviation ").strip("'")
        return [(f"From the source document, for our glossary: {short} stands for ", False), said[0], (".", False)]
    term = item.label.removeprefix("the term ").strip("'")
    return [(f"From the source document, for our glossary: {term} refers to ", False), said[0], (".", False)]


def _label(ctx: RenderContext, event: Event) -> str:
    item = item_ref(ctx, event)
    if item:
        return f"{item.label}" + (f" on {item.dataset}" if item.dataset else "")
    return ""


def _error(ctx: RenderContext, event: Event):
    return next((e for e in ctx.plan.errors if e.id in event.refs), None)


def _error_subject(ctx: RenderContext, err) -> str:
    if ":" in err.target:
        item_id, col = err.target.split(":", 1)
        item = ctx.item(item_id)
        return f"{col} for {item.label if item else item_id}"
    inv = next((i for i in ctx.plan.invented if i.id == err.target), None)
    return inv.name if inv else err.target


def _fact_version(ctx: RenderContext, event: Event):
    for fact in ctx.plan.evolving_facts:
        if fact.id in event.refs:
            for n, ver in enumerate(fact.versions):
                if ver.time == event.time and ver.speaker == event.actor:
                    return fact, n
            return fact, None
    return None, None


def compose(ctx: RenderContext, event: Event) -> list[P]:
    """The body of a message as prose/value parts, chosen by event kind."""
    kind = event.kind
    err = _error(ctx, event)
    fact, n = _fact_version(ctx, event)
    if fact is not None and n is not None and kind in ("fact_update", "status_update", "correction"):
        return _fact_parts(fact, n)
    if kind in ("status_update", "welcome"):
        said = chatter_text(event.summary, ctx.style(event.actor), event.id)
        if said is not None:
            return [(said, True)] if event.must_contain else [(said, False)]
    if kind == "error_slipped" and err and item_ref(ctx, event) and _is_restatement(ctx, event):
        return [(f"Recap: {_error_subject(ctx, err)} is ", False), (err.wrong_value, True), (".", False),
                *([(" Other numbers: ", False), *_rest(_cols_for(ctx, event), err.wrong_value), (".", False)]
                  if len(event.must_contain) > 1 else [])]
    elif kind == "error_slipped" and err and not item_ref(ctx, event):
        return [(f"Measured {_error_subject(ctx, err)}: ", False), (err.wrong_value, True), (".", False)]
    if kind == "result_posted" and not event.must_contain and (item := item_ref(ctx, event)) is not None \
            and item.kind == "statement":
        return [(f"Snipped the source passage with {item.label}: see the excerpt below.", False)]
    if kind == "result_posted" and not event.must_contain and _label(ctx, event):
        return [(f"{_label(ctx, event)} finished; the numbers are in the table screenshot below.", False)]
    if kind == "result_posted" and (item := item_ref(ctx, event)) is not None and item.kind == "statement":
        return _statement_parts(item, event)
    if kind in ("result_posted", "error_slipped") and _label(ctx, event):
        return [(f"{_label(ctx, event)} finished: ", False), *_cols_for(ctx, event), (".", False)]
    if kind == "error_noticed" and err:
        return [(f"wait, is {_error_subject(ctx, err)} really ", False), (err.wrong_value, True),
                ("? that doesn't match what I have. can you double-check?", False)]
    if kind == "correction" and err:
        return [(f"Correction on {_error_subject(ctx, err)}: ", False), (err.wrong_value, True),
                (" was wrong, the right value is ", False), (err.correct_value, True),
                (" (", False), (err.wrong_value, True), (" -> ", False), (err.correct_value, True), (").", False)]
    if kind == "decision":
        dec = next((d for d in ctx.plan.decisions if d.id in event.refs), None)
        if dec:
            return [(f"Decision: {dec.title}. ", False), (dec.body, True), (" Reason: ", False),
                    (dec.rationale, True), (".", False)]
    if kind == "invented_fact":
        inv = next((i for i in ctx.plan.invented if i.id in event.refs), None)
        if inv:
            why = inv.rationale.strip().rstrip(".")
            why = why[0].lower() + why[1:] if why else ""
            return [(f"Measured {inv.name}: ", False), *_cols_for(ctx, event),
                    (f". Why it matters: {why}." if why else ".", False)]
    if kind == "document_posted" and event.attachment:
        doc = ctx.document(event.attachment)
        if doc:
            noun = {"report": "the report", "deck": "the deck", "chart_image": "a chart",
                    "table_image": "a table image", "seed_figure": "a figure",
                    "excerpt_image": "an excerpt of the source"}.get(doc.kind, "a file")
            fix = " with the corrected numbers" if doc.version > 1 and doc.reflects_corrections else ""
            return [(f"Sharing {noun}: {doc.title} (v{doc.version}){fix}. Details are in the attachment.", False)]
    if kind == "welcome":
        return [("Welcome aboard! Ping me with any questions about the project.", False)]
    text = first_person(event.summary, ctx.org.person(event.actor).first_name)
    return [(text, bool(event.must_contain))]


def _is_restatement(ctx: RenderContext, event: Event) -> bool:
    """A slip posted after the run's own result (a recap with a wrong number)."""
    item = item_ref(ctx, event)
    return item is not None and event.time > item.completed_at + timedelta(minutes=1)


def _rest(parts: list[P], skip: str) -> list[P]:
    out = [p for p in parts if not (p[1] and p[0] == skip)]
    cleaned: list[P] = []
    for text, is_value in out:
        if not is_value and text == ", " and (not cleaned or cleaned[-1][0] == ", "):
            continue
        cleaned.append((text, is_value))
    while cleaned and cleaned[0][0] == ", ":
        cleaned.pop(0)
    return cleaned


def _fact_parts(fact, n: int) -> list[P]:
    ver = fact.versions[n]
    note = ver.note.strip().rstrip(".")
    tail = [(f". {note}.", False)] if note else [(".", False)]
    subject = fact.subject[0].upper() + fact.subject[1:]
    if fact.pictured:   # the planning sheet's screenshot shows the value (`simulation.pictures`)
        verb = "Set" if n == 0 else "Corrected" if ver.cause in ("correction", "slip") else "Updated"
        return [(f"{verb} the {fact.subject} in the planning sheet, screenshot below", False), *tail]
    if n == 0:
        return [(f"{subject}: ", False), (ver.value, True), *tail]
    prev = fact.versions[n - 1].value
    if ver.cause in ("correction", "slip"):
        return [(f"Correction on the {fact.subject}: ", False), (prev, True), (" was wrong; it is ", False),
                (ver.value, True), *tail]
    return [(f"Update on the {fact.subject}: it moves from ", False), (prev, True), (" to ", False),
            (ver.value, True), *tail]


def finalize(text: str, event: Event) -> str:
    """Guarantee the contract: must-contain verbatim, must-not-contain never written."""
    for value in event.must_not_contain:
        if value not in event.must_contain and contains_value(text, value):
            text = scrub_value(text, value, "(see attachment)")
    missing = [v for v in event.must_contain if not contains_value(text, v)]
    if missing:
        text += " (" + ", ".join(missing) + ")"
    return text


def message_text(ctx: RenderContext, event: Event) -> str:
    light = event.kind in ("status_update", "error_noticed") and not (
        event.kind == "status_update" and event.must_contain)
    dm = event.where.startswith("dm-")
    return finalize(ctx.style(event.actor).shape(compose(ctx, event), event.id, light=light, dm=dm), event)


def event_access(ctx: RenderContext, event: Event, base: list[str]) -> list[str]:
    """The plan's visible_to when given (never wider than the channel rule), else the channel rule."""
    if event.visible_to:
        allowed = set(base) if base else set(ctx.people_ids())
        return ctx.visible_to([p for p in event.visible_to if p in allowed], event.time)
    return base


def slack_draft(ctx: RenderContext, event: Event, text: str, *, generator: str = "rules",
                prompt_hash: str = "", model: str = "") -> Draft:
    author = ctx.name(event.actor)
    header = source_header("slack", event.time, author=author, channel=event.where)
    access = event_access(ctx, event, ctx.channel_access(event.where, event.time))
    return Draft(source="slack", timestamp=event.time, text=f"{header}\n{text}", author=event.actor,
                 channel=event.where, event_ids=[event.id], access=access, reply_to=event.reply_to,
                 doc_id=event.attachment or "", generator=generator, prompt_hash=prompt_hash, model=model)


def is_slack_event(ctx: RenderContext, event: Event) -> bool:
    return any(c.id == event.where for c in ctx.org.channels)


def replies(ctx: RenderContext, budget: int) -> list[Draft]:
    """Short reactions by other channel members, spread over the busiest events, no values."""
    events = [e for e in ctx.plan.events if is_slack_event(ctx, e)]
    out: list[Draft] = []
    rounds = 0
    while len(out) < budget and events and rounds < 6:
        for event in events:
            if len(out) >= budget:
                break
            when = event.time + timedelta(minutes=3 + 4 * rounds + (hash_int(event.id) % 3))
            members = [m for m in ctx.channel_access(event.where, when) if m != event.actor]
            if not members:
                continue
            who = members[(hash_int(event.id) + rounds) % len(members)]
            if rounds and who in {d.author for d in out if d.reply_to == event.id}:
                continue
            style = ctx.style(who)
            text = style.ack(f"{event.id}:{rounds}", event.kind)
            label = _label(ctx, event)
            if label and rounds == 0:
                text += f" re {label}"
            if style.lowercase:
                text = text.lower()
            header = source_header("slack", when, author=ctx.name(who), channel=event.where)
            out.append(Draft(source="slack", timestamp=when, text=f"{header}\n{text}", author=who,
                             channel=event.where, access=ctx.channel_access(event.where, when),
                             reply_to=event.id))
        rounds += 1
    return out


def hash_int(text: str) -> int:
    import hashlib

    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)


def day_of(when: datetime) -> str:
    return when.strftime("%Y-%m-%d")
