"""Meetings, e-mails, the welcome, and the everyday Slack traffic that makes a week feel real."""
from __future__ import annotations

from mmeb_assets.schema.workspace import DocumentPlan, EvolvingFact, PlanItem, ScriptedError
from mmeb_assets.simulation.events import EventBook
from mmeb_assets.simulation.organization import general_channel
from mmeb_assets.simulation.timeline import worktime

NO_WHERE = ("email", "notion", "meeting", "files")


def core_ids(book: EventBook) -> list[str]:
    return [p.id for p in book.org.people if p.id != book.org.late_joiner_id]


def meetings_and_emails(book: EventBook, anchors, items: list[PlanItem], docs: list[DocumentPlan],
                        evolving: list[EvolvingFact], errors: list[ScriptedError]) -> None:
    org, cfg = book.org, book.config
    joiner = org.person(org.late_joiner_id)
    core = core_ids(book)

    def present(when) -> list[str]:
        return [joiner.id] if when >= joiner.joined_at else []

    book.add("meet:kickoff", cfg.day(0, 10, 30), org.lead_id, "meeting", "meeting",
             f"Kickoff for {org.project_codename}: scope, owners and milestones", recipients=core,
             title=f"{org.project_codename} kickoff",
             core=f"Kickoff notes. Scope: {org.project_sentence} Milestones: {org.milestone_a.name} "
                  f"({org.milestone_a.due:%a %-d %b}) and {org.milestone_b.name} ({org.milestone_b.due:%a %-d %b}).")
    book.add("mail:kickoff", cfg.day(0, 11, 40), org.pm_id, "customer_email", "email",
             f"{org.person(org.pm_id).first_name} confirms the week's plan with {org.customer.contact}",
             recipients=["customer"], title=f"{org.project_codename}: plan for this week",
             core=f"Dear {org.customer.contact.split()[0]}, here is our plan for the week: {org.project_sentence} "
                  f"We will deliver at {org.milestone_b.name}.")
    book.add("welcome:slack", joiner.joined_at, org.pm_id, "welcome", general_channel(org),
             f"{org.person(org.pm_id).first_name} welcomes {joiner.first_name} to the team", recipients=[joiner.id],
             core=f"Please welcome {joiner.name}, who joins us as {joiner.role}!")
    book.add("welcome:mail", book.later(joiner.joined_at, 0.1), org.pm_id, "welcome", "email",
             f"Welcome e-mail to {joiner.first_name}: channels, tracker, first task", recipients=[joiner.id],
             title=f"Welcome to {org.company_name}",
             core=f"Welcome, {joiner.first_name}! You have access to the public channels and the tracker in Notion. "
                  f"First task: {joiner.owns}.")
    reviews_and_delivery(book, anchors, items, docs, evolving, core, present)


