"""Seed manifests: which seed documents the partitions are made of.

A manifest is YAML with a top-level `seeds:` list; each entry has `id`, `title`, `path` (relative to
the manifest file), `domain` and `license` (optional `archetype`, `generator`, `records_in_paper`).
The active manifest is `MMEB_MANIFEST` (a path or the name of a shipped manifest, `demo`, `paper`,
`shared`), default `demo`.

One bad entry must not stop the others, so entries are checked one by one:

- an entry with a usable, unique `id` stays a partition even when another field is wrong; its
  `seed_document` then fails with the problem (`<manifest>: seeds[i].<field>: ...`), visibly in the
  Dagster UI, while the other seeds build;
- entries sharing an id are all refused (which one was meant is unknown): the partition fails
  naming every index that uses the id;
- an entry without a usable id cannot be a partition: it is listed in `Manifest.problems`, logged
  when the manifest loads, and `mmeb build` reports it as a failure.

Paths: `path` must name a `.pdf` inside the manifest's folder. A manifest that keeps its PDFs
elsewhere says so explicitly with `allowed_roots:` (folders, relative to the manifest, that paths
may point into; `manifests/shared.yaml` declares `../../shared/seeds`). The check is on the file
that would be read: `..` and symbolic links resolved, so `../../etc/passwd` and `link.pdf ->
/etc/passwd` are both refused (and checked again just before the file is opened), while a link
whose target stays inside the allowed folders is followed. Messages name the path as written.

The YAML is read with limits (`bounded_yaml`: size, nesting depth, alias expansion); a manifest
over them is refused whole, in one line.
"""
from __future__ import annotations

import logging
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from mmeb_assets.bounded_yaml import YAMLLimitError, load_bounded

MANIFEST_DIR = Path(__file__).resolve().parents[1] / "manifests"
SEED_ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")
ARCHETYPES = ("research_lab", "analysis_firm")
log = logging.getLogger(__name__)
_LOGGED: set[tuple[Path, int, int]] = set()  # file versions whose refused entries were logged


class ManifestError(ValueError):
    """A manifest (or one of its entries) that cannot be used; the message names the file and the field."""


class SeedEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    title: str
    path: str
    domain: str
    license: str
    archetype: Literal["research_lab", "analysis_firm"] | None = Field(
        default=None, description="optional override: research_lab | analysis_firm")
    generator: Literal["demo", "scale"] | None = Field(default=None, description="'demo' or 'scale': the project writes this PDF "
                                                                         "itself if missing")
    records_in_paper: int | None = None

    @field_validator("id")
    @classmethod
    def _valid_id(cls, value: str) -> str:
        if not SEED_ID_PATTERN.match(value):
            raise ValueError(f"seed id {value!r} must be lower-case letters, digits, '-' or '_'")
        return value


class EntryProblem(BaseModel):
    """Why one `seeds[index]` entry was refused."""

    index: int
    seed_id: str | None = Field(description="the entry's id when it is usable as a partition key")
    field: str
    message: str

    def describe(self, manifest_file: Path) -> str:
        return f"{manifest_file}: seeds[{self.index}].{self.field}: {self.message}"


