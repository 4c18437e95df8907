"""Events that realize the scripted content: results, errors, facts, versions, decisions, documents."""
from __future__ import annotations

import re

from mmeb_assets.schema.workspace import (
    Decision, DocumentPlan, EvolvingFact, InventedFact, PlanItem, ScriptedError,
)
from mmeb_assets.simulation.events import EventBook


def _fmt_values(values: dict[str, str]) -> str:
    return ", ".join(f"{k} {v}" for k, v in values.items())


def item_events(book: EventBook, items: list[PlanItem], errors: list[ScriptedError], channels: dict[str, str],
                docs: list[DocumentPlan], lag_h: float) -> None:
    org = book.org
    wrong_by_item = {}
    for e in errors:
        if ":" in e.target:
            wrong_by_item.setdefault(e.target.split(":")[0], []).append(e)
    logs = {d.item_ids[0]: d for d in docs if d.kind == "run_log"}
    for it in items:
        if it.pictured:
            _pictured_result(book, it, channels)
            continue
        book.add(f"result:{it.id}", it.completed_at, it.owner, "result_posted", channels["results"],
                 f"{org.person(it.owner).first_name} posts the result of {it.label}: {_fmt_values(it.values)}",
                 must=list(it.values.values()), refs=[it.id] + ([logs[it.id].id] if it.id in logs else []),
                 core=book.rng.choice(["{l} is done: {v}.", "Numbers for {l}: {v}.", "Finished {l} - {v}."]).format(
                     l=it.label, v=_fmt_values(it.values)))
        errs = wrong_by_item.get(it.id, [])
        values = dict(it.values)
        if errs:
            e = min(errs, key=lambda x: x.slipped_at)
            col = e.target.split(":", 1)[1]
            values[col] = e.wrong_value
            when = book.later(e.slipped_at, 0.25)
            book.add(f"notion:{it.id}", when, e.slipped_by if e.slipped_by != org.late_joiner_id else org.pm_id,
                     "notion_update", "notion", f"Results log entry for {it.label} copied from the recap, "
                     f"{col} entered as {e.wrong_value}", must=list(values.values()), must_not=[e.correct_value],
                     refs=[it.id, e.id], title=log_title(it.label),
                     core=f"Results log - {it.label}: {_fmt_values(values)}. Source: recap in #{e.slip_channel}.")
        else:
            book.add(f"notion:{it.id}", book.later(it.completed_at, 1.0 + book.rng.random() * 2.5), org.pm_id,
                     "notion_update", "notion", f"Results log entry for {it.label}: {_fmt_values(values)}",
                     must=list(values.values()), refs=[it.id], title=log_title(it.label),
                     core=f"Results log - {it.label}: {_fmt_values(values)}. Owner: {org.person(it.owner).name}.")


def log_title(label: str) -> str:
    """The results log page of an item: 'Results log: Woodsend'; a figure named by its sentence's words
    titles its page by those words, not by a quote inside a quote."""
    window = re.fullmatch(r"the figure in '(.+)'", label.strip())
    return f"Results log: {window.group(1) if window else label}"


def ops_title(name: str) -> str:
    """A metric's operations page: one per metric, so two metrics never share a page title."""
    return f"Operations metrics: {name}"


def _pictured_result(book: EventBook, it: PlanItem, channels: dict[str, str]) -> None:
    """A result shared as a table screenshot (`pictures`): the post and the results log name the item
    and point at the image; the values are only in its pixels."""
    from mmeb_assets.simulation.plan import policed_pixel_value  # plan imports this module
    # only distinctive values are forbidden to text: a row's unit ('minutes') or a year cell is said
    # everywhere for other reasons; the renderers leave all of a pictured row's cells out anyway
    org, hidden = book.org, [v for v in it.values.values() if policed_pixel_value(v)]
    book.add(f"result:{it.id}", it.completed_at, it.owner, "result_posted", channels["results"],
             f"{org.person(it.owner).first_name} posts the result of {it.label} as a table screenshot",
             must_not=hidden, refs=[it.id],
             core=book.rng.choice(["{l} is done - numbers in the screenshot below.", "Screenshot of the {l} "
                                   "results below.", "Finished {l}; the table is in the image."]).format(l=it.label))
    book.add(f"notion:{it.id}", book.later(it.completed_at, 1.0 + book.rng.random() * 2.5), org.pm_id,
             "notion_update", "notion", f"Results log entry for {it.label}: see the screenshot in "
             f"#{channels['results']}", must_not=hidden, refs=[it.id], title=log_title(it.label),
             core=f"Results log - {it.label}: figures in the screenshot shared in #{channels['results']}. "
                  f"Owner: {org.person(it.owner).name}.")