def reviews_and_delivery(book: EventBook, anchors, items, docs, evolving, core: list[str], present) -> None:
    """Report v1 circulation and review, milestone A, the customer status and the delivery."""
    org, cfg = book.org, book.config
    report = {d.id: d for d in docs}
    v1, v2 = report.get("report_v1"), report.get("report_v2")
    if v1:
        book.add("mail:report_v1", book.later(v1.time, 0.1), v1.author, "status_update", "email",
                 f"{org.person(v1.author).first_name} circulates report v1 for comments", attachment=v1.id,
                 recipients=[org.lead_id, org.pm_id], refs=[v1.id], title=f"{v1.title} v1 for review",
                 core="Attached is the first version of the report for comments. Some results are still pending.")
        when = book.later(v1.time, 2.0)
        book.add("meet:review", when, org.lead_id, "meeting", "meeting",
                 "Mid-week review of report v1 and open questions", recipients=core + present(when), refs=[v1.id],
                 title="Mid-week review",
                 core="Review of report v1: open questions on the numbers, owners for each fix, pending results.")
    ma = org.milestone_a.due
    rel = [i for i in items if i.kind == "release"]
    headline = [v for v in rel[0].values.values() if any(ch.isdigit() for ch in v)][:3] if rel else []
    book.add("meet:milestone_a", ma, org.lead_id, "meeting", "meeting", f"{org.milestone_a.name}",
             recipients=core + present(ma), refs=[i.id for i in rel] + ([v2.id] if v2 else []),
             must=headline, title=org.milestone_a.name,
             core=f"{org.milestone_a.name}: walked through report v2." + (
                 f" Headline for {rel[0].label}: {', '.join(headline)}." if headline else ""))
    deadline = next((f for f in evolving if f.kind == "deadline"), None)
    when = worktime(cfg, anchors.report_v2 + 0.01)
    dv = deadline.value_at(when) if deadline else None
    book.add("mail:status", when, org.pm_id, "customer_email", "email",
             f"Status to {org.customer.contact}: on track" + (f"; pre-read by {dv.value}" if dv else ""),
             recipients=["customer"], must=[dv.value] if dv else [], refs=[deadline.id] if deadline else [],
             title=f"{org.project_codename}: status",
             core="We are on track." + (f" The pre-read will reach you by {dv.value}." if dv else ""))
    deck2 = report.get("deck_v2")
    mb = org.milestone_b.due
    book.add("mail:delivery", mb, org.pm_id, "customer_email", "email",
             f"Delivery of {org.milestone_b.name} with the final report and deck", recipients=["customer", org.lead_id],
             attachment=v2.id if v2 else None, refs=[d for d in ("report_v2", "deck_v2") if d in report],
             title=f"{org.project_codename}: delivery",
             core=f"Please find attached the final report and deck for {org.milestone_b.name}.")
    if deck2:
        book.add("meet:delivery", book.later(mb, 0.5), org.pm_id, "meeting", "meeting",
                 f"Delivery call with {org.customer.contact} walking through the deck", refs=[deck2.id],
                 recipients=[org.lead_id, org.report_author_id, "customer"], title="Customer delivery call",
                 core=f"Call with {org.customer.contact}: walked through the deck, questions noted for follow-up.")


STANDUP = ["{who} plans the day around {label}", "{who} is on {label} today", "{who} picks up {label} next",
           "{who} finishes prep for {label}", "{who} reviews yesterday's numbers and moves on to {label}"]
STANDUP_CORE = ["Today I am on {label}.", "Plan for today: {label}, then reviews.", "Picking up {label} next.",
                "Prepping {label} this morning.", "Going through yesterday's notes, then {label}."]
REACT = ["{who} reacts to {label}", "{who} asks a follow-up on {label}", "{who} thanks {owner} for {label}"]
REACT_CORE = ["Nice, {label} looks solid.", "Thanks {owner}! Is {label} final or still moving?",
              "Looks good - adding {label} to the tracker.", "Interesting. Any surprises in {label}?",
              "Great work on {label}, {owner}."]


def standups(book: EventBook, items: list[PlanItem], channel: str) -> None:
    org, cfg, rng = book.org, book.config, book.rng
    for day in range(cfg.days):
        start = cfg.day(day, 9, 5)
        upcoming = [i for i in items if i.completed_at >= start] or items
        for k, person in enumerate(org.people):
            if person.joined_at and start < person.joined_at.replace(hour=0):
                continue
            when = cfg.day(day, 9, 5 + 4 * k + rng.randint(0, 3))
            if person.joined_at and when <= person.joined_at:
                when = book.later(person.joined_at, 0.3)
            mine = [i for i in upcoming if i.owner == person.id] or upcoming
            item = mine[0]
            k_ = rng.randrange(len(STANDUP))
            book.add(f"standup:{day}:{person.id}", when, person.id, "status_update", channel,
                     STANDUP[k_].format(who=person.first_name, label=item.label), refs=[item.id],
                     core=STANDUP_CORE[k_].format(label=item.label))
        book.add(f"eod:{day}", cfg.day(day, 18, 10), org.pm_id, "status_update", general_channel(org),
                 f"{org.person(org.pm_id).first_name} wraps up day {day + 1}",
                 core=rng.choice(["That's a wrap for today, thanks all.", "Good progress today. See you tomorrow.",
                                  "Wrapping up - open items are in the tracker."]))


