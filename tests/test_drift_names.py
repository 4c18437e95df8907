"""Drifting and invented facts are named by each project's own seed, never by one stock name shared by
most projects of a build (a shared name asks about 30 different facts under one subject)."""
from __future__ import annotations

from collections import Counter

import pytest

from mmeb_assets.manifests import load_manifest
from mmeb_assets.simulation.seed_work import short_title
from tests.generated_projects import planned_projects

N_PROJECTS = 30


def _names(project) -> set[str]:
    """Every drifting and invented subject, the workspace's own names (customer, contact) left out."""
    customer, contact = project.org.customer.name, project.org.customer.contact
    subjects = [f.subject for f in project.plan.evolving_facts] + [f.name for f in project.plan.invented]
    return {s.replace(customer, "<customer>").replace(contact, "<contact>") for s in subjects}


def test_no_drifting_name_is_shared_by_a_third_of_the_projects():
    projects = planned_projects(N_PROJECTS)
    counts = Counter(name for p in projects for name in _names(p))
    assert len(projects) >= 25
    assert counts, "no drifting or invented facts were planned"
    shared = {name: n for name, n in counts.items() if n > len(projects) / 3}
    assert shared == {}


@pytest.mark.parametrize("manifest", ["shared", "scale", "paper", "demo"])
def test_every_seed_of_a_manifest_names_its_own_work(manifest):
    """The fallback name of a seed's work (its short title) exists for every seed and no name covers a
    third of a manifest: the templates that carry it then differ across projects."""
    titles = [seed.title for seed in load_manifest(manifest).seeds]
    works = [short_title(title) for title in titles]
    assert all(works), [t for t, w in zip(titles, works) if not w]
    most, n = Counter(works).most_common(1)[0]
    assert n <= max(1, len(works) / 3), f"{most!r} names {n} of {len(works)} seeds"
