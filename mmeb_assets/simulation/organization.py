"""The organization of one project: company, customer, milestones, team, channels, late joiner."""
from __future__ import annotations

import re

from mmeb_assets.schema.source import SourceFacts
from mmeb_assets.schema.workspace import Channel, Customer, Milestone, Organization, Person
from mmeb_assets.simulation import names
from mmeb_assets.simulation.checks_org import BANNED
from mmeb_assets.simulation.config import SimulationConfig, rng_for, slot_time
from mmeb_assets.simulation.drafts import ChannelDraft, MilestoneDraft, OrgDraft, PersonDraft, Slot
from mmeb_assets.simulation.terms import terms

CORE_ROLES = {
    "research_lab": [("lead", "ML lead"), ("pm", "Product manager"), ("author", "Research engineer"),
                     ("other", "Data engineer"), ("other", "Applied scientist"), ("other", "MLOps engineer"),
                     ("other", "Evaluation engineer")],
    "analysis_firm": [("lead", "Engagement lead"), ("pm", "Project manager"), ("author", "Senior analyst"),
                      ("other", "Data analyst"), ("other", "Modelling economist"), ("other", "Research associate"),
                      ("other", "Visualisation specialist")],
}
JOINER_ROLE = {"research_lab": "Junior ML engineer", "analysis_firm": "Junior analyst"}
SIZES = ["fourteen-person", "twenty-person", "thirty-five-person", "fifty-person", "small"]


def _internal_name(facts: SourceFacts, codename: str, archetype: str) -> str:
    method = facts.textual.method_name.strip()
    # the name goes into the product and project sentence, which carry no digit (no result may leak early)
    if archetype == "research_lab" and method and len(method) <= 24 and re.fullmatch(r"[^\W\d_][\w\- .+]*", method) \
            and not re.search(r"\d", method) and not BANNED.search(method):
        return method
    return codename if archetype == "analysis_firm" else f"{codename} engine"


def _owns(role_key: str, role: str, facts: SourceFacts, t: dict, steps: list[str], k: int) -> str:
    comps = facts.textual.components or [t["V_items"]]
    if role_key == "lead":
        return f"technical direction of the {t['V_system_word']} and the go/no-go call for the customer milestone"
    if role_key == "pm":
        return "the customer relationship, the week's schedule and the Notion tracker"
    if role_key == "author":
        return f"the {t['V_deliverable']} and the review deck"
    step = steps[k % len(steps)] if steps else f"the {comps[k % len(comps)]} work"
    return f"{step.rstrip('.')} ({role.lower()} work on {comps[k % len(comps)]})"


def _people(rng, random_seed: int, facts: SourceFacts, config: SimulationConfig, archetype: str) -> list[PersonDraft]:
    t = terms(archetype)
    full = names.project_people_names(random_seed, config.n_people)
    roles = CORE_ROLES[archetype][:config.n_people - 1] + [("joiner", JOINER_ROLE[archetype])]
    voices = list(names.VOICES)
    rng.shuffle(voices)
    steps = list(facts.textual.pipeline_steps)
    people = []
    for k, ((key, role), name) in enumerate(zip(roles, full)):
        owns = ("shadowing the team and taking over small follow-ups after joining" if key == "joiner"
                else _owns(key, role, facts, t, steps, k))
        people.append(PersonDraft(id=names.ascii_slug(name.split()[0]), name=name, role=role, owns=owns,
                                  voice=voices[k % len(voices)][1], colour=names.COLOURS[k % len(names.COLOURS)]))
    return people


def is_leads(channel_id: str) -> bool:
    return channel_id == "leads" or channel_id.endswith("-leads")


def general_channel(org: Organization) -> str:
    """The company-wide channel ('<company>-general'; 'general' in older or LLM-drafted plans)."""
    ids = [c.id for c in org.channels]
    return next((c for c in ids if c == "general" or c.endswith("-general")), "general")


def leads_channel(org: Organization) -> str:
    return next((c.id for c in org.channels if is_leads(c.id)), "leads")


def dm_id(a: str, b: str) -> str:
    x, y = sorted([a, b])
    return f"dm-{x}-{y}"


def dm_between(org, a: str, b: str) -> str | None:
    """The id of the DM channel between two people, if the project has one."""
    pair = sorted([a, b])
    return next((c.id for c in org.channels if c.access == "dm" and sorted(c.members) == pair), None)


def _channels(people: list[PersonDraft], code: str, archetype: str, customer_slug: str,
              company_slug: str) -> list[ChannelDraft]:
    """Every named channel carries the project's code or company slug, so no two projects share one
    (a DM is named by its two people's ids, as Slack shows it)."""
    t = terms(archetype)
    ids = [p.id for p in people]
    lead, pm, author, *others = ids[:-1]
    joiner = ids[-1]
    core = [i for i in ids if i != joiner]
    chans = [
        ChannelDraft(id=f"{company_slug}-general", purpose="company-wide announcements and daily chatter", members=ids, access="public"),
        ChannelDraft(id=f"{code}-{t['results_word']}", purpose=f"{t['V_items']} and their numbers as they land",
                     members=ids, access="public"),
        ChannelDraft(id=f"{code}-{t['work_word']}", purpose=f"day-to-day {t['work_word']} work, configs and measurements",
                     members=core, access="restricted"),
        ChannelDraft(id=f"{code}-leads", purpose="scope, decisions and customer commitments", members=[lead, pm, author],
                     access="restricted"),
        ChannelDraft(id=f"{code}-{customer_slug}", purpose="preparing what goes to the customer",
                     members=[lead, pm, author], access="restricted"),
    ]
    pairs = [(lead, pm), (pm, author), (author, others[0]), (lead, author), (others[0], others[-1]),
             (joiner, author)]
    seen = set()
    for a, b in pairs:
        if a != b and dm_id(a, b) not in seen:
            seen.add(dm_id(a, b))
            chans.append(ChannelDraft(id=dm_id(a, b), purpose="direct messages", members=sorted([a, b]), access="dm"))
    return chans


