"""Issue 27 item 4: projects are distinct. Over 100 generated seeds no codename, company, customer,
person, named channel or document title is shared by two projects; drift histories differ; the
unanswerable questions perturb each project's own questions; chatter comes from varied frames.
Each property also runs on a planted defect (a stock list put back) to show it fails when broken."""
from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from generated_projects import planned_projects, rendered_projects
from mmeb_assets.records.frames import top_frame_share
from mmeb_assets.simulation import names

N_SEEDS = 100
MAX_TOP_FRAME = 0.05


def identities(project) -> dict[str, set[str]]:
    org, plan = project.org, project.plan
    return {
        "codename": {org.project_codename}, "company": {org.company_name}, "customer": {org.customer.name},
        "person": {p.name for p in org.people} | {org.customer.contact},
        "channel": {c.id for c in org.channels if c.access != "dm"},
        "document title": {d.title for d in plan.documents},
    }


def collisions(projects) -> dict[str, list[str]]:
    """Per kind of name, the names that two or more projects use."""
    owners: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for p in projects:
        for kind, values in identities(p).items():
            for value in values:
                owners[kind][value].add(p.org.seed_id)
    return {kind: sorted(v for v, seeds in by.items() if len(seeds) > 1) for kind, by in owners.items()}


def drift_history(project) -> tuple:
    """Which facts drift, how many versions, on which day of the window each version lands."""
    start = project.org.window_start
    return tuple((f.kind, tuple((v.time - start).days for v in f.versions)) for f in project.plan.evolving_facts)


def test_no_name_is_shared_by_two_of_100_projects():
    projects = planned_projects(N_SEEDS)
    assert len(projects) >= 90
    found = collisions(projects)
    assert {k: v for k, v in found.items() if v} == {}
    assert set(found) == {"codename", "company", "customer", "person", "channel", "document title"}


def test_a_stock_codename_list_is_caught(monkeypatch):
    """The planted defect: codenames from a 16-word stock list, as before issue 27."""
    stock = ["Kestrel", "Driftwood", "Lanternfish", "Basalt", "Marigold", "Tidewater", "Juniper", "Cobalt",
             "Sandpiper", "Halyard", "Bramble", "Quarry", "Larkspur", "Ember", "Nimbus", "Saltmarsh"]
    monkeypatch.setattr(names, "codename", lambda seed: stock[seed * 7 % len(stock)])
    planned_projects.cache_clear()
    try:
        found = collisions(planned_projects(40))
    finally:
        planned_projects.cache_clear()
    assert found["codename"] and found["channel"] and found["document title"]


def test_name_spaces_are_large_and_keyed_by_the_seed():
    """Seeds below a space's size never share a slot; the spaces leave hashed seeds few collisions."""
    for kind, size in names.SPACE_SIZES.items():
        assert size >= 3000, kind
        assert len({names._slot(seed, kind) for seed in range(size)}) == size
    assert len(set(names.project_people_names(7, 10))) == 10
    assert len({n.split()[0] for n in names.project_people_names(7, 10)}) == 10
    assert len({n.split()[1] for n in names.project_people_names(7, 10)}) == 10


def test_drift_histories_are_drawn_per_project():
    projects = planned_projects(N_SEEDS)
    histories = Counter(drift_history(p) for p in projects)
    assert histories.most_common(1)[0][1] == 1, histories.most_common(1)
    kinds = Counter(tuple(sorted(f.kind for f in p.plan.evolving_facts)) for p in projects)
    orders = {tuple(f.kind for f in p.plan.evolving_facts) for p in projects}
    counts = {tuple(len(f.versions) for f in p.plan.evolving_facts) for p in projects}
    assert len(kinds) >= 3 and len(orders) >= 20 and len(counts) >= 20


def test_drifting_budgets_and_sizes_take_values_drawn_per_project():
    """A budget or sample size that moved '1,200 -> 1,850 -> 1,500 respondents' in every project would let a
    model answer the final value without reading; the values are drawn, so no change recurs."""
    projects = planned_projects(N_SEEDS)
    changes = Counter(tuple(v.value for v in f.versions) for p in projects for f in p.plan.evolving_facts
                      if f.kind in ("budget", "size"))
    finals = Counter(f.versions[-1].value for p in projects for f in p.plan.evolving_facts if f.kind in ("budget", "size"))
    assert sum(changes.values()) >= N_SEEDS * 0.9
    assert changes.most_common(1)[0][1] <= 2, changes.most_common(3)
    assert finals.most_common(1)[0][1] <= 0.1 * sum(finals.values()), finals.most_common(3)


RENDERED = 3   # rendering writes PDFs and images (~5 s a project); the 100-seed run is the heavy test below


