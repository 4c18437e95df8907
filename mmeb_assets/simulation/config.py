"""Configuration of one simulated week, and the random seed derived from a seed id."""
from __future__ import annotations

import hashlib
import random
from datetime import datetime, timedelta

from pydantic import BaseModel, Field, model_validator


class SimulationConfig(BaseModel):
    """What the simulated week looks like. Same config + same random seed => same plan."""

    start: datetime = Field(default=datetime(2026, 3, 2, 9, 0), description="window start (a Monday morning)")
    days: int = Field(default=7, ge=3, le=21)
    n_people: int = Field(default=6, ge=5, le=8, description="team size including the late joiner")
    n_errors: int = Field(default=4, ge=1, le=8)
    n_evolving_facts: int = Field(default=5, ge=1, le=6)
    n_invented: int = Field(default=5, ge=2, le=8)
    n_decisions: int = Field(default=4, ge=1, le=6)
    max_items: int = Field(default=16, ge=4, le=30)
    slack_events_target: int = Field(default=150, ge=20, le=400,
                                     description="Slack-worthy events over the window (scaled by days/7)")
    late_joiner_day: int = Field(default=3, ge=1, description="day index (0-based) the junior joins")
    notion_lag_hours: float = Field(default=14.0, ge=1.0, description="how long Notion trails a Slack correction")
    archetype: str | None = Field(default=None, description="override: research_lab | analysis_firm")
    skip_weekends: bool = Field(default=True, description="day indexes count working days (Mon-Fri) only")

    @model_validator(mode="after")
    def _joiner_in_window(self) -> "SimulationConfig":
        if self.late_joiner_day >= self.days - 1:
            raise ValueError(f"late_joiner_day={self.late_joiner_day} must be before the last day (days={self.days})")
        if self.archetype not in (None, "research_lab", "analysis_firm"):
            raise ValueError(f"archetype={self.archetype!r}: expected research_lab or analysis_firm")
        return self

    @property
    def end(self) -> datetime:
        return self.day(self.days - 1, 19, 0)

    def _dates(self) -> list:
        out, current = [], self.start.date()
        while len(out) < self.days:
            if not self.skip_weekends or current.weekday() < 5:
                out.append(current)
            current += timedelta(days=1)
        return out

    def day(self, index: int, hour: int = 9, minute: int = 0) -> datetime:
        """The `index`-th day of the window (working days only when `skip_weekends`) at hour:minute."""
        dates = self._dates()
        if index >= len(dates):   # beyond the window: keep counting (used only for out-of-window probes)
            extra = index - len(dates) + 1
            return datetime.combine(dates[-1], datetime.min.time()).replace(hour=hour, minute=minute) + timedelta(
                days=extra)
        return datetime.combine(dates[max(index, 0)], datetime.min.time()).replace(hour=hour, minute=minute)

    def day_index(self, when) -> int:
        """Inverse of `day` for a date inside the window (a weekend date maps to the next working day)."""
        target = when.date() if isinstance(when, datetime) else when
        for n, date in enumerate(self._dates()):
            if date >= target:
                return n
        return self.days - 1 + (target - self._dates()[-1]).days

    @classmethod
    def for_window(cls, start: datetime, end: datetime, **fields) -> "SimulationConfig":
        """The config whose window is [start, end] (e.g. from an Organization)."""
        probe = cls(start=start, days=21, late_joiner_day=1, skip_weekends=fields.get("skip_weekends", True))
        days = probe.day_index(end) + 1
        return cls(start=start, days=days, **{k: v for k, v in fields.items() if k not in ("start", "days")})


def derive_random_seed(seed_id: str, override: int | None = None) -> int:
    """The random seed of a project: the override if given, else a stable hash of the seed id."""
    if override is not None:
        return int(override)
    return int(hashlib.sha256(f"mmeb-simulation:{seed_id}".encode()).hexdigest()[:8], 16)


def rng_for(random_seed: int, *labels: object) -> random.Random:
    """An independent, reproducible random stream per (seed, purpose) so steps do not shift each other."""
    key = ":".join([str(random_seed), *map(str, labels)])
    return random.Random(int(hashlib.sha256(key.encode()).hexdigest()[:16], 16))


def slot_time(config: SimulationConfig, day: int, hhmm: str) -> datetime:
    """Day index + 'HH:MM' -> datetime inside the window; names the bad value on failure."""
    if not 0 <= day < config.days:
        raise ValueError(f"day {day} is outside the {config.days}-day window")
    hour, minute = (int(x) for x in hhmm.split(":"))
    if not (0 <= hour < 24 and 0 <= minute < 60):
        raise ValueError(f"time {hhmm!r} is not a valid HH:MM")
    return config.day(day, hour, minute)


def to_slot(config: SimulationConfig, when: datetime) -> tuple[int, str]:
    return config.day_index(when), when.strftime("%H:%M")