class Manifest(BaseModel):
    name: str
    file: Path
    seeds: list[SeedEntry] = Field(description="the valid entries")
    allowed_roots: list[str] = Field(default_factory=list)
    problems: list[EntryProblem] = Field(default_factory=list)
    entry_ids: list[str | None] = Field(default_factory=list, description="usable id of each seeds[i], or None")

    def seed(self, seed_id: str) -> SeedEntry:
        """The valid entry; ManifestError naming file and field for a refused one; KeyError if absent."""
        refused = [p for p in self.problems if p.seed_id == seed_id]
        if refused:
            raise ManifestError("; ".join(p.describe(self.file) for p in refused))
        for entry in self.seeds:
            if entry.id == seed_id:
                return entry
        raise KeyError(f"seed {seed_id!r} is not in manifest {self.file}")

    def pdf_path(self, seed_id: str) -> Path:
        """The entry's file as written (joined to the manifest's folder, `..` folded), after checking
        again that it really lies in the allowed folders: a link may have changed since loading."""
        entry = self.seed(seed_id)
        roots = [Path(os.path.normpath(self.file.parent / r)) for r in self.allowed_roots]
        reason = _path_problem(entry.path, self.file.parent, roots)
        if reason:
            raise ManifestError(f"{self.field_ref(seed_id)}: {reason}")
        return Path(os.path.normpath(self.file.parent / entry.path))

    def seed_pdf(self, seed_id: str) -> Path:
        """`pdf_path`, with a generated entry's PDF (demo, scale) written first where it is missing, so
        ingestion only ever reads a document and never knows how one is made (seedgen makes them)."""
        from mmeb_assets.seedgen.demo_seeds import ensure_seed_pdf

        return ensure_seed_pdf(self.seed(seed_id), self.pdf_path(seed_id))

    def field_ref(self, seed_id: str, field: str = "path") -> str:
        """`<manifest>: seeds[i].<field>`, for errors about a valid entry's file."""
        index = next((i for i, s in enumerate(self.entry_ids) if s == seed_id), None)
        return f"{self.file}: seeds[{index}].{field}" if index is not None else f"{self.file}: seed {seed_id!r}"

    @property
    def ids(self) -> list[str]:
        """Partition keys in manifest order: every usable id, refused entries included (they fail visibly)."""
        if not self.entry_ids:
            return [s.id for s in self.seeds]
        return list(dict.fromkeys(i for i in self.entry_ids if i))

    @property
    def unusable(self) -> list[EntryProblem]:
        """Problems of entries that are no partition (no usable id)."""
        return [p for p in self.problems if p.seed_id is None]

    def problem_lines(self) -> list[str]:
        return [p.describe(self.file) for p in self.problems]

    def raise_for_problems(self) -> "Manifest":
        """Strict use (validation, tests): any refused entry is an error."""
        if self.problems:
            raise ManifestError("; ".join(self.problem_lines()))
        return self


def resolve_manifest_path(name_or_path: str | os.PathLike | None = None) -> Path:
    value = str(name_or_path or os.environ.get("MMEB_MANIFEST") or "demo")
    shipped = MANIFEST_DIR / f"{value}.yaml"
    if shipped.exists():
        return shipped
    path = Path(value).expanduser().resolve()
    if not path.exists():
        raise ManifestError(f"manifest not found: {path} (MMEB_MANIFEST or --manifest; shipped: demo, paper, shared)")
    return path


def load_manifest(name_or_path: str | os.PathLike | None = None, *, strict: bool = False,
                  log_problems: bool = True) -> Manifest:
    """The manifest with its valid entries; `strict=True` raises on any refused entry. Refused
    entries are logged the first time a version of the file is loaded with `log_problems`."""
    path = resolve_manifest_path(name_or_path)
    stat = path.stat()
    version = (path, stat.st_mtime_ns, stat.st_size)
    manifest = _load_cached(*version)
    if log_problems and version not in _LOGGED:
        _LOGGED.add(version)
        for problem in manifest.problems:
            log.warning("manifest entry refused: %s", problem.describe(path))
    return manifest.raise_for_problems() if strict else manifest


def _one_line_name(part: object) -> str:
    return part if isinstance(part, str) and part.isprintable() and part else repr(part)


def _field_errors(exc: ValidationError) -> list[tuple[str, str]]:
    out = []
    for err in exc.errors():
        field = ".".join(_one_line_name(p) for p in err["loc"]) or "entry"
        message = err["msg"]
        if err["type"] == "literal_error" and field == "archetype":
            message = f"unknown archetype {err.get('input')!r}: use one of {', '.join(ARCHETYPES)}"
        elif err["type"] == "extra_forbidden":
            message = "unknown field (a typo?)"
        out.append((field, message))
    return out


def _raw_id(entry: object) -> str | None:
    value = entry.get("id") if isinstance(entry, dict) else None
    return value if isinstance(value, str) and SEED_ID_PATTERN.match(value) else None


def _inside(target: Path, roots: list[Path]) -> bool:
    return any(target == root or root in target.parents for root in roots)


