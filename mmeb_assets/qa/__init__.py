"""Stage: qa."""
