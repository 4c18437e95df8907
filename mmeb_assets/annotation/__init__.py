"""Stage: annotation."""