def reactions(book: EventBook, items: list[PlanItem], channel: str, budget: int) -> None:
    org, rng = book.org, book.rng
    members = org.channel(channel).members
    made = 0
    for it in items:
        for round_ in range(2):
            if made >= budget:
                return
            who = rng.choice([m for m in members if m != it.owner])
            when = book.later(it.completed_at, 0.1 + 0.25 * round_ + rng.random() * 0.2)
            joined = org.person(who).joined_at
            if joined and when < joined:
                continue
            book.add(f"react:{it.id}:{round_}", when, who, "status_update", channel,
                     rng.choice(REACT).format(who=org.person(who).first_name, label=it.label,
                                              owner=org.person(it.owner).first_name),
                     refs=[it.id], reply_to=f"result:{it.id}", must_not=[],
                     core=rng.choice(REACT_CORE).format(label=it.label, owner=org.person(it.owner).first_name))
            made += 1


def questions(book: EventBook, items: list[PlanItem], errors: list[ScriptedError], channel: str, budget: int) -> None:
    """Someone asks for a value later in the week; the owner restates it (after any fix of it)."""
    org, rng = book.org, book.rng
    fixed = {}
    for e in errors:
        fixed[e.target.split(":")[0]] = max(fixed.get(e.target.split(":")[0], e.fixed_at), e.fixed_at)
    members = org.channel(channel).members
    made = 0
    for it in sorted(items, key=lambda i: rng.random()):
        if made >= budget:
            return
        if not it.values or it.pictured:   # a pictured result's values stay in its screenshot
            continue
        col, value = rng.choice(sorted(it.values.items()))
        when = book.later(max(it.completed_at, fixed.get(it.id, it.completed_at)), 3 + rng.random() * 10)
        if when >= org.window_end:
            continue
        asker = rng.choice([m for m in members if m != it.owner and (not org.person(m).joined_at
                                                                    or org.person(m).joined_at < when)])
        book.add(f"ask:{it.id}", when, asker, "status_update", channel,
                 f"{org.person(asker).first_name} asks what {col} was for {it.label}", refs=[it.id],
                 core=f"Quick question: what was {col} for {it.label}?")
        book.add(f"answer:{it.id}", book.later(when, 0.15), it.owner, "status_update", channel,
                 f"{org.person(it.owner).first_name} answers: {col} {value} for {it.label}", must=[value],
                 refs=[it.id], reply_to=f"ask:{it.id}", core=f"{col} for {it.label} is {value}.")
        made += 2


DM_TOPICS = ["coordinates who reviews the next draft", "checks whether the numbers are final",
             "asks for a quick call about the schedule", "shares a note on the customer's last e-mail",
             "asks where the latest tracker lives", "offers to pair on the write-up"]
DM_CORE = ["Can you review the next draft?", "Are the numbers final, or still moving?", "Got a minute for a call?",
           "Saw the customer's last e-mail - a note on it when you have time.", "Where does the latest tracker live?",
           "Want to pair on the write-up later?"]


def dms(book: EventBook, budget: int) -> None:
    org, cfg, rng = book.org, book.config, book.rng
    dms_ = [c for c in org.channels if c.access == "dm"]
    for n in range(budget):
        chan = dms_[n % len(dms_)]
        a, b = chan.members if rng.random() < 0.5 else list(reversed(chan.members))
        k_ = rng.randrange(len(DM_TOPICS))
        when = worktime(cfg, rng.uniform(0.02, 0.95))
        joined = [org.person(x).joined_at for x in (a, b) if org.person(x).joined_at]
        if joined and when < joined[0]:
            when = book.later(joined[0], 0.5 + rng.random() * 20)
            if when >= org.window_end:
                continue
        book.add(f"dm:{n}", when, a, "status_update", chan.id,
                 f"{org.person(a).first_name} {DM_TOPICS[k_]}", recipients=[b], core=DM_CORE[k_])
        book.add(f"dm-re:{n}", book.later(when, 0.1), b, "status_update", chan.id,
                 f"{org.person(b).first_name} replies to {org.person(a).first_name}", recipients=[a],
                 reply_to=f"dm:{n}", core=rng.choice(["Sure, works for me.", "Yes - give me ten minutes.",
                                                      "Got it, thanks.", "Can we do it after lunch?"]))
