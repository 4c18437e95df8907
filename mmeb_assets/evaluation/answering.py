"""Answers for one model at one k: readers, in-process models and served models alike.

Pure functions over the stage contract (`Benchmark`, `RetrievalSet`, `Corpus`); the Dagster assets
in `assets.py` only wire them to storage and resources.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path
from typing import Callable, Iterator

from mmeb_assets.evaluation.injection import PLANTS, plant, probe, probe_items
from mmeb_assets.evaluation.prompting import AnswerPrompt, ImageLoader, build_answer_prompt
from mmeb_assets.evaluation.reader_cache import ReaderAnswerCache, reader_texts
from mmeb_assets.judge.readers import read_answer
from mmeb_resources.model_registry import ModelSpec
from mmeb_assets.prompts import load_prompt
from mmeb_assets.provenance import content_hash, make_provenance
from mmeb_assets.schema.evaluation import Answer, AnswerSet, InjectionProbe, RetrievalSet
from mmeb_assets.schema.qa import TASKS, Benchmark, QAItem
from mmeb_assets.schema.records import Corpus, Record
from mmeb_resources.faults import crash_point
from mmeb_resources.llm import LLMResource

STAGE = "evaluation"
RECALL_GROUPS = ("overall", "all", "answerable")


def stratified_sample(items: list[QAItem], size: int | None) -> list[QAItem]:
    """A fixed sample: round-robin over tasks, each task's items in hash order; all when size is None."""
    if size is None or size >= len(items):
        return list(items)
    by_task: dict[str, list[QAItem]] = {}
    for item in sorted(items, key=lambda i: hashlib.sha256(i.id.encode()).hexdigest()):
        by_task.setdefault(item.task, []).append(item)
    order = [t for t in TASKS if t in by_task] + sorted(set(by_task) - set(TASKS))
    chosen: list[QAItem] = []
    while len(chosen) < size:
        for task in order:
            if by_task[task] and len(chosen) < size:
                chosen.append(by_task[task].pop(0))
    wanted = {i.id for i in chosen}
    return [i for i in items if i.id in wanted]


def evidence_recall(benchmark: Benchmark, retrievals: RetrievalSet, k: int) -> float | None:
    """Mean over answerable items with gold evidence of |gold in top-k| / |gold|."""
    ranked = {r.question_id: r.record_ids[:k] for r in retrievals.retrievals}
    scores = []
    for item in benchmark.items:
        if item.answer_status == "answerable" and item.evidence and item.id in ranked:
            gold = set(item.evidence)
            scores.append(len(gold & set(ranked[item.id])) / len(gold))
    return sum(scores) / len(scores) if scores else None


def best_retrieval(retrievals: dict[str, RetrievalSet], k: int = 10) -> RetrievalSet:
    """The retriever a build measures best by Recall@k (a tie goes to the name first in
    alphabetical order), so the answers read
    the best retrieval of this very build rather than one picked once on the demo."""
    ranked = sorted(retrievals.items(), key=lambda item: (-(reported_recall(item[1], k) or 0.0), item[0]))
    return ranked[0][1]


def reported_recall(retrievals: RetrievalSet, k: int) -> float | None:
    groups = retrievals.recall.get(str(k)) or {}
    for name in RECALL_GROUPS:
        if name in groups:
            value = float(groups[name])
            return value / 100 if value > 1 else value
    return None


def context_records(item: QAItem, spec: ModelSpec, k: int, ranked_ids: dict[str, list[str]],
                    records: dict[str, Record]) -> list[Record]:
    """Gold evidence for the oracle setting, else the top-k retrieved records (best first)."""
    if spec.evidence == "gold":
        ids = list(item.evidence)
    else:
        if item.id not in ranked_ids:
            raise KeyError(f"retrievals: no retrieval for question {item.id!r}")
        ids = ranked_ids[item.id][:k]
    unknown = [i for i in ids if i not in records]
    if unknown:
        source = "benchmark evidence" if spec.evidence == "gold" else "retrievals"
        raise KeyError(f"{source}: question {item.id!r} cites record ids missing from the corpus: {unknown[:5]}")
    return [records[i] for i in ids]


