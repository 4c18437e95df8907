"""MMEB: MMEnterprise-Bench as a Dagster asset graph."""
