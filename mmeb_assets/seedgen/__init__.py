"""Seed PDF generators: the demo, scale and robustness seeds (ingestion only reads documents)."""
