"""The build's console: one line per phase and per run, one progress bar, everything else to a log.

While a build runs, file descriptors 1 and 2 of the process (and so of the workers it spawns) point
at `$MMEB_HOME/logs/build-<time>.log`: Dagster's event log (it is also in the instance, so the UI
shows it), warnings, model-loading bars. The console writes to a copy of the original stdout.
`verbose` leaves the descriptors alone: the full log comes back to the terminal.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, TextIO

from mmeb_assets.operations.progress import bar


class Console:
    """Lines, and a bar redrawn in place when the stream is a terminal (no bar otherwise)."""

    def __init__(self, stream: TextIO | None = None):
        self.stream = stream or sys.stdout
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._lock = threading.Lock()
        self._bars: dict[str, tuple[int, int]] = {}
        self._shown = False

    def line(self, text: str) -> None:
        with self._lock:
            self._clear()
            self.stream.write(text + "\n")
            self._draw()
            self.stream.flush()

    def progress(self, label: str, done: int, total: int) -> None:
        """Set one bar's state (a phase's runs, a model's answers); finished bars disappear."""
        with self._lock:
            if total and done >= total:
                self._bars.pop(label, None)
            else:
                self._bars[label] = (done, total)
            self._clear()
            self._draw()
            self.stream.flush()

    def _clear(self) -> None:
        if self.tty and self._shown:
            self.stream.write("\r\033[K")
            self._shown = False

    def _draw(self) -> None:
        if not self.tty or not self._bars:
            return
        parts = [f"{label} {done}/{total}" for label, (done, total) in self._bars.items()]
        done, total = next(iter(self._bars.values()))
        try:
            width = max(20, os.get_terminal_size(self.stream.fileno()).columns - 2)
        except (OSError, ValueError, AttributeError):
            width = 100
        self.stream.write(f"{bar(done, total, 20)} {' | '.join(parts)}"[:width])
        self._shown = True

    def close(self) -> None:
        with self._lock:
            self._bars.clear()
            self._clear()
            self.stream.flush()


def new_log_path(home: Path) -> Path:
    folder = home / "logs"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"build-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.log"


@contextmanager
def quiet_terminal(log_path: Path, verbose: bool) -> Iterator[Console]:
    """Point fds 1 and 2 at the log for the duration; yield a console on the real stdout."""
    if verbose:
        yield Console(sys.stdout)
        return
    sys.stdout.flush()
    sys.stderr.flush()
    saved_out, saved_err = os.dup(1), os.dup(2)
    console_stream = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8", errors="replace")
    log_fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(log_fd, 1)
    os.dup2(log_fd, 2)
    os.close(log_fd)
    console = Console(console_stream)
    try:
        yield console
    finally:
        console.close()
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved_out, 1)
        os.dup2(saved_err, 2)
        os.close(saved_out)
        os.close(saved_err)
        console_stream.close()
