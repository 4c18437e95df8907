"""Record the data versions of the graph's external sources before a build plans what is up to date.

Why: an external source (the annotators' judgments) changes outside any run. Dagster judges an asset
that reads it stale only against the source's last *reported* data version, so a build that did not
report first would skip Table 4 as "up to date" after new judgments. Each such source has a sensor
(tagged SOURCE_SENSOR_TAG) that computes its version and returns a materialization when it changed;
`dagster dev` runs it every minute, and the build runs it once here and records what it returns.
It is cheap (a digest of a small table), and recorded in the instance, so the UI shows the same
staleness.
"""
from __future__ import annotations

import dagster as dg

from mmeb_assets.versioning import SOURCE_SENSOR_TAG


def source_sensors(definitions: dg.Definitions) -> list[dg.SensorDefinition]:
    return [s for s in definitions.sensors or [] if SOURCE_SENSOR_TAG in (s.tags or {})]


def _evaluate(sensor: dg.SensorDefinition, definitions: dg.Definitions, instance: dg.DagsterInstance) -> list:
    """The asset events of one evaluation of `sensor`, with the definitions' resources it names."""
    available = definitions.resources or {}
    resources = {key: available[key] for key in sensor.required_resource_keys}
    with dg.build_sensor_context(instance=instance, resources=resources) as context:
        result = sensor(context)
    return list(result.asset_events) if isinstance(result, dg.SensorResult) else []


def observe_sources(definitions: dg.Definitions, instance: dg.DagsterInstance) -> list[str]:
    """Run every source sensor once and record the events it returns; one line per source that could
    not be read (the build goes on: staleness then falls back to the last recorded version)."""
    problems = []
    for sensor in source_sensors(definitions):
        try:
            for event in _evaluate(sensor, definitions, instance):
                instance.report_runless_asset_event(event)
        except Exception as exc:  # an unreadable database must not stop the build of everything else
            problems.append(f"could not read the source of {sensor.name}: {type(exc).__name__}: {exc}")
    return problems
