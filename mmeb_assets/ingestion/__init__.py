"""Stage: ingestion."""
