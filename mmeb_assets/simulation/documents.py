"""The document schedule: report and deck versions, Notion tracker versions, images, run logs."""
from __future__ import annotations

import random
from datetime import datetime, timedelta

from mmeb_assets.schema.source import SourceFacts
from mmeb_assets.schema.workspace import (
    Decision, DocumentPlan, EvolvingFact, InventedFact, Organization, PlanItem, ScriptedError,
)
from mmeb_assets.simulation.config import SimulationConfig
from mmeb_assets.simulation.names import ascii_slug
from mmeb_assets.simulation.schedule import Anchors, fmt_number
from mmeb_assets.simulation.timeline import after, worktime


def shown_wrong(errors: list[ScriptedError], when: datetime, lag_h: float, config: SimulationConfig,
                targets: set[str]) -> list[str]:
    """Errors whose wrong value a document made at `when` still shows (Notion picks fixes up `lag_h` late)."""
    out = []
    for e in errors:
        fixed_seen = after(config, e.fixed_at, lag_h) if lag_h else e.fixed_at
        if e.target.split(":")[0] in targets and e.slipped_at <= when < fixed_seen:
            out.append(e.id)
    return out


def excerpt_title(label: str) -> str:
    """"the figure in 'The salt SHALL be at least … bits'" -> "Source excerpt: 'The salt SHALL be at
    least … bits'"."""
    return f"Source excerpt: {label.removeprefix('the figure in ')}"


