"""Progress of long stages: items done of total, rate and time left, to the Dagster run log,
and to the person at the terminal.

Under `mmeb build` the terminal belongs to the build's console (the run logs go to a file), so a
build installs a sink (`set_sink`) and every Progress reports there, a few times a second; the
console draws one bar. Without a sink a Progress draws its own bar when stderr is a terminal."""
from __future__ import annotations

import sys
import time
from typing import Callable, Iterable, Iterator, TypeVar

T = TypeVar("T")
Sink = Callable[[str, int, int], None]
_SINK: list[Sink] = []
SINK_EVERY_S = 0.5


def set_sink(sink: Sink | None) -> None:
    """Where (label, done, total) updates go; None restores the terminal bar of each Progress."""
    _SINK[:] = [sink] if sink is not None else []


class Progress:
    def __init__(self, label: str, total: int, log: Callable[[str], None] | None = None,
                 every_s: float = 5.0, stream=None):
        self.label, self.total, self.log, self.every_s = label, max(total, 0), log, every_s
        self.stream = stream if stream is not None else sys.stderr
        self.done = 0
        self.started = time.monotonic()
        self._last_log = self.started
        self._last_sink = 0.0

    @property
    def rate(self) -> float:
        elapsed = time.monotonic() - self.started
        return self.done / elapsed if elapsed > 0 else 0.0

    def line(self) -> str:
        rate = self.rate
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        pct = 100.0 * self.done / self.total if self.total else 100.0
        return f"{self.label}: {self.done}/{self.total} ({pct:.0f}%), {rate:.1f}/s, ~{left:.0f}s left"

    def _tty(self) -> bool:
        return not _SINK and self.stream is not None and getattr(self.stream, "isatty", lambda: False)()

    def advance(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if _SINK and (now - self._last_sink >= SINK_EVERY_S or self.done >= self.total):
            _SINK[0](self.label, self.done, self.total)
            self._last_sink = now
        if self._tty():
            self.stream.write(f"\r{bar(self.done, self.total)} {self.line()}")
            self.stream.flush()
        if self.log and (now - self._last_log >= self.every_s or self.done >= self.total):
            self.log(self.line())
            self._last_log = now

    def close(self) -> None:
        if self._tty():
            self.stream.write("\n")


def bar(done: int, total: int, width: int = 30) -> str:
    filled = min(width, int(width * done / total)) if total else width
    return f"[{'#' * filled}{'.' * (width - filled)}]"


def track(items: Iterable[T], total: int, label: str, log: Callable[[str], None] | None = None) -> Iterator[T]:
    """Iterate with progress; `log` is typically `context.log.info`."""
    progress = Progress(label, total, log)
    try:
        for item in items:
            yield item
            progress.advance()
    finally:
        progress.close()
