"""Before any run, and before the data home is touched: is there anything to build?

A manifest that cannot be read (missing, not YAML, over the YAML limits) or has no valid seed entry
would otherwise reach the planner with no partition at all. `mmeb build` / `mmeb demo` stop here
instead, with one line per reason, each naming the manifest, and exit status 2.
"""
from __future__ import annotations

import os

EXIT_BAD_MANIFEST = 2


def manifest_refusal(name_or_path: str | os.PathLike | None = None) -> list[str]:
    """[] when the manifest has at least one valid seed; else the lines to print: the manifest's own
    error, or one line per refused entry (its fields' reasons joined by '; ') and a last line saying that nothing was built."""
    from mmeb_assets.manifests import ManifestError, load_manifest

    try:
        manifest = load_manifest(name_or_path, log_problems=False)  # printed below instead
    except ManifestError as exc:
        return [str(exc)]
    if manifest.seeds:
        return []
    entries = len(manifest.entry_ids)
    why = "no seed entries" if not entries else f"none of its {entries} seed entries is valid"
    by_entry: dict[int, list[str]] = {}
    for problem in manifest.problems:
        by_entry.setdefault(problem.index, []).append(f"seeds[{problem.index}].{problem.field}: {problem.message}")
    lines = [f"{manifest.file}: " + "; ".join(parts) for parts in by_entry.values()]
    return [*lines, f"{manifest.file}: {why}: nothing was built"]