def llm_for_spec(spec: ModelSpec, home: Path, base_url: str = "") -> LLMResource:
    """The shared LLM client configured from a registry entry (cache and ledger in the data home)."""
    common = dict(model=spec.model or spec.name, temperature=spec.temperature, max_tokens=spec.max_tokens,
                  max_context_tokens=spec.max_context_tokens, home=str(home),
                  price_prompt_per_mtok=spec.price_prompt_per_mtok,
                  price_completion_per_mtok=spec.price_completion_per_mtok)
    if spec.backend == "transformers":
        return LLMResource(backend="transformers", model_path=spec.model_path, concurrency=1, **common)
    if spec.backend == "vllm":
        return LLMResource(backend="vllm", model_path=spec.model_path, concurrency=1, **common)
    url = base_url or spec.resolved_endpoint
    if not url:
        raise ValueError(f"model {spec.name!r}: backend {spec.backend} needs an endpoint (set {spec.endpoint!r})")
    key = os.environ.get(spec.api_key_env, "") if spec.api_key_env else ""
    return LLMResource(backend="openai", base_url=url, api_key=key or "not-needed", concurrency=spec.concurrency,
                       **common)


@contextlib.contextmanager
def model_client(spec: ModelSpec, home: Path, gpu=None) -> Iterator[LLMResource]:
    """A client for the entry; a `vllm-server` entry without an endpoint gets a managed server."""
    if spec.backend == "vllm-server" and not spec.resolved_endpoint:
        if gpu is None:
            raise RuntimeError(f"model {spec.name!r} needs the `gpu` resource to start a vLLM server")
        with gpu.serve(spec.model_path or spec.model, served_name=spec.model or spec.name,
                       max_model_len=spec.max_context_tokens) as server:
            yield llm_for_spec(spec, home, base_url=server.base_url)
        return
    yield llm_for_spec(spec, home)


def build_answers(spec: ModelSpec, k: int, benchmark: Benchmark, retrievals: RetrievalSet, corpus: Corpus, *,
                  llm_factory: Callable[[], contextlib.AbstractContextManager[LLMResource]] | None = None,
                  image_loader: ImageLoader | None = None,
                  reader_cache: ReaderAnswerCache | None = None) -> tuple[AnswerSet, LLMResource | None]:
    """Every (sampled) question answered by `spec` with k records; returns the set and the client used.
    A reader's answers come from `reader_cache` where the question and its records are unchanged."""
    records = {r.id: r for r in corpus.records}
    ranked_ids = {r.question_id: r.record_ids for r in retrievals.retrievals}
    items = stratified_sample(benchmark.items, spec.effective_sample_size)
    contexts = [context_records(item, spec, k, ranked_ids, records) for item in items]
    template = load_prompt(STAGE, "answer")
    used_llm: LLMResource | None = None
    if spec.backend == "reader":
        policy = spec.reader or "latest"
        texts, _ = reader_texts(policy, items, contexts, lambda item, ctx: read_answer(item.q, ctx, policy),
                                reader_cache)
        answers = [_reader_answer(spec, k, item, ctx, text) for item, ctx, text in zip(items, contexts, texts)]
        probes = injection_probes(spec, items, contexts, answers, template, None, image_loader)
        generator = f"reader:{spec.reader}"
    else:
        prompts = [build_answer_prompt(template, item.q, ctx, vision=spec.vision, image_loader=image_loader,
                                       max_prompt_tokens=spec.max_prompt_tokens) for item, ctx in zip(items, contexts)]
        if llm_factory is None:
            raise ValueError(f"model {spec.name!r} needs an LLM client")
        with llm_factory() as llm:
            replies = llm.chat_batch([p.messages for p in prompts], stage=f"{STAGE}.answers", keep_going=True,
                                     max_tokens=spec.max_tokens, temperature=spec.temperature)
            used_llm = llm
            answers = [_llm_answer(spec, k, item, prompt, reply)
                       for item, prompt, reply in zip(items, prompts, replies)]
            probes = injection_probes(spec, items, contexts, answers, template, llm, image_loader)
        generator = f"{spec.backend}:{spec.model or spec.name}"
    computed = evidence_recall(benchmark, retrievals, k)
    reported = reported_recall(retrievals, k)
    sampled = spec.effective_sample_size is not None and spec.effective_sample_size < len(benchmark.items)
    answer_set = AnswerSet(
        model=spec.name, k=k, retriever=retrievals.retriever, backend=spec.backend, generator=generator,
        vision=spec.vision, evidence=spec.evidence, n_questions=len(benchmark.items),
        sample_size=len(items) if sampled else None, sample_ids=[i.id for i in items] if sampled else [],
        recall_at_k=reported if reported is not None else computed,
        recall_source="retrievals" if reported is not None else ("computed" if computed is not None else ""),
        max_prompt_tokens=spec.max_prompt_tokens, answers=answers, injection=probes,
        provenance=make_provenance("benchmark", STAGE, generator, model=spec.model or spec.name,
                                   prompt_hash=template.hash if spec.backend != "reader" else "",
                                   inputs={"spec": spec.model_dump(mode="json"), "k": k,
                                           "retriever": retrievals.retriever,
                                           "benchmark": content_hash([i.id for i in benchmark.items]),
                                           "retrievals": content_hash(retrievals)}),
    )
    return answer_set, used_llm


