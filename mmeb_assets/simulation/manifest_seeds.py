"""Random seeds of a manifest's projects, assigned so that two projects of one manifest never share an
invented name.

Why: a project's names (codename, company, customer, people) come from its random seed, a hash of its
seed id; two hashes can land on one codename by a birthday draw. In the demo two of three projects were
both "Quiet Fjord", and a retrieval for one project's question returned the other's record first. The
manifest is known before any project is built, so its projects take their seeds in manifest order and a
seed whose names an earlier project already holds moves on to the next free one. The same manifest
always gives the same seeds; a seed of no manifest keeps its hash.
"""
from __future__ import annotations

from functools import lru_cache

from mmeb_assets.simulation import names
from mmeb_assets.simulation.config import derive_random_seed

ARCHETYPES = ("research_lab", "analysis_firm")


def _names_of(value: int) -> set[tuple[str, str]]:
    held = {("codename", names.codename(value)), ("customer", names.customer_name(value).split()[0])}
    held |= {("company", names.company_name(value, a).split()[0]) for a in ARCHETYPES}
    held |= {("person", p) for p in names.project_people_names(value, names.PEOPLE_PER_PROJECT)}
    return held


@lru_cache(maxsize=16)
def manifest_random_seeds(ids: tuple[str, ...]) -> dict[str, int]:
    """seed id -> random seed, in manifest order, none sharing a codename, a company or customer head,
    or a person with an earlier one."""
    taken: set[tuple[str, str]] = set()
    out: dict[str, int] = {}
    for seed_id in ids:
        value = derive_random_seed(seed_id)
        while _names_of(value) & taken:
            value += 1
        taken |= _names_of(value)
        out[seed_id] = value
    return out


def project_random_seed(seed_id: str, override: int | None = None) -> int:
    """The override if given, else the seed's place among the active manifest's seeds, else its hash."""
    if override is not None:
        return int(override)
    from mmeb_assets.manifests import load_manifest

    try:
        ids = tuple(load_manifest().ids)
    except Exception:  # no readable manifest: the seed stands alone
        ids = ()
    return manifest_random_seeds(ids).get(seed_id, derive_random_seed(seed_id))
