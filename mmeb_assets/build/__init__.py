"""Materialize the whole graph on the persistent instance: phases in order, partitions in parallel.

`build_all` is what `mmeb build` and `mmeb demo` run; see `phases` (which runs), `runners` (where),
`worker` (one run), `outcome` (ok / FAILED and why), `console` (what a person sees) and `summary`
(the closing lines)."""
from mmeb_assets.build.orchestrate import build_all
from mmeb_assets.build.outcome import BuildReport, RunOutcome
from mmeb_assets.build.phases import load_definitions, plan_phases

__all__ = ["BuildReport", "RunOutcome", "build_all", "load_definitions", "plan_phases"]
