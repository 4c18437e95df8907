"""Progress of long stages: items done of total, rate and time left, to the Dagster run log,
and a bar on the terminal when one is attached (the `mmeb` CLI runs in process)."""
from __future__ import annotations

import sys
import time
from typing import Callable, Iterable, Iterator, TypeVar

T = TypeVar("T")


class Progress:
    def __init__(self, label: str, total: int, log: Callable[[str], None] | None = None,
                 every_s: float = 5.0, stream=None):
        self.label, self.total, self.log, self.every_s = label, max(total, 0), log, every_s
        self.stream = stream if stream is not None else sys.stderr
        self.done = 0
        self.started = time.monotonic()
        self._last_log = self.started

    @property
    def rate(self) -> float:
        elapsed = time.monotonic() - self.started
        return self.done / elapsed if elapsed > 0 else 0.0

    def line(self) -> str:
        rate = self.rate
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        pct = 100.0 * self.done / self.total if self.total else 100.0
        return f"{self.label}: {self.done}/{self.total} ({pct:.0f}%), {rate:.1f}/s, ~{left:.0f}s left"

    def advance(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if self.stream is not None and getattr(self.stream, "isatty", lambda: False)():
            width = 30
            filled = int(width * self.done / self.total) if self.total else width
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.line()}")
            self.stream.flush()
        if self.log and (now - self._last_log >= self.every_s or self.done >= self.total):
            self.log(self.line())
            self._last_log = now

    def close(self) -> None:
        if self.stream is not None and getattr(self.stream, "isatty", lambda: False)():
            self.stream.write("\n")


def track(items: Iterable[T], total: int, label: str, log: Callable[[str], None] | None = None) -> Iterator[T]:
    """Iterate with progress; `log` is typically `context.log.info`."""
    progress = Progress(label, total, log)
    try:
        for item in items:
            yield item
            progress.advance()
    finally:
        progress.close()
