"""Rules twin of 'changes in work status': owner, deadline, option, budget/size, name, in versions."""
from __future__ import annotations

import random

from mmeb_assets.schema.source import SourceFacts
from mmeb_assets.schema.workspace import EvolvingFact, FactVersion, Organization
from mmeb_assets.simulation.config import SimulationConfig, slot_time
from mmeb_assets.simulation.drafts import EvolvingDraft, VersionDraft
from mmeb_assets.simulation.schedule import Anchors, _slot
from mmeb_assets.simulation.seed_work import SeedWork
from mmeb_assets.simulation.timeline import worktime

# Subjects name the project's own work, drawn from its seed (`SeedWork`: the method or report it builds
# on, a part of the document the team reviews), else its customer: the retrieval workspace holds every
# project, so a subject shared by all projects of an archetype would ask about 30 different facts.
OPTIONS = {
    "research_lab": ("hosting option for the {work} pilot", ["single on-prem GPU node", "managed cloud endpoint",
                                                      "customer VPC deployment"]),
    "analysis_firm": ("format of the {work} deliverable", ["slide deck only", "written report plus deck",
                                                           "report, deck and indicator dashboard"]),
}
# (subject, value format, (low, high, step)): the three values are drawn per project, so no value or
# change ("1,200 -> 1,500 respondents") recurs across projects for a model to learn.
BUDGET = {"research_lab": ("GPU budget for the final {work} sweep", "{:,} GPU-hours", (80, 400, 10)),
          "analysis_firm": ("fieldwork budget for the {work} study", "EUR {:,}", (12000, 60000, 500))}
SIZE = {"research_lab": ("evaluation sample for the {work} demo", "{:,} queries", (1000, 8000, 250)),
        "analysis_firm": ("survey sample size for the {work} study", "{:,} respondents", (600, 4000, 50))}


