"""Fault injection for the crash-and-resume tests: `crash_point(name)` SIGKILLs the process there.

Off unless `MMEB_CRASH_AT` names the point, so production code pays one dictionary lookup. The value
is `name` (the first time the point is reached) or `name@N` (the N-th time). With `MMEB_CRASH_STATE`
set to a file, the count is kept in that file under a lock, so it spans every process of a build
(parallel workers); without it the count is per process. `MMEB_CRASH_GROUP=1` kills the whole
process group (the test starts the build in its own session), so no worker outlives the "crash".
Before dying, the point appends its name to `MMEB_CRASH_STATE.fired`, so a test can tell that the
kill happened where it meant and not somewhere else.
"""
from __future__ import annotations

import fcntl
import os
import signal
from pathlib import Path

_COUNTS: dict[str, int] = {}


def _target() -> tuple[str, int] | None:
    spec = os.environ.get("MMEB_CRASH_AT", "").strip()
    if not spec:
        return None
    name, _, nth = spec.partition("@")
    return name, int(nth or 1)


def _count(name: str, state: str) -> int:
    """How many times `name` has been reached, this time included (across processes with a state file)."""
    if not state:
        _COUNTS[name] = _COUNTS.get(name, 0) + 1
        return _COUNTS[name]
    with open(state, "a+", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        handle.seek(0)
        seen = sum(1 for line in handle.read().splitlines() if line == name) + 1
        handle.write(name + "\n")
        handle.flush()
        os.fsync(handle.fileno())
        return seen


def crash_point(name: str) -> None:
    """SIGKILL this process (or its group) here when `MMEB_CRASH_AT` asks for this point and count."""
    target = _target()
    if target is None or target[0] != name:
        return
    state = os.environ.get("MMEB_CRASH_STATE", "")
    if _count(name, state) != target[1]:
        return
    if state:
        fired = Path(state + ".fired")
        with open(fired, "a", encoding="utf-8") as handle:
            handle.write(f"{name}@{target[1]} pid={os.getpid()}\n")
            handle.flush()
            os.fsync(handle.fileno())
    if os.environ.get("MMEB_CRASH_GROUP") == "1":
        os.killpg(os.getpgrp(), signal.SIGKILL)
    os.kill(os.getpid(), signal.SIGKILL)
