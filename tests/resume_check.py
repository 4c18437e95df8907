"""What a data home must look like after a crash and a rerun (helpers of tests/test_crash_resume.py).

`artifact_problems` opens every artifact by its kind; `output_digests` hashes every output file so
two homes compare byte for byte; `index_problems` checks the LanceDB table against the records;
`duplicate_ids` looks for repeated questions and answers. Excluded from the byte comparison, each
for a reason: `dagster/` (run history: ids and times), `cache/` (SQLite caches and the usage ledger,
whose request counts legitimately grow with a rerun), `lance/` (fragment files are named by UUIDs;
compared by content in `index_rows` instead), and the build's own logs (`logs/`, `*.log` at the top).
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

from demo_home import SUITE_SAMPLE_SIZE

REPO = Path(__file__).resolve().parents[1]
NOT_OUTPUTS = ("dagster", "cache", "lance", "logs")
TEMP_FILE = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")  # mmeb_resources.storage.atomic_write_bytes


def output_files(home: Path) -> list[Path]:
    files = []
    for path in sorted(home.rglob("*")):
        rel = path.relative_to(home)
        if path.is_file() and rel.parts[0] not in NOT_OUTPUTS and not (len(rel.parts) == 1 and path.suffix == ".log"):
            files.append(path)
    return files


def temp_files(home: Path) -> list[str]:
    """Leftovers of writes killed before their rename (never a final artifact name)."""
    return [str(p.relative_to(home)) for p in output_files(home) if TEMP_FILE.match(p.name)]


def output_digests(home: Path, *other_homes: Path) -> dict[str, str]:
    """relative path -> sha256 of the bytes, the data home's own path written as `<home>` (a note in
    human_agreement.json names the annotation database by its absolute path). `other_homes`: homes
    this one was copied from, whose path a file that was rightly not rebuilt still carries."""
    markers = [str(h.resolve()).encode() for h in (home, *other_homes)]

    def digest(path: Path) -> str:
        data = path.read_bytes()
        for marker in markers:
            data = data.replace(marker, b"<home>")
        return hashlib.sha256(data).hexdigest()

    return {str(p.relative_to(home)): digest(p) for p in output_files(home) if not TEMP_FILE.match(p.name)}


def _parse(path: Path) -> None:
    data = path.read_bytes()
    suffix = path.suffix.lower()
    if suffix == ".json":
        envelope = json.loads(data)
        if isinstance(envelope, dict) and "model" in envelope and "data" in envelope:
            from mmeb_resources.io_manager import _load

            _load(path)
    elif suffix == ".jsonl":
        for line in data.decode("utf-8").splitlines():
            json.loads(line)
    elif suffix == ".png":
        from PIL import Image

        with Image.open(io.BytesIO(data)) as img:
            img.load()
    elif suffix == ".pdf":
        import pymupdf

        with pymupdf.open(stream=data, filetype="pdf") as doc:
            if doc.page_count == 0:
                raise ValueError("no pages")
            for page in doc:
                page.get_text()
    elif suffix == ".pptx":
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            bad = archive.testzip()
            if bad:
                raise ValueError(f"bad member {bad}")
    elif suffix == ".parquet":
        import pyarrow.parquet as pq

        pq.read_table(io.BytesIO(data))
    elif suffix == ".csv":
        list(csv.reader(io.StringIO(data.decode("utf-8"))))
    else:
        data.decode("utf-8")


def artifact_problems(home: Path, extra: list[Path] = ()) -> list[str]:
    """'<file>: <error>' for every output (and extra file, e.g. seed PDFs) that does not open."""
    problems = []
    for path in [*output_files(home), *extra]:
        if TEMP_FILE.match(path.name):
            continue
        try:
            _parse(path)
        except Exception as exc:  # noqa: BLE001 - any failure to open is the finding
            problems.append(f"{path}: {type(exc).__name__}: {exc}")
    return problems


def index_rows(home: Path) -> dict[str, list[dict]]:
    """Every LanceDB table's rows (id order), vectors included; {} when there is no index."""
    import lancedb

    root = home / "lance"
    if not root.exists():
        return {}
    db = lancedb.connect(str(root))
    names = list(getattr(db.list_tables(), "tables", db.list_tables()))
    out = {}
    for name in sorted(names):
        rows = db.open_table(name).to_arrow().to_pylist()
        for row in rows:
            row["vector"] = [round(float(v), 6) for v in row["vector"]]
        out[name] = sorted(rows, key=lambda r: r["id"])
    return out


