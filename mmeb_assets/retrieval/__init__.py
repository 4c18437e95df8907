"""Stage: retrieval."""
