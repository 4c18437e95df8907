"""Dagster resources: storage, LLM, embedder, GPU, LanceDB."""
