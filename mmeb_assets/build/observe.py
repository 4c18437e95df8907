"""Observe the graph's source assets before a build plans what is up to date.

Why: an observable source (the annotators' judgments) changes outside any run. Dagster judges an
asset that reads it stale only against the source's last *observed* data version, so a build that
did not observe first would skip Table 4 as "up to date" after new judgments. Observing is cheap (a
digest of a small table) and is recorded in the instance, so the UI shows the same staleness.
"""
from __future__ import annotations

import dagster as dg


def observable_sources(definitions: dg.Definitions) -> list[dg.AssetsDefinition]:
    graph = definitions.resolve_asset_graph()
    return [a for a in graph.assets_defs if a.is_observable and not a.is_materializable]


def observe_sources(definitions: dg.Definitions, instance: dg.DagsterInstance) -> list[str]:
    """Observe every observable source asset; one line per source that could not be observed (the
    build goes on: staleness then falls back to the last observation)."""
    from dagster._core.definitions.observe import observe

    problems = []
    for source in observable_sources(definitions):  # resolved from the definitions: resources are bound
        try:
            observe([source], instance=instance, raise_on_error=True)
        except Exception as exc:  # an unreadable database must not stop the build of everything else
            problems.append(f"could not observe {source.key.to_user_string()}: {type(exc).__name__}: {exc}")
    return problems
