"""Stage: simulation."""
