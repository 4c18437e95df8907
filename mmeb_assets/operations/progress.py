"""Progress of long stages: moved to `mmeb_resources.progress` (the LLM client reports through it and
mmeb_resources imports nothing from mmeb_assets); this path re-exports it."""
from mmeb_resources.progress import SINK_EVERY_S, Progress, Sink, bar, set_sink, track

__all__ = ["SINK_EVERY_S", "Progress", "Sink", "bar", "set_sink", "track"]
