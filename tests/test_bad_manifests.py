"""Hostile or careless manifests (issue 31): nothing to build, links out of the allowed folders, YAML
bombs, and generated documents. Each case ends in lines naming the manifest, never a traceback; a
build with nothing to build stops before it touches the data home."""
from __future__ import annotations

import contextlib
import io
import itertools
import os
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mmeb_assets import cli
from mmeb_assets.bounded_yaml import MAX_BYTES, MAX_DEPTH
from mmeb_assets.manifests import Manifest, ManifestError, load_manifest

REPO = Path(__file__).resolve().parents[1]
ENTRY = "{{id: {id}, title: T, path: {path}, domain: d, license: l}}"


def _manifest(folder: Path, text: str, name: str = "m.yaml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


def _pdf(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Accuracy reached 91.5 percent.")
    doc.save(path)
    return path


def _bomb(levels: int = 9) -> str:
    names = [chr(ord("a") + i) for i in range(levels + 1)]
    lines = [f"{names[0]}: &{names[0]} [x, x, x, x, x, x, x, x, x]"]
    lines += [f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]" for p, n in zip(names, names[1:])]
    return "\n".join(lines) + "\nseeds: []\n"


def _cli(args: list[str], monkeypatch_context: pytest.MonkeyPatch, home: Path) -> tuple[int, str, str, list]:
    """`mmeb --home HOME ARGS` in this process, with the build itself replaced by a recorder."""
    calls: list = []
    mp = monkeypatch_context
    mp.setattr(cli, "_build", lambda parsed, *rest, **kw: calls.append(parsed.command) or 0)
    mp.setenv("MMEB_HOME", str(home))
    mp.setenv("DAGSTER_HOME", str(home / "dagster"))
    mp.delenv("MMEB_MANIFEST", raising=False)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(["--home", str(home), *args])
    return rc, out.getvalue(), err.getvalue(), calls


# -- 1. no valid seed: one line per refused entry, a last line, exit 2, the data home untouched --------

def test_empty_seed_list_stops_before_any_run(tmp_path):
    manifest = _manifest(tmp_path, "seeds: []\n")
    home = tmp_path / "home"
    with pytest.MonkeyPatch.context() as mp:
        rc, out, err, calls = _cli(["build", "--manifest", str(manifest)], mp, home)
    assert (rc, calls, out) == (2, [], "")
    assert err.splitlines() == [f"{manifest}: no seed entries: nothing was built"]
    assert not home.exists()


def test_all_invalid_entries_named_one_line_each_on_the_real_console(tmp_path):
    manifest = _manifest(tmp_path, "seeds:\n  - [1, 2]\n  - \"hello\"\n  - {id: x, title: T, path: x.txt}\n")
    home = tmp_path / "home"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("MMEB_MANIFEST", None)
    proc = subprocess.run([sys.executable, "-m", "mmeb_assets.cli", "--home", str(home), "build", "--manifest",
                           str(manifest)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == [
        f"{manifest}: seeds[0].entry: not a mapping",
        f"{manifest}: seeds[1].entry: not a mapping",
        f"{manifest}: seeds[2].domain: Field required; seeds[2].license: Field required",
        f"{manifest}: none of its 3 seed entries is valid: nothing was built",
    ]
    assert not home.exists()


def test_zero_partitions_plan_no_phase_instead_of_dividing_by_zero():
    from mmeb_assets.build.phases import thread_budget

    assert thread_budget(None, [], cores=4, workers=2) == []


# -- 2. paths confined after resolving links and `..`; messages name the path as written -------------

def test_symlink_to_a_system_file_is_refused_by_its_written_name(tmp_path):
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "link.pdf").symlink_to("/etc/passwd")
    manifest = _manifest(tmp_path / "m", "seeds:\n  - " + ENTRY.format(id="link", path="link.pdf") + "\n")
    [line] = load_manifest(manifest).problem_lines()
    assert line == (f"{manifest}: seeds[0].path: 'link.pdf' is a symbolic link (or lies under one) that leads "
                    "outside the manifest's folder and its allowed_roots; refused without opening it")
    with pytest.raises(ManifestError, match=r"seeds\[0\]\.path") as refused:
        load_manifest(manifest).pdf_path("link")
    assert "/etc/passwd" not in str(refused.value)
    with pytest.MonkeyPatch.context() as mp:  # what `mmeb build` prints: that line, then nothing was built
        rc, out, err, calls = _cli(["build", "--manifest", str(manifest)], mp, tmp_path / "home")
    assert (rc, calls, out) == (2, [], "")
    assert err.splitlines() == [line, f"{manifest}: none of its 1 seed entries is valid: nothing was built"]


def test_links_to_a_real_pdf_elsewhere_are_refused_and_links_inside_followed(tmp_path):
    outside = _pdf(tmp_path / "elsewhere" / "real.pdf")
    folder = tmp_path / "m"
    _pdf(folder / "pdfs" / "inside.pdf")
    (folder / "out.pdf").symlink_to(outside)
    (folder / "outdir").symlink_to(outside.parent, target_is_directory=True)
    (folder / "in.pdf").symlink_to(folder / "pdfs" / "inside.pdf")
    entries = [ENTRY.format(id="out", path="out.pdf"), ENTRY.format(id="under", path="outdir/real.pdf"),
               ENTRY.format(id="dots", path="pdfs/../../elsewhere/real.pdf"), ENTRY.format(id="in", path="in.pdf")]
    manifest = _manifest(folder, "seeds:\n" + "".join(f"  - {e}\n" for e in entries))
    loaded = load_manifest(manifest)
    assert [s.id for s in loaded.seeds] == ["in"]
    lines = loaded.problem_lines()
    assert [line.split(": ")[1] for line in lines] == ["seeds[0].path", "seeds[1].path", "seeds[2].path"]
    assert "'out.pdf' is a symbolic link" in lines[0] and "'outdir/real.pdf' is a symbolic link" in lines[1]
    assert "'pdfs/../../elsewhere/real.pdf' points outside the manifest's folder" in lines[2]
    assert not any(str(outside) in line for line in lines)
    assert loaded.pdf_path("in") == folder / "in.pdf"  # the written name, read through the link
    # allowed_roots makes the outside folder acceptable, through the link too.
    allowed = _manifest(folder, "allowed_roots: [../elsewhere]\nseeds:\n  - " + entries[0] + "\n", "allowed.yaml")
    assert load_manifest(allowed, strict=True).pdf_path("out") == folder / "out.pdf"


def test_a_link_repointed_after_loading_is_refused_before_opening(tmp_path):
    folder = tmp_path / "m"
    inside = _pdf(folder / "pdfs" / "inside.pdf")
    outside = _pdf(tmp_path / "elsewhere" / "real.pdf")
    link = folder / "seed.pdf"
    link.symlink_to(inside)
    manifest = load_manifest(_manifest(folder, "seeds:\n  - " + ENTRY.format(id="s", path="seed.pdf") + "\n"),
                             strict=True)
    link.unlink()
    link.symlink_to(outside)
    with pytest.raises(ManifestError) as refused:
        manifest.pdf_path("s")
    assert str(refused.value).startswith(f"{manifest.file}: seeds[0].path: 'seed.pdf' is a symbolic link")
    assert str(outside) not in str(refused.value)


# -- 3. YAML read with limits --------------------------------------------------------------------------

def test_alias_bomb_is_refused_in_one_line(tmp_path):
    manifest = _manifest(tmp_path, _bomb(9))
    home = tmp_path / "home"
    with pytest.MonkeyPatch.context() as mp:
        rc, out, err, calls = _cli(["build", "--manifest", str(manifest)], mp, home)
    assert (rc, calls, out) == (2, [], "")
    assert err.splitlines() == [f"{manifest}: refused, over the YAML limits: aliases and nesting expand to more "
                                "than 250,000 nodes (an alias bomb?)"]
    assert not home.exists()


def test_depth_size_and_recursive_aliases_are_refused(tmp_path):
    deep = _manifest(tmp_path, "seeds: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n", "deep.yaml")
    with pytest.raises(ManifestError, match=f"^{deep}: refused, over the YAML limits: nested more than {MAX_DEPTH}"):
        load_manifest(deep)
    big = _manifest(tmp_path, "seeds: []\n# " + "x" * MAX_BYTES + "\n", "big.yaml")
    with pytest.raises(ManifestError, match=f"^{big}: refused, over the YAML limits: .* bytes, more than the limit"):
        load_manifest(big)
    recursive = _manifest(tmp_path, "seeds: &s [*s]\n", "recursive.yaml")
    with pytest.raises(ManifestError, match="alias \\*s refers to an anchor that is undefined or still open"):
        load_manifest(recursive)
    # Anchors used the ordinary way (shared defaults, merge keys) still load.
    shared = _manifest(tmp_path, "defaults: &d {title: T, domain: d, license: l}\nseeds:\n"
                                 "  - {<<: *d, id: a, path: a.pdf}\n  - {<<: *d, id: b, path: b.pdf}\n", "shared.yaml")
    assert load_manifest(shared, strict=True).ids == ["a", "b"]


# -- 4. generated documents: a valid manifest or lines naming the file, nothing else ------------------

FIELDS = ["id", "title", "path", "domain", "license", "archetype", "generator", "records_in_paper"]
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | TEXT | st.sampled_from(
    ["seed-1", "a.pdf", "../a.pdf", "/etc/passwd", "link.pdf", "x.txt", "research_lab", "pirate", "demo", ""])
JUNK = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.sampled_from(FIELDS) | TEXT | st.integers(), inner, max_size=4), max_leaves=12)
ENTRIES = st.fixed_dictionaries({}, optional={field: SCALARS for field in FIELDS}) | st.fixed_dictionaries(
    {"id": st.from_regex(r"[a-z0-9][a-z0-9_-]{0,8}", fullmatch=True), "title": st.just("T"),
     "path": st.sampled_from(["a.pdf", "link.pdf", "../a.pdf", "sub/b.pdf", "a.txt"]),
     "domain": st.just("d"), "license": st.just("l")}) | JUNK
DOCUMENTS = st.fixed_dictionaries({"seeds": st.lists(ENTRIES, max_size=4)},
                                  optional={"name": SCALARS, "allowed_roots": JUNK}) | JUNK
FRAGMENTS = st.sampled_from(["seeds:", "\n", "  - ", "&a ", "*a", "*b", "[", "]", "{", "}", ": ", ", ", "? ",
                             "<<: *a", "!!binary ", "!!python/object/apply:os.system ", "2024-13-45", "|", "'",
                             '"', "---", "\t", "id: s", "path: ../../etc/passwd", "9" * 5000, "\x00", "\ufeff"])


@st.composite
def yaml_documents(draw) -> bytes:
    kind = draw(st.sampled_from(["dumped", "fragments", "spliced"]))
    if kind == "fragments":
        return "".join(draw(st.lists(FRAGMENTS, max_size=30))).encode()
    text = yaml.safe_dump(draw(DOCUMENTS), allow_unicode=True, default_flow_style=draw(st.booleans()))
    if kind == "spliced":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.text(max_size=6) | FRAGMENTS) + text[at + draw(st.integers(0, 4)):]
    data = text.encode("utf-8", "surrogatepass")
    return data + draw(st.sampled_from([b"", b"\xff\xfe"]))