def check_unanswerable_are_near_misses(projects) -> None:
    """Each unanswerable question is one of the project's answerable questions with one thing changed,
    its absent premise names something of that question (a qualified metric, the customer's sector,
    a later year), and no two projects ask the same unanswerable question."""
    asked: dict[str, set[str]] = defaultdict(set)
    for p in projects:
        answerable = {i.id: i for i in p.items if i.answer_status == "answerable"}
        uns = [i for i in p.items if i.answer_status == "unanswerable"]
        assert uns, p.org.seed_id
        for item in uns:
            source = answerable[item.perturbed_from]
            words = set(item.q.lower().split())
            assert len(set(source.q.lower().split()) & words) >= 0.6 * len(words), (source.q, item.q)
            for term in item.derivation.absent_terms:
                assert set(term.lower().split()) & set(source.q.lower().split()) or term.isdigit() or \
                    p.org.customer.name.split()[0] in term, (term, source.q)
            asked[" ".join(item.q.lower().split())].add(p.org.seed_id)
    repeated = {q: s for q, s in asked.items() if len(s) > 1}
    assert repeated == {}, repeated


def test_unanswerable_questions_perturb_the_projects_own_questions():
    check_unanswerable_are_near_misses(rendered_projects(RENDERED))


def test_chatter_comes_from_varied_frames():
    for p in rendered_projects(RENDERED):
        share, frame = top_frame_share(p.records.records, p.org, p.plan)
        assert share <= MAX_TOP_FRAME, (p.org.seed_id, round(share, 3), frame)


def test_one_stock_frame_is_caught():
    """The planted defect: every reply is the same sentence; the frame share exceeds the bound."""
    p = rendered_projects(RENDERED)[0]
    records = [r.model_copy(update={"text": r.text.split("\n")[0] + "\nSounds good, thanks."})
               if r.source == "slack" and r.reply_to else r for r in p.records.records]
    assert top_frame_share(records, p.org, p.plan)[0] > MAX_TOP_FRAME


@pytest.mark.heavy
def test_100_rendered_projects_are_distinct():
    """The same properties over 100 rendered projects (about 10 min on 2 cores)."""
    projects = rendered_projects(N_SEEDS)
    check_unanswerable_are_near_misses(projects)
    worst = max(top_frame_share(p.records.records, p.org, p.plan)[0] for p in projects)
    assert worst <= MAX_TOP_FRAME


def test_stale_document_questions_list_every_document_stale_then():
    """Issue 27 item 3: a 'which documents still showed the old value' gold names every document whose
    version current at the correction shows the wrong value, and cites a record of each."""
    from mmeb_assets.qa.families.conflict import stale_at
    from mmeb_assets.qa.families.base import GenContext
    checked = 0
    for p in rendered_projects(RENDERED):
        by_id = {r.id: r for r in p.records.records}
        ctx = GenContext(index=None, provenance=None)
        for item in (i for i in p.items if i.generator == "rules:cross_source.stale"):
            error = next(e for e in p.plan.errors if e.wrong_value in item.gold.answer
                         and e.correct_value in item.gold.answer)
            correction = by_id[item.solution[0].record_ids[0]]
            from mmeb_assets.qa.evidence import ProjectIndex
            ctx.index = ProjectIndex(plan=p.plan, org=p.org, records=p.records)
            docs = stale_at(ctx, error, correction.timestamp)
            cited = {by_id[r].doc_id for r in item.evidence if by_id[r].doc_id}
            assert {d.id for d in docs} == cited, (item.q, [d.id for d in docs], cited)
            checked += 1
    assert checked >= 1


@pytest.mark.parametrize("manifest", ["demo", "shared", "scale", "paper", "robustness"])
def test_no_two_projects_of_a_shipped_manifest_share_a_name(manifest):
    """Not a birthday draw: within one manifest the seeds are assigned so no name is shared."""
    from mmeb_assets.manifests import load_manifest
    from mmeb_assets.simulation.manifest_seeds import _names_of, manifest_random_seeds

    ids = tuple(load_manifest(manifest).ids)
    seeds = manifest_random_seeds(ids)
    held = [_names_of(seeds[i]) for i in ids]
    shared = [name for a in range(len(ids)) for b in range(a + 1, len(ids)) for name in held[a] & held[b]]
    assert shared == []
    assert len({names.codename(seeds[i]) for i in ids}) == len(ids)


def test_generated_manifests_never_share_a_name():
    from mmeb_assets.simulation.manifest_seeds import _names_of, manifest_random_seeds

    for size in (3, 40, 200):
        ids = tuple(f"seed-{size}-{k}" for k in range(size))
        seeds = manifest_random_seeds(ids)
        counts = Counter(name for i in ids for name in _names_of(seeds[i]))
        assert [name for name, n in counts.items() if n > 1] == []
