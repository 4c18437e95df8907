"""Retrieval assets: `corpus` (the shared workspace), `lance_index` (per project), `retrievals`
(per retriever: top-100 for every benchmark question, Evidence Recall@k as in Table 7)."""
import time

import dagster as dg

from mmeb_assets.partitions import retriever_partitions_def, seed_partitions_def
from mmeb_assets.provenance import code_version, content_hash, make_provenance
from mmeb_assets.retrieval.config import load_retrievers
from mmeb_assets.retrieval.hits_cache import HitsCache
from mmeb_assets.retrieval.index import index_records, project_hashes
from mmeb_assets.retrieval.metrics import ranking_metrics, write_metrics
from mmeb_assets.retrieval.models import IndexUpdate
from mmeb_assets.retrieval.recall import (RECALL_DEFINITION, read_overall, recall_by_group, recall_csv, recall_markdown,
                                          table7_row)
from mmeb_assets.retrieval.rankers import TOP_K, rank_questions
from mmeb_assets.schema.evaluation import Retrieval, RetrievalSet
from mmeb_assets.schema.qa import Benchmark
from mmeb_assets.schema.records import VISUAL_SOURCES, Corpus, Record, RecordSet
from mmeb_resources.embedder import EmbedderResource, make_embedder
from mmeb_resources.lancedb import LanceDBResource
from mmeb_resources.storage import StorageResource, atomic_write_jsonl, atomic_write_text

STAGE = "retrieval"


def build_corpus(record_sets: dict[str, RecordSet]) -> Corpus:
    """All projects' records in (project, order, id) order; a duplicate id names both projects."""
    owner: dict[str, str] = {}
    records: list[Record] = []
    for seed in sorted(record_sets):
        for record in record_sets[seed].records:
            if record.id in owner:
                raise ValueError(f"records of {seed!r}: id {record.id!r} already used by project {owner[record.id]!r}")
            owner[record.id] = seed
            records.append(record)
    records.sort(key=lambda r: (r.project, r.order, r.id))
    return Corpus(records=records, projects=sorted(record_sets))


def corpus_stats_markdown(corpus: Corpus) -> tuple[dict, str]:
    text = sum(r.modality == "text" for r in corpus.records)
    visual = len(corpus.records) - text
    by_source: dict[str, int] = {}
    for record in corpus.records:
        by_source[record.source] = by_source.get(record.source, 0) + 1
    stats = {"records": len(corpus.records), "text": text, "visual": visual, "projects": len(corpus.projects)}
    rows = [f"| {'visual' if s in VISUAL_SOURCES else 'text'} | {s} | {n} |" for s, n in sorted(by_source.items())]
    md = (f"**{len(corpus.records)} retrieval records** ({text} textual, {visual} visual) in "
          f"{len(corpus.projects)} projects\n\n| modality | source | records |\n|---|---|---:|\n" + "\n".join(rows))
    return stats, md


@dg.asset(
    ins={"records": dg.AssetIn(partition_mapping=dg.AllPartitionMapping())},
    code_version=code_version(STAGE), group_name=STAGE,
    description="Every project's records: the shared retrieval workspace (text and visual records).",
)
def corpus(context: dg.AssetExecutionContext, records: dict[str, RecordSet]) -> Corpus:
    result = build_corpus(records)
    stats, md = corpus_stats_markdown(result)
    context.add_output_metadata({**stats, "preview": dg.MetadataValue.md(md)})
    return result


def embedder_for(retriever: str, embedder: EmbedderResource) -> EmbedderResource:
    """The configured `embedder` resource when it is this retriever, else one built from
    config/retrievers.yaml (sharing the resource's cache file)."""
    if embedder.name == retriever:
        return embedder
    return make_embedder(retriever, load_retrievers().spec(retriever), cache_path=embedder.cache_path)


@dg.asset(
    partitions_def=seed_partitions_def, code_version=code_version(STAGE), group_name=STAGE,
    description="This project's rows of the shared LanceDB table (vectors, metadata, full-text index).",
)
def lance_index(context: dg.AssetExecutionContext, records: RecordSet, embedder: EmbedderResource,
                lancedb: LanceDBResource, storage: StorageResource):
    seed = context.partition_key
    wrong = [r.id for r in records.records if r.project != seed]
    if wrong:
        raise ValueError(f"projects/{seed}/records.json: records of another project: {wrong[:5]}")
    name = lancedb.table_name(embedder.name)
    cpu_started = time.process_time()  # beside the step's wall time: what other load on the machine cost it
    counts = index_records(lancedb.connect(), name, seed, records.records, storage.root / "projects", embedder)
    cpu_s = time.process_time() - cpu_started
    table = lancedb.open_table(embedder.name)
    rows = project_hashes(table, seed)
    update = IndexUpdate(
        seed_id=seed, retriever=embedder.name, model_key=embedder.model_key(), table=name, project_rows=len(rows),
        dimension=table.schema.field("vector").type.list_size if table is not None else 0,
        rows_hash=content_hash(sorted(rows.items())),
        provenance=make_provenance(seed, STAGE, "rules", model=embedder.model_key(), code=code_version(STAGE),
                                   inputs=[[r.id, r.text, r.image_path] for r in records.records]),
    )
    return dg.Output(update, metadata={"uri": lancedb.resolved_uri(), "project_rows": len(rows),
                                       "table_rows": counts["rows"], "inserted": counts["inserted"],
                                       "updated": counts["updated"], "deleted": counts["deleted"],
                                       "embedded": counts["embedded"], "from_cache": counts["cached"],
                                       "dimension": update.dimension, "cpu_s": round(cpu_s, 3)})


