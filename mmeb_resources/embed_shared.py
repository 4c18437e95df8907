"""Query vectors embedded once by the runs that need them at the same time.

In the build's retrieval phase the `minilm` and `hybrid` runs start together on two workers and
both embed the same 1,798 questions with the same model: 17 s of one core each, the same vectors
twice, while the phase waited on the slower. Here each caller walks the questions in rounds, reads
the cache before a round and writes it after, so a round another run already stored is skipped; the
first caller walks forward and a second, seeing the first one's claim, walks backward, so the two
meet in the middle instead of following each other.
"""
from __future__ import annotations

import hashlib
import time
from typing import TYPE_CHECKING, Sequence

from mmeb_resources.sqlite_store import transaction

if TYPE_CHECKING:
    from mmeb_resources.embedder import EmbedderResource, EmbedInput

ROUND = 64  # inputs per round: a few mini-batches between two looks at the cache
CLAIM_FRESH_S = 600.0  # an older claim is a finished or dead walk: the next caller walks forward again


def fill_in_rounds(embedder: EmbedderResource, inputs: Sequence[EmbedInput], instruction: str) -> None:
    """Store the vectors of `inputs` in the embedder's cache, round by round (see the module)."""
    from mmeb_resources.embedder import length_ordered

    hashes = [embedder.content_hash(item, instruction) for item in inputs]
    first = {h: i for i, h in reversed(list(enumerate(hashes)))}
    order = length_ordered(inputs, sorted(first.values()))
    rounds = [order[start:start + ROUND] for start in range(0, len(order), ROUND)]
    if len(rounds) < 2:
        return
    key = f"{embedder.model_key()}|{instruction}|" + hashlib.sha256("".join(sorted(first)).encode()).hexdigest()
    if not claim_forward(embedder.cache().path, key):
        rounds.reverse()
    for indexes in rounds:
        embedder.embed([inputs[i] for i in indexes], instruction)  # reads the cache first, stores what it made


def claim_forward(path, key: str, now: float | None = None) -> bool:
    """True for the first caller of `key` (or the first after its claim went stale), else False."""
    now = time.time() if now is None else now
    with transaction(path) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS walk_claims (key TEXT PRIMARY KEY, at REAL NOT NULL)")
        conn.execute("BEGIN IMMEDIATE")  # read and claim under one write lock: two callers never both walk forward
        row = conn.execute("SELECT at FROM walk_claims WHERE key = ?", (key,)).fetchone()
        if row is not None and now - row[0] < CLAIM_FRESH_S:
            return False
        conn.execute("INSERT OR REPLACE INTO walk_claims VALUES (?, ?)", (key, now))
        return True
