"""Stage: simulation. Source facts -> organization -> the week's event plan (rules twin or LLM)."""
from mmeb_assets.simulation.api import build_event_plan, build_organization
from mmeb_assets.simulation.config import SimulationConfig, derive_random_seed
from mmeb_assets.simulation.refusal import SeedRefused, refusal_reason

__all__ = ["build_organization", "build_event_plan", "SimulationConfig", "derive_random_seed", "SeedRefused",
           "refusal_reason"]