def rules_org_draft(facts: SourceFacts, archetype: str, *, random_seed: int, config: SimulationConfig) -> OrgDraft:
    """The deterministic twin of the team-and-channel step."""
    rng = rng_for(random_seed, "organization")
    t = terms(archetype)
    company = names.company_name(random_seed, archetype)
    codename = names.codename(random_seed)
    code = names.ascii_slug(codename)
    customer = names.customer_name(random_seed)
    # the contact takes the project's last name slot: distinct from the team and from other projects
    contact = names.project_people_names(random_seed, names.PEOPLE_PER_PROJECT)[-1]
    people = _people(rng, random_seed, facts, config, archetype)
    customer_slug = names.ascii_slug(customer.split()[0])
    internal = _internal_name(facts, codename, archetype)
    city, size = rng.choice(names.CITIES), rng.choice(SIZES)
    what = ("applied-ML studio" if archetype == "research_lab" else "research and analysis consultancy")
    domain_work = re.sub(r"\s*\d[\d\-–/.,]*", "", facts.domain or facts.textual.task_summary[:60]).strip() or "its domain"
    if BANNED.search(domain_work):
        domain_work = "its domain"
    what_it_does = facts.textual.one_sentence.rstrip(".")
    if BANNED.search(what_it_does) or len(what_it_does) > 160 or re.search(r"\d", what_it_does):
        # a number here would leak a result before it is scheduled
        what_it_does = f"applied to {domain_work.lower()}"
    return OrgDraft(
        company_name=company,
        tagline=f"{size} {what} in {city} working on {domain_work.lower()}",
        product=(f"{internal}, delivered as a hosted service and on-prem build to operations teams"
                 if archetype == "research_lab" else
                 "commissioned analyses and indicator dashboards for public bodies and operators"),
        project_codename=codename,
        project_sentence=(f"This week the team finishes the {codename} {t['V_deliverable']} on the internal "
                          f"{t['V_system_word']} {internal} ({what_it_does}) for {customer}."),
        internal_model_name=internal,
        customer_name=customer,
        customer_contact=contact,
        customer_contact_email=f"{names.ascii_slug(contact).replace('-', '.')}@{names.domain_for(customer)}",
        milestone_a=MilestoneDraft(name=f"{codename} internal review", day=config.days - 3, time="15:00"),
        milestone_b=MilestoneDraft(name=f"{codename} delivery to {customer}", day=config.days - 1, time="16:00"),
        people=people,
        channels=_channels(people, code, archetype, customer_slug, names.ascii_slug(company)),
        late_joiner_id=people[-1].id,
        late_joiner_joins=Slot(day=config.late_joiner_day, time="10:00"),
        lead_id=people[0].id, pm_id=people[1].id, report_author_id=people[2].id,
    )


def org_from_draft(draft: OrgDraft, *, seed_id: str, archetype: str, reason: str, config: SimulationConfig,
                   provenance) -> Organization:
    domain = names.domain_for(draft.company_name)
    joined = slot_time(config, draft.late_joiner_joins.day, draft.late_joiner_joins.time)
    people = [Person(id=p.id, name=p.name, role=p.role, owns=p.owns, voice=p.voice, colour=p.colour,
                     email=f"{names.ascii_slug(p.name).replace('-', '.')}@{domain}",
                     joined_at=joined if p.id == draft.late_joiner_id else None) for p in draft.people]
    return Organization(
        seed_id=seed_id, provenance=provenance, archetype=archetype, archetype_reason=reason,
        company_name=draft.company_name, tagline=draft.tagline, product=draft.product,
        project_codename=draft.project_codename, project_sentence=draft.project_sentence,
        internal_model_name=draft.internal_model_name,
        customer=Customer(name=draft.customer_name, contact=draft.customer_contact, email=draft.customer_contact_email),
        milestone_a=Milestone(name=draft.milestone_a.name, kind="internal",
                              due=slot_time(config, draft.milestone_a.day, draft.milestone_a.time)),
        milestone_b=Milestone(name=draft.milestone_b.name, kind="external",
                              due=slot_time(config, draft.milestone_b.day, draft.milestone_b.time)),
        people=people,
        channels=[Channel(id=c.id, purpose=c.purpose, members=c.members, access=c.access) for c in draft.channels],
        late_joiner_id=draft.late_joiner_id, lead_id=draft.lead_id, pm_id=draft.pm_id,
        report_author_id=draft.report_author_id, window_start=config.start, window_end=config.end,
    )
