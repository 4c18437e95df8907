"""Stage: operations."""
