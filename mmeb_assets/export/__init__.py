"""Exports of a finished build in the formats other tools read: a Hugging Face dataset folder with
its card (`hf`), BEIR (`beir`), TREC qrels and runs (`trec`), RAGAS tables (`ragas`).
`export_build` checks that the home holds what the asked formats need before writing anything."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from mmeb_assets.export.build import BuildHome, IncompleteBuild

FORMATS = ("hf", "beir", "trec", "ragas")


def _preflight(home: BuildHome, formats: list[str]) -> None:
    """Load every part the formats need, so a missing one fails before any file is written."""
    home.check_exists()
    home.benchmark, home.corpus  # noqa: B018 - loading is the check
    if "hf" in formats or "beir" in formats:
        for record in home.corpus.records:
            home.image_file(record)
    if "hf" in formats:
        home.statistics, home.seed_sources()  # noqa: B018
    if "trec" in formats:
        home.require_retrievals()
    if "ragas" in formats:
        home.require_cells()


def _exporters() -> dict[str, Callable[[BuildHome, Path], dict[str, int]]]:
    from mmeb_assets.export.beir import export_beir
    from mmeb_assets.export.hf import export_hf
    from mmeb_assets.export.ragas import export_ragas
    from mmeb_assets.export.trec import export_trec

    return {"hf": export_hf, "beir": export_beir, "trec": export_trec, "ragas": export_ragas}


def export_build(root: Path, out: Path, formats: list[str], manifest: str | None = None) -> dict[str, dict[str, int]]:
    """Writes `out/<format>/` for each format; returns {format: {part: rows}}."""
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise ValueError(f"unknown export format(s) {', '.join(unknown)}: use {', '.join(FORMATS)}")
    home = BuildHome(Path(root), manifest=manifest)
    _preflight(home, formats)
    exporters = _exporters()
    return {fmt: exporters[fmt](home, Path(out) / fmt) for fmt in dict.fromkeys(formats)}


__all__ = ["FORMATS", "BuildHome", "IncompleteBuild", "export_build"]
