"""config/retrievers.yaml: moved to `mmeb_resources.retrievers_config` (the embedder resource is built
from it and mmeb_resources imports nothing from mmeb_assets); this path re-exports it."""
from mmeb_resources.retrievers_config import (EMBEDDING_KINDS, KINDS, REPO_ROOT, RETRIEVERS_FILE, RetrieversConfig,
                                              load_retrievers, weights_present)

__all__ = ["EMBEDDING_KINDS", "KINDS", "REPO_ROOT", "RETRIEVERS_FILE", "RetrieversConfig", "load_retrievers",
           "weights_present"]