def error_events(book: EventBook, errors: list[ScriptedError], lag_h: float, describe, page_title) -> None:
    org = book.org
    for e in errors:
        what = describe(e.target)
        book.add(f"slip:{e.id}", e.slipped_at, e.slipped_by, "error_slipped", e.slip_channel,
                 f"{org.person(e.slipped_by).first_name} restates {what} as {e.wrong_value} "
                 f"({e.kind.replace('_', ' ')} slip)", must=[e.wrong_value], must_not=[e.correct_value], refs=[e.id, e.target],
                 core=book.rng.choice(["Recap for the summary: {w} is {x}.", "Noting down {w}: {x}.",
                                       "For the write-up, {w} = {x}."]).format(w=what, x=e.wrong_value))
        dm = e.notice_channel.startswith("dm-")
        book.add(f"notice:{e.id}", e.noticed_at, e.noticed_by, "error_noticed", e.notice_channel,
                 f"{org.person(e.noticed_by).first_name} questions the {e.wrong_value} for {what}"
                 + (" in a DM" if dm else ""), must=[e.wrong_value], refs=[e.id, e.target],
                 recipients=[e.slipped_by] if dm else [], reply_to=f"slip:{e.id}" if not dm else "",
                 core=f"Wait, is {e.wrong_value} right for {what}? That does not match what I have.")
        book.add(f"fix:{e.id}", e.fixed_at, e.slipped_by, "correction", e.fix_channel,
                 f"{org.person(e.slipped_by).first_name} corrects {what}: {e.wrong_value} -> {e.correct_value}",
                 must=[e.wrong_value, e.correct_value], refs=[e.id, e.target], reply_to=f"slip:{e.id}",
                 core=f"Correction: {what} is {e.correct_value}, not {e.wrong_value}. My mistake ({e.wrong_value} -> "
                      f"{e.correct_value}).")
        notion_at = book.later(e.fixed_at, lag_h)
        book.add(f"notion-fix:{e.id}", notion_at, org.pm_id, "notion_update", "notion",
                 f"Notion entry for {what} updated from {e.wrong_value} to {e.correct_value}, "
                 f"{lag_h:g} working hours after the Slack correction",
                 must=[e.correct_value, e.wrong_value], refs=[e.id, e.target], title=page_title(e.target),
                 core=f"Updated: {what} = {e.correct_value} (was {e.wrong_value}, corrected in #{e.fix_channel}).")


def invented_events(book: EventBook, invented: list[InventedFact], errors: list[ScriptedError]) -> None:
    wrong = {e.target: e for e in errors}
    for f in invented:
        book.add(f"inv:{f.id}", f.time, f.owner, "invented_fact", f.channel,
                 f"{book.org.person(f.owner).first_name} reports the {f.name}: {f.display}",
                 must=[f.display], refs=[f.id],
                 core=book.rng.choice(["Measured the {n}: {d}.", "The {n} came out at {d}.", "Got the {n}: {d}."]).format(
                     n=f.name, d=f.display))
        e = wrong.get(f.id)
        shown = e.wrong_value if e else f.display
        when = book.later(e.slipped_at, 0.3) if e else book.later(f.time, 1.5)
        book.add(f"notion:{f.id}", when, book.org.pm_id, "notion_update", "notion",
                 f"Operations metrics page: {f.name} {shown}", must=[shown], refs=[f.id] + ([e.id] if e else []),
                 title=ops_title(f.name), core=f"Operations metrics - {f.name}: {shown}. Owner: "
                                                  f"{book.org.person(f.owner).name}.")