_names = itertools.count()


@pytest.fixture(scope="module")
def generated_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("generated")
    (folder / "link.pdf").symlink_to("/etc/passwd")
    return folder


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=yaml_documents())
def test_generated_documents_load_or_fail_in_lines_naming_the_file(generated_dir, document):
    path = generated_dir / f"doc{next(_names)}.yaml"
    path.write_bytes(document)
    prefix = f"{path}: "
    try:
        manifest = load_manifest(path)
    except ManifestError as exc:
        manifest = None
        assert str(exc).startswith(prefix) and len(str(exc).splitlines()) == 1, str(exc)
    if manifest is not None:
        assert isinstance(manifest, Manifest)
        for line in manifest.problem_lines():
            assert line.startswith(prefix) and len(line.splitlines()) == 1, line
    home = generated_dir / f"home{next(_names)}"
    with pytest.MonkeyPatch.context() as mp:
        rc, out, err, calls = _cli(["build", "--manifest", str(path)], mp, home)
    if manifest is not None and manifest.seeds:
        assert (rc, calls, err) == (0, ["build"], ""), err
        return
    assert (rc, calls, out) == (2, [], "")
    lines = err.splitlines()
    assert lines and all(line.startswith(prefix) for line in lines) and "Traceback" not in err, err
    assert len(lines) == 1 or lines[-1].endswith("nothing was built")
    assert not home.exists()