def drawn_values(rng: random.Random, fmt: str, low: int, high: int, step: int) -> list[str]:
    """Three distinct round amounts in [low, high] (a plan states budgets and sizes in round steps)."""
    picks = rng.sample(range(low // step, high // step + 1), 3)
    return [fmt.format(p * step) for p in picks]


def fmt_deadline(when) -> str:
    return when.strftime("%a %-d %b, %H:%M")


def _v(config, frac, channel, speaker, value, note, cause) -> VersionDraft:
    return VersionDraft(value=value, at=_slot(config, frac), channel=channel, speaker=speaker, note=note, cause=cause)


def _the(name: str) -> str:
    """'the Framework' stays; 'Risk tolerance' -> 'the Risk tolerance' (no 'the the')."""
    return name[0].lower() + name[1:] if name.lower().startswith("the ") else f"the {name}"


class EvolvingPlanner:
    def __init__(self, org: Organization, config: SimulationConfig, anchors: Anchors, rng: random.Random,
                 channels: dict[str, str], seed_work: SeedWork | None = None):
        self.org, self.config, self.a, self.rng, self.ch = org, config, anchors, rng, channels
        seed_work = seed_work or SeedWork()
        self.work = seed_work.work or org.customer.name
        self.part = seed_work.part
        workers = [p.id for p in org.people if p.id not in (org.lead_id, org.pm_id, org.late_joiner_id)]
        self.workers = workers

    def name(self, pid: str) -> str:
        return self.org.person(pid).name

    def owner(self) -> EvolvingDraft:
        org, u = self.org, self.rng.uniform
        first, second = self.workers[0], self.workers[-1] if len(self.workers) > 1 else org.lead_id
        subject = (f"owner of {_the(self.part)} review for {self.work}" if self.part
                   else f"owner of the {self.work} acceptance checklist")
        # an early joiner (late_joiner_day 1 of a long window) still takes the checklist last
        start = u(0.02, 0.06)
        moved = u(0.25, self.a.joiner - 0.03) if self.a.joiner > 0.3 else u(0.08, 0.12)
        taken = max(self.a.joiner + u(0.05, 0.09), moved + 0.03)
        task = f"{_the(self.part)} review" if self.part else "the acceptance checklist"
        vs = [_v(self.config, start, self.ch["results"], org.pm_id, self.name(first),
                 f"{org.person(first).first_name} takes {task} to start with.", "initial"),
              _v(self.config, moved, self.ch["leads"], org.lead_id, self.name(second),
                 f"{org.person(first).first_name} is needed on the runs, so {task} moves.", "change"),
              _v(self.config, taken, self.ch["results"], org.pm_id,
                 self.name(org.late_joiner_id), f"The new joiner takes {task} as a first task.", "change")]
        return EvolvingDraft(id="", kind="owner", subject=subject, versions=vs)

    def deadline(self) -> EvolvingDraft:
        org, u = self.org, self.rng.uniform
        pre_read = worktime(self.config, self.a.milestone_b - 0.14).replace(hour=12, minute=0)
        moved = worktime(self.config, self.a.milestone_b - 0.14 + 1 / self.config.days).replace(hour=10, minute=0)
        wrong = pre_read.replace(hour=9, minute=0)
        subject = f"deadline for the {self.work} pre-read sent to {org.customer.contact}"
        vs = [_v(self.config, u(0.03, 0.08), self.ch["customer"], org.pm_id, fmt_deadline(pre_read),
                 "Pre-read goes out a day before the delivery.", "initial"),
              _v(self.config, u(0.22, 0.3), self.ch["results"], org.report_author_id, fmt_deadline(wrong),
                 "Misremembered the pre-read time in the status.", "slip"),
              _v(self.config, u(0.32, 0.36), self.ch["results"], org.pm_id, fmt_deadline(pre_read),
                 "Corrects the pre-read time back to noon.", "correction")]
        if self.rng.random() < 0.5 and moved < org.milestone_b.due:
            vs.append(_v(self.config, u(self.a.report_v2 + 0.01, self.a.deck_v2 - 0.02), self.ch["customer"],
                         org.pm_id, fmt_deadline(moved), "The customer asked to receive it later.", "change"))
        return EvolvingDraft(id="", kind="deadline", subject=subject, versions=vs)

    def _sequence(self, kind: str, spec: tuple[str, list[str]], speaker: str, channel: str, lo: float,
                  hi: float) -> EvolvingDraft:
        """Two to four versions at drawn times; values cycle through the spec's (a settled value may return)."""
        subject, values = spec[0].format(customer=self.org.customer.name, work=self.work), spec[1]
        n = self.rng.choice([2, 2, 3, 3, 4])
        fracs = sorted(self.rng.uniform(lo, hi) for _ in range(n))
        for i in range(1, n):
            fracs[i] = max(fracs[i], fracs[i - 1] + 0.02)
        notes = ["Starting point for the week.", "Changed after this week's numbers came in.",
                 "Settled after the review.", "Revisited once more before the delivery."]
        picked = [values[i % len(values)] for i in range(n)]
        for i in range(1, n):
            if picked[i] == picked[i - 1] or (i == n - 1 and picked[i] == picked[0]):
                picked[i] = next((v for v in values if v not in (picked[i - 1], picked[0])), picked[i])
        vs = [_v(self.config, f, channel, speaker if i != 1 else self.org.lead_id, picked[i], notes[i],
                 "initial" if i == 0 else "change") for i, f in enumerate(fracs)]
        return EvolvingDraft(id="", kind=kind, subject=subject, versions=vs)

    def option(self) -> EvolvingDraft:
        template, values = OPTIONS[self.org.archetype]
        subject = template.format(customer=self.org.customer.name, work=self.work)
        first, last = self.rng.sample(values, 2)
        return self._sequence("option", (subject, [first, last, first]), self.org.lead_id, self.ch["leads"], 0.05,
                              self.a.report_v2 - 0.05)

    def budget_or_size(self, kind: str) -> EvolvingDraft:
        subject, fmt, (low, high, step) = (BUDGET if kind == "budget" else SIZE)[self.org.archetype]
        spec = (subject, drawn_values(self.rng, fmt, low, high, step))
        return self._sequence(kind, spec, self.org.pm_id if kind == "budget" else self.workers[0],
                              self.ch["leads"] if kind == "budget" else self.ch["work"], 0.06, 0.7)

    def name_fact(self) -> EvolvingDraft:
        code = self.org.project_codename
        subject = (f"name of the {self.work} build shown to {self.org.customer.name}" if self.org.archetype == "research_lab"
                   else f"title of the {self.work} report for {self.org.customer.name}"
                   if self.work != self.org.customer.name else f"title of the report for {self.work}")
        values = ([f"{code} Preview", f"{code} Pilot", f"{code} Pilot Edition"] if self.org.archetype == "research_lab"
                  else [f"{code} Interim Findings", f"{code} Outlook Brief", f"{code} Outlook"])
        return self._sequence("name", (subject, values), self.org.pm_id, self.ch["customer"], 0.1, 0.8)


def rules_evolving(org: Organization, config: SimulationConfig, anchors: Anchors, rng: random.Random,
                   channels: dict[str, str], facts: SourceFacts | None = None) -> list[EvolvingDraft]:
    """Which facts drift is drawn per project (kinds and their order), as are how often and when each
    moves (`_sequence`), so no two projects share a drift history."""
    planner = EvolvingPlanner(org, config, anchors, rng, channels, SeedWork.of(facts))
    first_kind = rng.choice(["budget", "size"])
    builders = {"owner": planner.owner, "deadline": planner.deadline, "option": planner.option,
                first_kind: lambda: planner.budget_or_size(first_kind), "name": planner.name_fact,
                "other": lambda: planner.budget_or_size("size" if first_kind == "budget" else "budget")}
    # one numeric fact (budget or size) always drifts: the fact-change computation and comparison
    # questions need it (a text-only seed may have no other computation); the rest are drawn
    others = [k for k in builders if k != first_kind]
    rng.shuffle(others)
    kinds = others[:max(config.n_evolving_facts - 1, 0)]
    kinds.insert(rng.randrange(len(kinds) + 1), first_kind)
    out = []
    for n, kind in enumerate(kinds[:config.n_evolving_facts], start=1):
        fact = builders[kind]()
        fact.id = f"evo_{n:02d}"
        out.append(fact)
    return out


def assemble_evolving(drafts: list[EvolvingDraft], config: SimulationConfig) -> list[EvolvingFact]:
    return [EvolvingFact(id=d.id, kind=d.kind, subject=d.subject, versions=[
        FactVersion(value=v.value, time=slot_time(config, v.at.day, v.at.time), channel=v.channel,
                    speaker=v.speaker, note=v.note, cause=v.cause) for v in d.versions]) for d in drafts]