def evolving_events(book: EventBook, facts: list[EvolvingFact], lag_h: float) -> None:
    org = book.org
    for f in facts:
        for n, v in enumerate(f.versions):
            if f.pictured:   # the value is in the attached sheet screenshot only (`pictures`)
                sheet = f"sheet_{f.id}_v{n + 1}"
                book.add(f"evo:{f.id}:{n}", v.time, v.speaker, "fact_update", v.channel,
                         f"{org.person(v.speaker).first_name} shares the updated {f.subject} sheet. {v.note}",
                         must_not=[v.value], refs=[f.id, sheet], attachment=sheet, title=f"{f.subject} sheet",
                         core=f"Updated the {f.subject} in the planning sheet, screenshot attached. {v.note}")
                continue
            book.add(f"evo:{f.id}:{n}", v.time, v.speaker, "fact_update", v.channel,
                     f"{org.person(v.speaker).first_name} states the {f.subject}: {v.value}. {v.note}",
                     must=[v.value], refs=[f.id], core=_version_core(f.subject, v))
        first, last = f.versions[0], f.versions[-1]
        book.add(f"notion-evo:{f.id}:0", book.later(first.time, 2.0), org.pm_id, "notion_update", "notion",
                 f"Status board: {f.subject} = {first.value}", must=[first.value], refs=[f.id],
                 title=f"Status board: {f.subject}", core=f"Status board - {f.subject}: {first.value}.")
        end = book.later(last.time, lag_h)
        if len(f.versions) > 1 and end < org.window_end:
            book.add(f"notion-evo:{f.id}:1", end, org.pm_id, "notion_update", "notion",
                     f"Status board: {f.subject} updated to {last.value}", must=[last.value], refs=[f.id],
                     title=f"Status board: {f.subject}", core=f"Status board - {f.subject}: {last.value}.")


def decision_events(book: EventBook, decisions: list[Decision]) -> None:
    for d in decisions:
        book.add(f"dec:{d.id}", d.time, d.decided_by, "decision", d.channel,
                 f"Decision: {d.title}. {d.body} Why: {d.rationale}", must=d.cites, refs=[d.id],
                 core=f"Decision: {d.title}. {d.body} Why: {d.rationale}")
        book.add(f"notion-dec:{d.id}", book.later(d.time, 1.2), book.org.pm_id, "notion_update", "notion",
                 f"Decision log: {d.title} - {d.rationale}", must=d.cites, refs=[d.id], title="Decision log",
                 core=f"Decision log - {d.title}. {d.body} Rationale: {d.rationale} Decided by "
                      f"{book.org.person(d.decided_by).name}.")


def document_events(book: EventBook, docs: list[DocumentPlan], pixel_values: dict[str, list[str]]) -> None:
    org = book.org
    for d in docs:
        if d.doc_key.startswith("sheet_"):
            continue  # a planning sheet is attached to the fact update that states it (`evolving_events`)
        who = org.person(d.author).first_name
        hidden = pixel_values.get(d.id, [])
        if d.kind == "notion_tracker":
            book.add(f"doc:{d.id}", d.time, d.author, "notion_update", "notion",
                     f"{who} updates the {d.title} (version {d.version})", refs=[d.id, *d.item_ids],
                     attachment=d.id, title=d.title, must_not=hidden, core=f"{d.title} updated (version {d.version}).")
        elif d.kind == "run_log":
            book.add(f"doc:{d.id}", d.time, d.author, "log_written", "files", f"{d.filename} written by the run",
                     refs=[d.id, *d.item_ids], attachment=d.id, title=d.filename, core=f"{d.filename} written.")
        else:
            state = (" (corrected)" if d.version > 1 else "") + (
                "; later results marked pending" if d.pending_item_ids else "")
            book.add(f"doc:{d.id}", book.later(d.time, 0.05), d.author, "document_posted", d.where,
                     f"{who} shares {d.title} v{d.version}{state}", refs=[d.id, *d.error_ids_shown_wrong],
                     attachment=d.id, title=d.title, must_not=hidden, core=_doc_core(d))


def _version_core(subject: str, v) -> str:
    if v.cause == "initial":
        return f"Setting this down: the {subject} is {v.value}. {v.note}"
    if v.cause == "correction":
        return f"Correction on the {subject}: it is {v.value}. {v.note}"
    return f"Update on the {subject}: now {v.value}. {v.note}"


def _doc_core(d: DocumentPlan) -> str:
    what = {"report": "the report", "deck": "the deck", "chart_image": "a chart", "table_image": "a table image",
            "seed_figure": "a figure",
            "excerpt_image": "an excerpt of the source"}.get(d.kind, d.kind)
    extra = " Later results are marked pending." if d.pending_item_ids else ""
    fixed = " This version has the corrections in." if d.version > 1 and d.reflects_corrections else ""
    return f"Sharing {what}: {d.title} (v{d.version}), see attachment.{extra}{fixed}"