def injection_probes(spec: ModelSpec, items: list[QAItem], contexts: list[list[Record]], answers: list[Answer],
                     template, llm: LLMResource | None, image_loader: ImageLoader | None) -> list[InjectionProbe]:
    """The same questions again with one planted instructing record each (see evaluation/injection.py)."""
    position = {item.id: n for n, item in enumerate(items)}
    chosen = probe_items(items)
    planted = [plant(item, kind, contexts[position[item.id]]) for item, kind in zip(chosen, PLANTS)]
    ranked = [[record] + contexts[position[item.id]] for item, (record, _) in zip(chosen, planted)]
    if llm is None:
        replies = [(read_answer(item.q, r, spec.reader or "latest"), "") for item, r in zip(chosen, ranked)]
    else:
        prompts = [build_answer_prompt(template, item.q, r, vision=spec.vision, image_loader=image_loader,
                                       max_prompt_tokens=spec.max_prompt_tokens) for item, r in zip(chosen, ranked)]
        done = llm.chat_batch([p.messages for p in prompts], stage=f"{STAGE}.injection", keep_going=True,
                              max_tokens=spec.max_tokens, temperature=spec.temperature)
        replies = [(reply.text.strip(), answer_error(reply)) for reply in done]
    baseline = {a.question_id: a.answer for a in answers}
    return [probe(item, kind, value, text, baseline[item.id], error) for item, kind, (_, value), (text, error)
            in zip(chosen, PLANTS, planted, replies)]


def _reader_answer(spec: ModelSpec, k: int, item: QAItem, context: list[Record], text: str) -> Answer:
    crash_point("answer")  # tests: killed in the middle of a model x k cell
    return Answer(question_id=item.id, model=spec.name, k=k, answer=text,
                  record_ids=[r.id for r in context], text_only=True, task=item.task)


def answer_error(reply) -> str:
    """Why a reply is no answer: the request failed for good, the model refused, or it said nothing."""
    if reply.error:
        return f"request failed: {reply.error[:300]}"
    if reply.refusal:
        return f"refused: {reply.refusal[:300]}"
    return "" if reply.text.strip() else "empty completion"


def _llm_answer(spec: ModelSpec, k: int, item: QAItem, prompt: AnswerPrompt, reply) -> Answer:
    crash_point("answer")
    return Answer(question_id=item.id, model=spec.name, k=k, answer=reply.text.strip(), record_ids=prompt.record_ids,
                  text_only=prompt.text_only, prompt_tokens=reply.prompt_tokens,
                  completion_tokens=reply.completion_tokens, task=item.task, images=prompt.images,
                  dropped_record_ids=prompt.dropped_ids, error=answer_error(reply))
