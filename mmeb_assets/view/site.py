"""Write the results browser: static shell + data as small JavaScript files.

Every data file is `MMEB.put(key, {...})`, loaded by a <script> tag, so the site works from file://
(where fetch() of local files is blocked) as well as from any static host. The leaderboard needs only
data/board.js; the question list, each run's verdicts and each question load when first opened. The
site is written to a temporary folder beside the target and swapped in, so a reader never sees half a
site, and a failed build leaves the previous one in place.
"""
from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from mmeb_assets.view.board import board_json, index_rows, pairs, verdict_string
from mmeb_assets.view.load import BuildData, load_build
from mmeb_assets.view.payload import PayloadContext, question_json

STATIC = Path(__file__).parent / "static"
SHARD = 500  # question files per folder
SITE_FILES = ("index.html", "app.css", "app.js", "tables.js", "question.js", "lists.js")


@dataclass
class SiteSummary:
    """What a site holds, for the asset's metadata and the CLI's last line."""

    out: Path
    questions: int
    runs: int
    retrievers: int
    seed_pages: int
    images: int
    submitted: list[str]
    health: dict[str, int]

    @property
    def index(self) -> Path:
        return self.out / "index.html"


def js_data(key: str, payload) -> str:
    """A data file: JSON as ASCII (no U+2028 surprises), '</' escaped so no file can close a tag."""
    text = json.dumps(payload, ensure_ascii=True, separators=(",", ":")).replace("</", "<\\/")
    return f"MMEB.put({json.dumps(key)},{text});\n"


def question_file(number: int) -> str:
    return f"data/q/{number // SHARD}/{number}.js"


def _write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")  # the whole folder is swapped in at the end


def _copy_images(data: BuildData, ctx: PayloadContext, root: Path) -> int:
    copied = 0
    for project, relative in sorted(ctx.images):
        source = data.home / "projects" / project / relative
        target = root / "media" / project / relative
        if source.is_file() and not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            copied += 1
    return copied


def _swap_in(tmp: Path, out: Path) -> None:
    old = out.with_name(out.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if out.exists():
        out.rename(old)
    tmp.rename(out)
    shutil.rmtree(old, ignore_errors=True)


def build_label(board: dict) -> str:
    """What the page says it was generated from: a digest of the leaderboard it shows, never the wall
    clock, so two builds of the same inputs write the same site byte for byte (issue 53)."""
    digest = hashlib.sha256(json.dumps(board, sort_keys=True, default=str).encode()).hexdigest()[:12]
    return f"from leaderboard {digest}"


def write_site(data: BuildData, out: Path, say: Callable[[str], None] = lambda line: None) -> SiteSummary:
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        for name in SITE_FILES:
            shutil.copyfile(STATIC / name, tmp / name)
        board = board_json(data)
        board["generated"] = build_label(board)
        _write(tmp, "data/board.js", js_data("board", board))
        say(f"view: leaderboard  {len(board['cells'])} cells, {len(data.runs)} runs, "
            f"health {', '.join(f'{k} {len(v)}' for k, v in board['health'].items())}")
        _write(tmp, "data/index.js", js_data("index", index_rows(data)))
        for number, run in enumerate(data.runs):
            _write(tmp, f"data/runs/{number}.js", js_data(f"run:{number}", verdict_string(run, data)))
        _write(tmp, "data/pairs.js", js_data("pairs", pairs(data)))
        say(f"view: indexes      {len(data.items)} questions, {len(data.runs)} verdict files, paired tests")
        ctx = PayloadContext.build(data, tmp / "media")
        for number, item in enumerate(data.items):
            _write(tmp, question_file(number), js_data(f"q:{number}", question_json(item, ctx)))
        spans = sum(1 for v in ctx.page_cache.values() if v and "boxes" in v)
        pages = sum(1 for v in ctx.page_cache.values() if v and "boxes" not in v)
        say(f"view: questions    {len(data.items)} pages, {spans} seed spans boxed on {pages} seed pages")
        images = _copy_images(data, ctx, tmp)
        say(f"view: media        {images} record images")
        _swap_in(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return SiteSummary(out=out, questions=len(data.items), runs=len(data.runs), retrievers=len(data.retrievers),
                       seed_pages=pages, images=images,
                       submitted=[r.answers.model for r in data.runs if r.group == "submitted"],
                       health={k: len(v) for k, v in board["health"].items()})


def build_site(home: Path, out: Path | None = None, say: Callable[[str], None] = lambda line: None) -> SiteSummary:
    """The site of the build at `home` (default out: <home>/view)."""
    data = load_build(home)
    say(f"view: read         {home} ({len(data.items)} questions, {len(data.records)} records)")
    return write_site(data, out or data.home / "view", say)
