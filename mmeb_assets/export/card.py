"""The dataset card (README.md) of the hf export: YAML front matter the Hub reads (licence, configs,
features, categories, size) and the sections a user needs to trust and use the data."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import yaml

from mmeb_assets.export.build import BuildHome
from mmeb_assets.export.features import CONFIG_FEATURES
from mmeb_resources.storage import atomic_write_text

# manifest licence text (lower case, prefix) -> Hub licence id; anything else is 'other'
HUB_LICENSES = (("cc0", "cc0-1.0"), ("cc by-sa 4.0", "cc-by-sa-4.0"), ("cc-by-sa-4.0", "cc-by-sa-4.0"),
                ("cc by 4.0", "cc-by-4.0"), ("cc-by-4.0", "cc-by-4.0"), ("mit", "mit"), ("apache 2.0", "apache-2.0"),
                ("apache-2.0", "apache-2.0"))
SIZE_BUCKETS = ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M"))
CARD_TABLES = ("table3c_questions", "table3d_evidence", "table3_source_combinations", "table4_modality")


def hub_license(text: str) -> str:
    lowered = text.strip().lower()
    return next((hub for prefix, hub in HUB_LICENSES if lowered.startswith(prefix)), "other")


def card_license(sources: list[dict]) -> dict:
    """`license` for the front matter: the one Hub id every seed shares, else `other` with the list."""
    ids = {hub_license(s["license"]) for s in sources}
    if len(ids) == 1 and "other" not in ids:
        return {"license": ids.pop()}
    return {"license": "other", "license_name": "per-seed licences",
            "license_details": "; ".join(f"{s['id']}: {s['license']}" for s in sources)}


def size_category(n: int) -> str:
    return next((label for bound, label in SIZE_BUCKETS if n < bound), "n>1M")


def parquet_bytes(path: Path) -> int:
    """The uncompressed size of a parquet file's data (what `datasets` calls a split's num_bytes)."""
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(path).metadata
    return sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))


def front_matter(counts: dict[str, int], sources: list[dict], sizes: dict[str, int] | None = None) -> dict:
    """The card's YAML; every split gives name, num_examples and num_bytes, or `datasets` warns that
    the card's splits are malformed on every load."""
    configs = [{"config_name": c, "data_files": [{"split": "test", "path": f"data/{c}/test.parquet"}]}
               for c in counts]
    sizes = sizes or {}
    infos = [{"config_name": c, "features": CONFIG_FEATURES[c]._to_yaml_list(),
              "splits": [{"name": "test", "num_bytes": sizes.get(c, 0), "num_examples": n}],
              "dataset_size": sizes.get(c, 0)} for c, n in counts.items()]
    return {
        **card_license(sources),
        "pretty_name": "MMEnterprise-Bench (MMEB build)",
        "language": ["en"],
        "task_categories": ["question-answering", "text-retrieval", "visual-question-answering"],
        "task_ids": ["document-retrieval", "extractive-qa"],
        "size_categories": [size_category(counts.get("questions", 0))],
        "tags": ["enterprise", "multimodal", "rag", "retrieval", "conflict-resolution", "temporal-reasoning"],
        "configs": configs,
        "dataset_info": infos,
        "seed_licenses": {s["id"]: s["license"] for s in sources},
    }


def _seed_table(sources: list[dict]) -> str:
    rows = [f"| {s['id']} | {s['title']} | {s['domain']} | `{s['path']}` | {s['license']} | `{s['sha256'][:12]}` |"
            for s in sources]
    return "| seed | title | domain | source | licence | sha256 |\n|---|---|---|---|---|---|\n" + "\n".join(rows)


def _generators(home: BuildHome) -> str:
    by_family = Counter(re.sub(r"[:.].*", "", i.generator) + (":" + i.provenance.model if i.provenance.model else "")
                        for i in home.items)
    decisions = Counter(i.validation.decision if i.validation else "none" for i in home.items)
    dropped = ", ".join(f"{k}: {v}" for k, v in home.benchmark.dropped.items()) or "none"
    return (f"Question generators: {', '.join(f'{k} ({v})' for k, v in sorted(by_family.items()))}. "
            f"Validation decisions of the kept questions: {', '.join(f'{k} {v}' for k, v in sorted(decisions.items()))}; "
            f"dropped by category: {dropped}. Category mix achieved "
            f"{_mix(home.benchmark.mix)} against a target of {_mix(home.benchmark.target_mix)}.")


def _mix(mix: dict[str, float]) -> str:
    return ", ".join(f"{k} {100 * v:.0f}%" for k, v in mix.items()) or "n/a"


def _records_table(home: BuildHome) -> str:
    by_source = Counter((r.modality, r.source) for r in home.corpus.records)
    rows = [f"| {m} | {s} | {n} |" for (m, s), n in sorted(by_source.items())]
    return (f"**Records** ({len(home.corpus.records)} in {len(home.corpus.projects)} projects)\n\n"
            "| modality | source | records |\n|---|---|---:|\n" + "\n".join(rows))


def _statistics(home: BuildHome) -> str:
    tables = {t.name: t for t in home.statistics.tables}
    parts = [_records_table(home)] + [tables[name].to_markdown() for name in CARD_TABLES if name in tables]
    return "\n\n".join(parts)


def _configs_table(counts: dict[str, int]) -> str:
    what = {"questions": "one row per question (gold answer, evidence ids, task, validation, provenance)",
            "corpus": "one row per record: stored text; visual records also their image (`Image`)",
            "qrels": "gold evidence as (query_id, corpus_id, score=1)",
            "judgments": "per model and k: each answer, its retrieved records and the judge's verdict",
            "leaderboard": "the report's cells (Tables 5-7) with bootstrap 95% intervals"}
    return "| config | rows | content |\n|---|---:|---|\n" + "\n".join(
        f"| `{c}` | {n} | {what[c]} |" for c, n in counts.items())


def card_body(home: BuildHome, counts: dict[str, int], sources: list[dict]) -> str:
    template = (Path(__file__).parent / "card_template.md").read_text(encoding="utf-8")
    return template.format(
        questions=counts.get("questions", 0), records=counts.get("corpus", 0), projects=len(home.benchmark.projects),
        configs=_configs_table(counts), seeds=_seed_table(sources), generators=_generators(home),
        statistics=_statistics(home))


def write_card(out: Path, home: BuildHome, counts: dict[str, int], sources: list[dict]) -> Path:
    sizes = {c: parquet_bytes(out / "data" / c / "test.parquet") for c in counts
             if (out / "data" / c / "test.parquet").exists()}
    header = yaml.safe_dump(front_matter(counts, sources, sizes), sort_keys=False, allow_unicode=True, width=1000)
    return atomic_write_text(out / "README.md", f"---\n{header}---\n\n{card_body(home, counts, sources)}")
