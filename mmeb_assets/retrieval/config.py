"""config/retrievers.yaml: moved to `mmeb_resources.retrievers_config` (the embedder resource is built
from it and mmeb_resources imports nothing from mmeb_assets); this path re-exports it."""
from mmeb_resources.retrievers_config import (REPO_ROOT, RETRIEVERS_FILE, RetrieversConfig, load_retrievers,
                                              weights_present)

__all__ = ["REPO_ROOT", "RETRIEVERS_FILE", "RetrieversConfig", "load_retrievers", "weights_present"]