class DocumentPlanner:
    def __init__(self, facts: SourceFacts, org: Organization, items: list[PlanItem], invented: list[InventedFact],
                 errors: list[ScriptedError], decisions: list[Decision], evolving: list[EvolvingFact],
                 config: SimulationConfig, anchors: Anchors, rng: random.Random, channels: dict[str, str]):
        self.facts, self.org, self.items, self.invented = facts, org, items, invented
        self.errors, self.decisions, self.evolving = errors, decisions, evolving
        self.config, self.a, self.rng, self.ch = config, anchors, rng, channels
        self.docs: list[DocumentPlan] = []

    def at(self, frac: float) -> datetime:
        return worktime(self.config, frac)

    def targets(self) -> set[str]:
        return {i.id for i in self.items} | {f.id for f in self.invented}

    def versioned(self, key: str, kind: str, title: str, author: str, times: list[datetime], where: str,
                  lag_h: float = 0.0, **extra) -> list[DocumentPlan]:
        out = []
        code = self.org.project_codename
        if code.lower() not in title.lower():   # titles are per project: the workspace holds every project
            title = f"{code}: {title}"
        for n, when in enumerate(times, start=1):
            as_of = after(self.config, when, -lag_h) if lag_h else when
            done = [i.id for i in self.items if i.completed_at <= when]
            item_ids = extra.get("item_ids", done)
            if kind in ("report", "deck", "notion_tracker"):
                item_ids = done
            wrong = shown_wrong(self.errors, when, lag_h, self.config, set(item_ids) | {
                f.id for f in self.invented if f.time <= when})
            doc = DocumentPlan(
                id=f"{key}_v{n}", doc_key=key, kind=kind, version=n, title=title, author=author, time=when,
                reflects_corrections=not wrong, item_ids=item_ids,
                pending_item_ids=[i.id for i in self.items if i.id not in item_ids] if kind in ("report", "deck") else [],
                error_ids_shown_wrong=wrong, where=where, supersedes=f"{key}_v{n - 1}" if n > 1 else None,
                as_of=as_of, invented_ids=[f.id for f in self.invented if f.time <= as_of] if kind != "chart_image" else [],
                decision_ids=[d.id for d in self.decisions if d.time <= as_of] if kind != "chart_image" else [],
                fact_values={f.id: v.value for f in self.evolving if (v := f.value_at(as_of))}
                if kind == "notion_tracker" else {},
                figure_ids=extra.get("figure_ids", []), table_id=extra.get("table_id", ""),
                filename=extra.get("filename", ""), description=extra.get("description", ""))
            out.append(doc)
        self.docs += out
        return out

    def reports_and_decks(self) -> None:
        org, a = self.org, self.a
        figs = [f.id for f in self.facts.figures][:4]
        self.versioned("report", "report", f"{org.project_codename} {self.word('V_deliverable')}", org.report_author_id,
                       [self.at(a.report_v1), self.at(a.report_v2)], self.ch["results"], figure_ids=figs,
                       filename=f"{ascii_slug(org.project_codename).replace('-', '_')}_report.pdf")
        self.versioned("deck", "deck", f"{org.project_codename} review deck", org.report_author_id,
                       [self.at(a.deck_v1), self.at(a.deck_v2)], self.ch["customer"], figure_ids=figs[:2],
                       filename=f"{ascii_slug(org.project_codename).replace('-', '_')}_review.pptx")

    def word(self, key: str) -> str:
        from mmeb_assets.simulation.terms import terms
        return terms(self.org.archetype)[key]

    def trackers(self) -> None:
        lag = self.config.notion_lag_hours
        errs = sorted(self.errors, key=lambda e: e.slipped_at)
        first = errs[0].slipped_at if errs else self.at(0.15)
        times = [after(self.config, first, 1.0)]
        for e in sorted(self.errors, key=lambda e: e.fixed_at):
            t = after(self.config, e.fixed_at, lag + 0.5)
            if t > times[-1] + timedelta(hours=3) and t < self.org.window_end:
                times.append(t)
        times = times[:4]
        self.versioned("tracker", "notion_tracker", f"{self.org.project_codename} {self.word('V_items')} tracker",
                       self.org.pm_id, times, "notion", lag_h=lag)

    def charts_and_tables(self) -> None:
        by_table: dict[str, list[PlanItem]] = {}
        for it in self.items:
            by_table.setdefault(it.table_id, []).append(it)
        tables = sorted(by_table, key=lambda t: -len(by_table[t]))
        if tables:
            tid = tables[0]
            members = by_table[tid]
            hit = [e for e in self.errors if e.target.split(":")[0] in {i.id for i in members}
                   and e.slipped_at < self.at(self.a.report_v1)]
            last = max(i.completed_at for i in members)
            times = ([after(self.config, hit[0].slipped_at, 0.3), after(self.config, max(hit[0].fixed_at, last), 0.5)]
                     if hit else [after(self.config, last, 0.5)])
            times = sorted(times)
            item_ids = [i.id for i in members if i.completed_at <= times[0]]
            docs = self.versioned(f"chart_{tid}", "chart_image", f"{self.word('V_items').capitalize()} at a glance",
                                  self.org.report_author_id, times, self.ch["results"], table_id=tid, item_ids=item_ids,
                                  filename=f"chart_{tid}.png")
            for d in docs:
                d.item_ids = [i.id for i in members if i.completed_at <= d.time]
                d.error_ids_shown_wrong = shown_wrong(self.errors, d.time, 0, self.config, set(d.item_ids))
                d.reflects_corrections = not d.error_ids_shown_wrong
        for tid in tables[1:3]:
            members = by_table[tid]
            when = after(self.config, max(i.completed_at for i in members), 0.7)
            name = tid.replace("_", " ") or "key figures"   # '' groups the items made from prose claims
            doc = self.versioned(f"table_{tid}", "table_image", f"{name} summary",
                                 self.org.report_author_id, [when], self.ch["work"], table_id=tid,
                                 item_ids=[i.id for i in members], filename=f"table_{tid}.png")[0]
            doc.error_ids_shown_wrong = shown_wrong(self.errors, when, 0, self.config, set(doc.item_ids))
            doc.reflects_corrections = not doc.error_ids_shown_wrong

    def invented_series(self) -> None:
        if not self.invented:
            return
        fact = self.invented[0]
        lo = float(fact.value.replace(",", "")) * 0.8
        hi = float(fact.value.replace(",", "")) * 1.25
        decimals = max(1, len(fact.value.split(".")[1]) if "." in fact.value else 0)
        days = min(self.config.days, 5)
        values = {f"day {k + 1}": fmt_number(self.rng, lo, hi, decimals) for k in range(days - 1)}
        values[f"day {days}"] = fact.value
        when = self.at(min(0.72, self.a.report_v2 + 0.03))
        doc = self.versioned(f"series_{fact.id}", "chart_image", f"Daily {fact.name}", fact.owner, [when],
                             fact.channel, item_ids=[], filename=f"series_{fact.id}.png",
                             description=f"invented daily series of {fact.name} ({fact.unit})")[0]
        doc.values = values
        doc.invented_ids = [fact.id]
        doc.error_ids_shown_wrong, doc.reflects_corrections = [], True
        doc.pixel_only_values = [v for k, v in values.items() if v != fact.value]

    def seed_figures(self) -> None:
        workers = [p.id for p in self.org.people if p.id not in (self.org.pm_id, self.org.late_joiner_id)]
        figs = self.facts.figures[:4]
        for n, fig in enumerate(figs):
            when = self.at(0.2 + 0.4 * n / max(1, len(figs)))
            vis = next((v for v in self.facts.visual if v.figure_id == fig.id), None)
            doc = self.versioned(f"figure_{fig.id}", "seed_figure", fig.caption.split(":")[-1].strip()[:80] or fig.id,
                                 workers[n % len(workers)], [when], self.ch["results"], item_ids=[],
                                 figure_ids=[fig.id], filename=fig.image_path,
                                 description=vis.description if vis else fig.caption)[0]
            doc.pixel_only_values = [f.value for f in vis.image_only_facts] if vis else []
            doc.error_ids_shown_wrong, doc.reflects_corrections = [], True

    def result_screenshots(self) -> None:
        """A table screenshot per pictured item (a stated figure: the snipped passage), shared by its owner
        as the result (`pictures`)."""
        for it in (i for i in self.items if i.pictured):
            kind, title = (("excerpt_image", excerpt_title(it.label)) if it.kind == "statement"
                           else ("table_image", f"{it.label} results"))
            doc = self.versioned(f"result_{it.id}", kind, title, it.owner,
                                 [it.completed_at], self.ch["results"], table_id=it.table_id, item_ids=[it.id],
                                 filename=f"result_{it.id}.png")[0]
            doc.error_ids_shown_wrong, doc.reflects_corrections = [], True
            doc.pixel_only_values = list(it.values.values())

    def planning_sheets(self) -> None:
        """A screenshot of the planning sheet at each stated value of a pictured fact (`pictures`), posted
        by the one who states it, where they state it (the version event attaches it)."""
        for fact in (f for f in self.evolving if f.pictured):
            docs = self.versioned(f"sheet_{fact.id}", "table_image", f"{fact.subject} sheet", fact.versions[0].speaker,
                                  [v.time for v in fact.versions], fact.versions[0].channel, item_ids=[],
                                  filename=f"sheet_{fact.id}.png", description=f"planning sheet: {fact.subject}")
            for doc, version in zip(docs, fact.versions):
                doc.author, doc.where = version.speaker, version.channel
                doc.values = {fact.subject: version.value}
                doc.invented_ids, doc.decision_ids = [], []
                doc.error_ids_shown_wrong, doc.reflects_corrections = [], True
                doc.pixel_only_values = [version.value]

    def run_logs(self) -> None:
        typed = [i for i in self.items if not i.pictured and i.kind != "statement"]  # a log types a run's values
        picks = [i for i in typed if i.kind == "release"][:1] + [i for i in typed if i.kind in (
            "progression", "chronological")][:1]
        picks = picks or typed[:1]
        for it in picks:
            when = it.completed_at
            doc = self.versioned(f"log_{it.id}", "run_log", f"{it.id} log", it.owner, [when], "files",
                                 item_ids=[it.id], filename=f"{it.id}.log")[0]
            doc.error_ids_shown_wrong, doc.reflects_corrections = [], True

    def build(self) -> list[DocumentPlan]:
        self.reports_and_decks()
        self.trackers()
        self.charts_and_tables()
        self.result_screenshots()
        self.planning_sheets()
        self.invented_series()
        self.seed_figures()
        self.run_logs()
        return sorted(self.docs, key=lambda d: (d.time, d.id))
