"""What one run did, in a form a person reads: ok, or FAILED with the one-line reason.

The reason of a failed run is the first failed blocking check (its asset, its name and the check's
own first message) or else the first failed step's own error message, never a stack trace."""
from __future__ import annotations

from dataclasses import dataclass, field

from dagster import DagsterEventType

REASON_KEYS = ("first", "message", "error", "reason", "problems_text")


@dataclass
class RunOutcome:
    phase: int
    assets: list[str]
    partition: str | None
    ok: bool
    seconds: float
    error: str = ""
    run_id: str = ""
    materialized: int = 0
    warnings: list[str] = field(default_factory=list)
    peak_rss_mib: float = 0.0
    skipped: bool = False  # up to date (operations/resume.py): nothing ran

    @property
    def label(self) -> str:
        return self.partition or "(unpartitioned)"


@dataclass
class BuildReport:
    outcomes: list[RunOutcome] = field(default_factory=list)
    seconds: float = 0.0
    workers: int = 1
    log_file: str = ""
    peak_rss_mib: float = 0.0
    left_out: list[str] = field(default_factory=list)
    build_id: str = ""
    seeds: frozenset[str] = frozenset()  # the seed partitions of the manifest, to name failures rightly
    stopped: str = ""  # why the later phases did not run (one line), if they did not

    @property
    def ok(self) -> bool:
        return all(o.ok for o in self.outcomes)

    @property
    def failed(self) -> list[RunOutcome]:
        return [o for o in self.outcomes if not o.ok]

    def summary(self) -> str:
        skipped = sum(o.skipped for o in self.outcomes)
        lines = [f"{len(self.outcomes) - skipped} runs, {len(self.failed)} failed, {skipped} up to date and skipped; "
                 f"{self.seconds:.0f}s with {self.workers} worker(s), peak RSS {self.peak_rss_mib:.0f} MiB"]
        lines += [f"  FAILED {failure_line(o, self.seeds)}" for o in self.failed]
        if self.stopped:
            lines.append(f"  {self.stopped}")
        return "\n".join(lines)

    def left_out_of(self, kind: str) -> list[str]:
        """Failed partitions of one kind ('seed', 'cell', 'partition'), in the order they failed."""
        return [p for p in self.left_out if partition_kind(p, self.seeds) == kind]


def partition_kind(partition: str | None, seeds: frozenset[str] | set[str] = frozenset()) -> str:
    """'seed' for a seed project, 'cell' for a model x k cell, 'partition' otherwise (a retriever)."""
    if not partition:
        return "(unpartitioned)"
    if "|" in partition:
        return "cell"
    return "seed" if not seeds or partition in seeds else "partition"


MAX_REASON = 220


def failure_line(outcome: RunOutcome, seeds: frozenset[str] | set[str] = frozenset()) -> str:
    """'seed X: reason' / 'cell 10|model: reason' on one line: the reason's first line, shortened."""
    kind = partition_kind(outcome.partition, seeds)
    where = kind if not outcome.partition else f"{kind} {outcome.partition}"
    reason = _first_line(outcome.error) or "run failed"
    if len(reason) > MAX_REASON:
        reason = reason[:MAX_REASON - 1].rstrip() + "…"
    return f"{where}: {reason}"


def _first_line(text: str) -> str:
    for line in (text or "").splitlines():
        if line.strip():
            return line.strip()
    return ""


def _check_message(evaluation) -> str:
    if getattr(evaluation, "description", None):
        return _first_line(evaluation.description)
    metadata = {k: getattr(v, "value", v) for k, v in (evaluation.metadata or {}).items()}
    for key in (*REASON_KEYS, *metadata):
        value = metadata.get(key)
        if isinstance(value, str) and value.strip() and value.strip() != "none":
            return _first_line(value)
    return "failed"


def _error_message(error) -> str:
    """The user's exception inside Dagster's wrappers: its own first line, with its class name."""
    while error.cause is not None and error.cls_name.startswith("Dagster"):
        error = error.cause
    message = _first_line(error.message)
    head, sep, rest = message.partition(": ")
    if sep and head.rsplit(".", 1)[-1] == error.cls_name:  # "pkg.module.Error: text" -> "Error: text"
        message = rest
    return f"{error.cls_name}: {message}" if error.cls_name else message


def failed_checks(events) -> list[tuple[str, str, str, bool]]:
    """(asset, check, message, blocking-or-error) of every failed check evaluation, in event order."""
    found = []
    for event in events:
        if event.event_type != DagsterEventType.ASSET_CHECK_EVALUATION:
            continue
        evaluation = event.event_specific_data
        if evaluation.passed:
            continue
        severe = getattr(evaluation.severity, "value", str(evaluation.severity)) == "ERROR"
        blocking = bool(getattr(evaluation, "blocking", severe)) and severe
        found.append((evaluation.asset_key.to_user_string(), evaluation.check_name, _check_message(evaluation), blocking))
    return found


def failure_reason(events) -> str:
    blocking = [c for c in failed_checks(events) if c[3]]
    if blocking:
        asset, check, message, _ = blocking[0]
        return f"{asset} check {check}: {message}"
    for event in events:
        if event.is_step_failure and event.step_failure_data and event.step_failure_data.error:
            return f"{event.step_key}: {_error_message(event.step_failure_data.error)}"
    return "run failed"


def check_warnings(events) -> list[str]:
    return [f"{asset} check {check}: {message}" for asset, check, message, blocking in failed_checks(events)
            if not blocking]