def sync_index(corpus: Corpus, embedder: EmbedderResource, lancedb: LanceDBResource,
               storage: StorageResource) -> list[str]:
    """Bring the retriever's table up to date with the corpus, project by project (cached vectors);
    returns the projects that were (re)indexed. A no-op after `lance_index` for the same retriever."""
    from mmeb_assets.retrieval.index import embed_inputs

    by_project: dict[str, list[Record]] = {p: [] for p in corpus.projects}
    for record in corpus.records:
        by_project.setdefault(record.project, []).append(record)
    changed = []
    root = storage.root / "projects"
    for project, records in by_project.items():
        table = lancedb.open_table(embedder.name)
        want = {r.id: embedder.content_hash(item, "document")
                for r, item in zip(records, embed_inputs(records, root, embedder))}
        if project_hashes(table, project) != want:
            index_records(lancedb.connect(), lancedb.table_name(embedder.name), project, records, root, embedder)
            changed.append(project)
    return changed


def write_table7(storage: StorageResource) -> str:
    """evaluation/retrieval/table7_recall.md: the recall row of every retriever materialized so far."""
    root = storage.evaluation_dir(STAGE)
    overall = {}
    for name in load_retrievers().names:
        path = root / name / "recall.csv"
        if path.exists():
            overall[name] = read_overall(path.read_text(encoding="utf-8"))
    md = "### Table 7 — Evidence Recall@k by retriever\n\n" + table7_row(overall) + f"\n{RECALL_DEFINITION}.\n"
    atomic_write_text(root / "table7_recall.md", md)
    return md


@dg.asset(
    partitions_def=retriever_partitions_def, code_version=code_version(STAGE), group_name=STAGE,
    ins={"lance_index": dg.AssetIn(partition_mapping=dg.AllPartitionMapping())},
    description="Top-100 records for every benchmark question (embedding, BM25 or hybrid retriever), Evidence "
                "Recall@k (k = 10, 50, 100), nDCG@10 and MRR.",
    check_specs=[dg.AssetCheckSpec("covers_benchmark", asset="retrievals", blocking=True,
                                   description="every benchmark question has a ranked list, non-empty except for "
                                               "BM25 when no query term occurs in any record"),
                 dg.AssetCheckSpec("gold_in_corpus", asset="retrievals", blocking=False,
                                   description="every gold evidence id is a corpus record")],
)
def retrievals(context: dg.AssetExecutionContext, benchmark: Benchmark, corpus: Corpus,
               lance_index: dict[str, IndexUpdate], embedder: EmbedderResource, lancedb: LanceDBResource,
               storage: StorageResource):
    retriever = context.partition_key
    items = benchmark.items
    ranking = rank_questions(retriever, items, corpus, embedder, lancedb,
                             sync=lambda model: sync_index(corpus, model, lancedb, storage),
                             cache=HitsCache(storage.cache_dir() / "retrievals.sqlite"))
    hits = ranking.hits
    result_list = [Retrieval(question_id=item.id, record_ids=[rid for rid, _ in h], scores=[round(s, 6) for _, s in h])
                   for item, h in zip(items, hits)]
    modality = {r.id: r.modality for r in corpus.records}
    recall, counts = recall_by_group(items, {r.question_id: r.record_ids for r in result_list}, modality)
    result = RetrievalSet(
        retriever=retriever, retrievals=result_list, recall=recall, recall_counts=counts,
        provenance=make_provenance("all", STAGE, "rules", model=ranking.model_key, code=code_version(STAGE),
                                   inputs={"questions": content_hash([i.model_dump(mode="json") for i in items]),
                                           "corpus": content_hash([[r.id, r.text] for r in corpus.records])}),
    )
    md = recall_markdown(retriever, recall, counts)
    folder = storage.evaluation_dir(STAGE, retriever)
    atomic_write_text(folder / "recall.md", md)
    atomic_write_text(folder / "recall.csv", recall_csv(retriever, recall, counts))
    atomic_write_jsonl(folder / "retrievals.jsonl", result_list)
    ranks = ranking_metrics(items, {r.question_id: r.record_ids for r in result_list})
    write_metrics(folder, retriever, ranks)
    combined = write_table7(storage)
    missing = sorted({rid for i in items for rid in i.evidence if rid not in modality})
    yield dg.Output(result, metadata={
        "questions": len(items), "answerable_scored": counts.get("overall", 0), "top_k": TOP_K,
        "recall@10": recall["10"].get("overall", 0.0), "recall@50": recall["50"].get("overall", 0.0),
        "recall@100": recall["100"].get("overall", 0.0), "ndcg@10": ranks["ndcg@10"], "mrr": ranks["mrr"],
        "gold_ids_not_in_corpus": len(missing), "reindexed_projects": ", ".join(ranking.reindexed) or "none",
        "ranker": ranking.model_key, "queries_searched": ranking.searched, **{key: round(value, 3) for key, value in ranking.timings.items()},
        "recall_table": dg.MetadataValue.md(md),
        "table7_recall_row": dg.MetadataValue.md(combined),
        "recall_file": str(folder / "recall.md"), "definition": RECALL_DEFINITION,
    })
    empty = [r.question_id for r in result_list if not r.record_ids]
    keyword_only = load_retrievers().spec(retriever)["kind"] == "bm25"  # no query term in any record: nothing
    yield dg.AssetCheckResult(check_name="covers_benchmark",
                              passed=len(result_list) == len(items) and (keyword_only or not empty),
                              metadata={"questions": len(items), "ranked": len(result_list), "empty": len(empty),
                                        "empty_examples": ", ".join(empty[:5])})
    yield dg.AssetCheckResult(check_name="gold_in_corpus", passed=not missing, severity=dg.AssetCheckSeverity.WARN,
                              metadata={"missing": len(missing), "examples": ", ".join(missing[:5])})