def record_ids(home: Path) -> list[str]:
    ids = []
    for path in sorted((home / "projects").glob("*/records.jsonl")):
        ids += [json.loads(line)["id"] for line in path.read_text(encoding="utf-8").splitlines()]
    return ids


def index_problems(home: Path) -> list[str]:
    """Each record in each retriever's table exactly once, and nothing else."""
    tables = index_rows(home)
    records = record_ids(home)
    if not tables:
        return ["no LanceDB table"]
    problems = []
    for name, rows in tables.items():
        ids = [r["id"] for r in rows]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            problems.append(f"{name}: {len(dupes)} ids more than once, e.g. {dupes[:3]}")
        if set(ids) != set(records):
            problems.append(f"{name}: {len(set(records) - set(ids))} records missing, "
                            f"{len(set(ids) - set(records))} rows that are no record")
    return problems


def duplicate_ids(home: Path) -> list[str]:
    """Questions repeated in the benchmark or a project, answers repeated in a model x k cell."""
    problems = []
    files = [*(home / "projects").glob("*/questions.jsonl"), *(home / "benchmark").glob("*.jsonl")]
    for path in files:
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        ids = [r.get("id", r.get("record_id")) for r in rows]
        if len(ids) != len(set(ids)):
            problems.append(f"{path}: {len(ids) - len(set(ids))} repeated ids")
    for path in (home / "evaluation").glob("*/k*/answers.json"):
        answers = json.loads(path.read_text(encoding="utf-8"))["data"]["answers"]
        ids = [a["question_id"] for a in answers]
        if len(ids) != len(set(ids)):
            problems.append(f"{path}: {len(ids) - len(set(ids))} repeated answers")
    return problems


def build_env(home: Path, **extra: str) -> dict:
    env = dict(os.environ)
    env.update(MMEB_HOME=str(home), DAGSTER_HOME=str(home / "dagster"), MMEB_MANIFEST="demo",
               HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false",
               MMEB_SAMPLE_SIZE=SUITE_SAMPLE_SIZE)
    for key in ("MMEB_LLM_BACKEND", "MMEB_CRASH_AT", "MMEB_CRASH_STATE", "MMEB_CRASH_GROUP"):
        env.pop(key, None)
    env.update(extra)
    (home / "dagster").mkdir(parents=True, exist_ok=True)
    return env


def run_build(home: Path, args: list[str], log_name: str, timeout: int = 2400, crash_at: str = "",
              prelude: str = "", **env_extra: str) -> tuple[int, str]:
    """`mmeb <args>` in its own session (so a crash can kill its whole group); (returncode, output).

    `prelude` is Python run in the child before the CLI starts (the in-place writer variant)."""
    env = build_env(home, **env_extra)
    if crash_at:
        env.update(MMEB_CRASH_AT=crash_at, MMEB_CRASH_STATE=str(crash_state(home)), MMEB_CRASH_GROUP="1")
    code = f"{prelude}\nimport sys\nfrom mmeb_assets.cli import main\nsys.exit(main({args!r}))"
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=timeout, start_new_session=True)
    output = proc.stdout + "\n" + proc.stderr
    (home / f"{log_name}.log").write_text(output)
    return proc.returncode, output


def crash_state(home: Path) -> Path:
    """The crash counter lives beside the home, not in it (it is no output)."""
    return home.parent / f"{home.name}.crash.state"


def crashed_where(home: Path) -> list[str]:
    fired = Path(str(crash_state(home)) + ".fired")
    return [line.split()[0] for line in fired.read_text().splitlines() if line.strip()] if fired.exists() else []


KILLED = -signal.SIGKILL


def materialization_counts(home: Path) -> dict[tuple[str, str], int]:
    """(asset, partition) -> how many times it was materialized in this home's Dagster instance."""
    from dagster import AssetRecordsFilter, DagsterInstance
    from dagster._core.instance.ref import InstanceRef

    instance = DagsterInstance.from_ref(InstanceRef.from_dir(str(home / "dagster")))
    counts: dict[tuple[str, str], int] = {}
    try:
        for asset_key in instance.get_asset_keys():
            records = instance.fetch_materializations(AssetRecordsFilter(asset_key=asset_key), limit=10000).records
            for record in records:
                key = (asset_key.to_user_string(), str(record.partition_key or "-"))
                counts[key] = counts.get(key, 0) + 1
    finally:
        instance.dispose()
    return counts
