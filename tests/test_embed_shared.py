"""Questions embedded by two runs at once (mmeb_resources/embed_shared.py): together they embed each
question about once, not twice, and each gets the vectors a lone run gets."""
from __future__ import annotations

import hashlib
import multiprocessing as mp
import time

import numpy as np

from mmeb_resources.embed_shared import CLAIM_FRESH_S, claim_forward
from mmeb_resources.embedder import EmbedderResource, EmbedInput

QUESTIONS = [f"What is the recall of system {n} on split {n % 7}?" for n in range(400)]


class SlowHashEmbedder(EmbedderResource):
    """Vectors from a text's hash, at a fixed cost per input (a stand-in for the encoder)."""

    seconds_per_input: float = 0.004

    def model_key(self) -> str:
        return "slow-hash:v1"

    def uses_images(self) -> bool:
        return False

    def _encode(self, inputs: list[EmbedInput], instruction: str) -> np.ndarray:
        time.sleep(self.seconds_per_input * len(inputs))
        seeds = [int(hashlib.sha256((instruction + i.text).encode()).hexdigest()[:8], 16) for i in inputs]
        return np.stack([np.random.default_rng(s).standard_normal(8) for s in seeds]).astype(np.float32)


def _run(cache: str, start, out) -> None:
    embedder = SlowHashEmbedder(name="minilm", cache_path=cache, batch_size=16)
    start.wait()
    vectors = embedder.embed_queries(QUESTIONS)
    out.put((embedder.stats["misses"], vectors.tobytes()))


def test_two_runs_share_the_questions_and_get_a_lone_runs_vectors(tmp_path):
    ctx = mp.get_context("fork")
    start, out = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=_run, args=(str(tmp_path / "shared.sqlite"), start, out)) for _ in range(2)]
    for proc in procs:
        proc.start()
    results = [out.get(timeout=60) for _ in procs]
    for proc in procs:
        proc.join(60)
    lone = SlowHashEmbedder(name="minilm", cache_path=str(tmp_path / "lone.sqlite"), batch_size=16)
    expected = lone.embed_queries(QUESTIONS).tobytes()
    assert [vectors for _misses, vectors in results] == [expected, expected]
    embedded = sum(misses for misses, _vectors in results)
    assert len(QUESTIONS) <= embedded <= 1.35 * len(QUESTIONS), embedded  # not 2 x 400
    assert min(misses for misses, _v in results) >= 0.25 * len(QUESTIONS)  # both did a share


def test_the_second_caller_walks_back_until_the_claim_is_stale(tmp_path):
    path = tmp_path / "claims.sqlite"
    assert claim_forward(path, "k", now=1000.0)
    assert not claim_forward(path, "k", now=1001.0)
    assert claim_forward(path, "k", now=1000.0 + CLAIM_FRESH_S + 1)
    assert claim_forward(path, "other", now=1001.0)


def _claim(cache: str, start, out) -> None:
    from mmeb_resources.embed_shared import claim_forward

    start.wait()
    out.put(claim_forward(cache, "same-questions"))


def test_only_one_of_many_callers_starting_together_walks_forward(tmp_path):
    """The claim is read and written under one write lock: two runs that both read 'no claim' before
    either wrote one both walked forward, in step, and embedded every question twice (CI saw 800 of 400)."""
    ctx = mp.get_context("fork")
    callers = 8
    for attempt in range(5):
        start, out = ctx.Barrier(callers), ctx.Queue()
        cache = str(tmp_path / f"claims{attempt}.sqlite")
        procs = [ctx.Process(target=_claim, args=(cache, start, out)) for _ in range(callers)]
        for proc in procs:
            proc.start()
        forward = [out.get(timeout=60) for _ in procs]
        for proc in procs:
            proc.join(60)
        assert sum(forward) == 1, forward