def _path_problem(path_value: str, folder: Path, roots: list[Path]) -> str:
    """'' when the file the entry's path leads to (links and `..` resolved) lies in the manifest's
    folder or an allowed root, else why not; the message names the path only as written."""
    allowed = [folder, *roots]
    written = Path(os.path.normpath(folder / path_value))
    try:
        real = Path(os.path.realpath(written))
        real_allowed = [Path(os.path.realpath(root)) for root in allowed]
    except (OSError, ValueError) as exc:  # an embedded NUL, a name too long, a link loop on some systems
        return f"{path_value!r} is not a usable file path ({type(exc).__name__})"
    if not _inside(written, allowed):
        return (f"{path_value!r} points outside the manifest's folder {folder}; "
                "keep seed PDFs beside the manifest or list their folder under 'allowed_roots:'")
    if not _inside(real, real_allowed):
        return (f"{path_value!r} is a symbolic link (or lies under one) that leads outside the manifest's folder "
                "and its allowed_roots; refused without opening it")
    if written.suffix.lower() != ".pdf":
        return f"{path_value!r} is not a .pdf file name"
    return ""


def _check_entries(path: Path, raw_seeds: list, roots: list[Path]) -> tuple[list[SeedEntry], list[EntryProblem],
                                                                              list[str | None]]:
    entries: list[SeedEntry | None] = []
    problems: list[EntryProblem] = []
    ids: list[str | None] = []
    for index, raw in enumerate(raw_seeds):
        usable = _raw_id(raw)
        ids.append(usable)
        if not isinstance(raw, dict):
            problems.append(EntryProblem(index=index, seed_id=None, field="entry", message="not a mapping"))
            entries.append(None)
            continue
        try:
            entry = SeedEntry.model_validate(raw)
        except ValidationError as exc:
            problems += [EntryProblem(index=index, seed_id=usable, field=f, message=m) for f, m in _field_errors(exc)]
            entries.append(None)
            continue
        reason = _path_problem(entry.path, path.parent, roots)
        if reason:
            problems.append(EntryProblem(index=index, seed_id=entry.id, field="path", message=reason))
            entries.append(None)
            continue
        entries.append(entry)
    for seed_id in sorted({i for i in ids if i and ids.count(i) > 1}):
        where = [n for n, i in enumerate(ids) if i == seed_id]
        problems += [EntryProblem(index=n, seed_id=seed_id, field="id",
                                  message=f"duplicate seed id {seed_id!r} (used by seeds{where}); "
                                          "give each entry its own id") for n in where]
        for n in where:
            entries[n] = None
    return [e for e in entries if e is not None], sorted(problems, key=lambda p: p.index), ids


def _yaml_error_line(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None)
    if mark is not None and problem:
        return f"line {mark.line + 1}, column {mark.column + 1}: {' '.join(str(problem).split())}"
    return " ".join(str(exc).split())


def _read_yaml(path: Path) -> object:
    """The document, or ManifestError in one line naming the file (too large, too deep, an alias bomb,
    not UTF-8, not YAML, a value YAML cannot construct)."""
    try:
        return load_bounded(path.read_bytes())
    except OSError as exc:
        raise ManifestError(f"{path}: cannot be read: {exc.strerror or type(exc).__name__}") from exc
    except YAMLLimitError as exc:
        raise ManifestError(f"{path}: refused, over the YAML limits: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise ManifestError(f"{path}: not UTF-8 text (byte {exc.start})") from exc
    except yaml.YAMLError as exc:
        raise ManifestError(f"{path}: not valid YAML: {_yaml_error_line(exc)}") from exc
    except (ValueError, OverflowError) as exc:  # e.g. a date `2024-13-01`, an int of 5,000 digits
        raise ManifestError(f"{path}: not valid YAML: a value cannot be read ({' '.join(str(exc).split())})") from exc


@lru_cache(maxsize=16)
def _load_cached(path: Path, _mtime_ns: int, _size: int) -> Manifest:
    raw = _read_yaml(path)
    if not isinstance(raw, dict) or not isinstance(raw.get("seeds"), list):
        raise ManifestError(f"{path}: expected a top-level 'seeds:' list")
    name = raw.get("name", path.stem)
    if not isinstance(name, str):
        raise ManifestError(f"{path}: name: expected a text, got {type(name).__name__}")
    roots_raw = raw.get("allowed_roots") or []
    if not isinstance(roots_raw, list) or not all(isinstance(r, str) and "\0" not in r for r in roots_raw):
        raise ManifestError(f"{path}: allowed_roots: expected a list of folder paths (relative to the manifest)")
    roots = [Path(os.path.normpath(path.parent / r)) for r in roots_raw]
    seeds, problems, ids = _check_entries(path, raw["seeds"], roots)
    return Manifest(name=name, file=path, seeds=seeds, allowed_roots=roots_raw, problems=problems, entry_ids=ids)
