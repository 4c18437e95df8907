"""Working-time arithmetic: a window of `days` working days of 09:00-18:30 mapped onto [0, 1)."""
from __future__ import annotations

import math
from datetime import datetime, timedelta

from mmeb_assets.simulation.config import SimulationConfig

DAY_START_H = 9.0
DAY_HOURS = 9.5


def worktime(config: SimulationConfig, frac: float) -> datetime:
    """Fraction of the working week -> a minute-precise datetime."""
    frac = min(max(frac, 0.0), 0.99999)
    span = frac * config.days
    day = math.floor(span)
    minutes = round((span - day) * DAY_HOURS * 60)
    return config.day(day) + timedelta(minutes=minutes)


def to_frac(config: SimulationConfig, when: datetime) -> float:
    day = config.day_index(when)
    hours = when.hour + when.minute / 60 - DAY_START_H
    hours = min(max(hours, 0.0), DAY_HOURS)
    return (day + hours / DAY_HOURS) / config.days


def after(config: SimulationConfig, when: datetime, hours: float) -> datetime:
    """`hours` of working time after `when` (skips nights)."""
    return worktime(config, to_frac(config, when) + hours / (DAY_HOURS * config.days))


def working_hours(config: SimulationConfig) -> float:
    return DAY_HOURS * config.days
