"""Stage: evaluation."""
