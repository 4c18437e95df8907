"""The `scale` manifest: 30 generated seeds, deterministic, varied, and ingested back exactly."""
from __future__ import annotations

import hashlib
import subprocess
import sys
from itertools import combinations

import pytest

from mmeb_assets.seedgen.demo_seeds import ensure_seed_pdf, generated_figure_hints, generated_spec, render_spec
from mmeb_assets.ingestion.document import ingest_pdf
from mmeb_assets.ingestion.numbers import parse_number
from mmeb_assets.seedgen.scale_seeds import UnknownScaleSeed, scale_manifest_yaml, scale_seed_ids, scale_seed_spec
from mmeb_assets.manifests import MANIFEST_DIR, load_manifest


@pytest.fixture(scope="module")
def specs():
    return {seed: scale_seed_spec(seed) for seed in scale_seed_ids()}


def test_manifest_is_the_generator_output():
    assert (MANIFEST_DIR / "scale.yaml").read_text(encoding="utf-8") == scale_manifest_yaml()
    manifest = load_manifest("scale")
    assert manifest.ids == scale_seed_ids() and len(manifest.ids) == 30
    assert {s.generator for s in manifest.seeds} == {"scale"}
    assert len({s.domain for s in manifest.seeds}) >= 8
    assert {s.archetype for s in manifest.seeds} == {"research_lab", "analysis_firm"}
    assert all(manifest.pdf_path(s).parent.name == "scale_pdfs" for s in manifest.ids)


def test_spec_is_deterministic_across_processes():
    seed = "energy-solvang"
    code = (f"import hashlib,sys; from mmeb_assets.seedgen.scale_seeds import scale_seed_spec; "
            f"from mmeb_assets.seedgen.demo_seeds import render_spec; "
            f"sys.stdout.write(hashlib.sha256(render_spec(scale_seed_spec({seed!r}), 'scale')).hexdigest())")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert hashlib.sha256(render_spec(scale_seed_spec(seed), "scale")).hexdigest() == other


def test_projects_do_not_repeat_each_other(specs):
    captions = [t.caption for s in specs.values() for t in s.tables]
    assert len(captions) == len(set(captions))
    assert len({s.title for s in specs.values()}) == 30

    def measures(spec):  # what a seed measures: metric columns (papers) or indicator rows (reports)
        return frozenset(r[0] for r in spec.tables[1].rows) if spec.style == "report" else frozenset(spec.tables[0].header[2:])

    sets = [measures(s) for s in specs.values()]
    assert len(set(sets)) == 30 and len(frozenset().union(*sets)) >= 40
    cells = [{c for t in s.tables for r in t.rows for c in r} for s in specs.values()]
    assert max(len(a & b) / len(a | b) for a, b in combinations(cells, 2)) < 0.5
    assert len({(len(t.rows), len(t.header)) for s in specs.values() for t in s.tables}) >= 8
    assert {len(s.figures) for s in specs.values()} >= {1, 2}
    assert {len(s.tables) for s in specs.values()} == {2, 3}
    assert {f.chart for s in specs.values() for f in s.figures} == {"bar", "line", "diagram"}


def test_spec_values_are_consistent(specs):
    for spec in specs.values():
        for table in spec.tables:
            assert all(len(row) == len(table.header) for row in table.rows), table.caption
        if spec.style == "report":
            sector = spec.tables[0]
            for j in range(1, len(sector.header)):
                total = sum(parse_number(r[j]) for r in sector.rows[:-1])
                assert abs(total - parse_number(sector.rows[-1][j])) < 0.051, (spec.seed_id, j)


@pytest.mark.parametrize("seed", ["speech-lyra", "finance-ostrava"])
def test_scale_seed_round_trip(seed, tmp_path):
    manifest = load_manifest("scale")
    entry = manifest.seed(seed)
    pdf = ensure_seed_pdf(entry, tmp_path / f"{seed}.pdf")
    spec = generated_spec(entry)
    doc = ingest_pdf(pdf, tmp_path / "out", seed)
    assert [(t.caption, t.header, t.rows) for t in doc.tables] == [(t.caption, t.header, t.rows) for t in spec.tables]
    assert [f.caption for f in doc.figures] == [f.caption for f in spec.figures]
    prose = " ".join(p for s in spec.sections for p in s.body if not p.startswith("[["))
    assert len(doc.numeric_claims) >= 3 and all(c.value in prose for c in doc.numeric_claims)
    assert set(generated_figure_hints(entry)) == {f"figure_{f.number}" for f in spec.figures}


def test_unknown_scale_seed_named():
    with pytest.raises(UnknownScaleSeed, match="no-such"):
        scale_seed_spec("no-such")
