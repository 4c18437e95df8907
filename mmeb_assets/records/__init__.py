"""Stage: records."""
