"""YAML read with limits, for files a person hands the project (seed manifests).

`yaml.safe_load` constructs anything it is given: a 100-byte document whose anchors refer to each
other nine levels deep (`&a [*a, *a, ...]`) stands for hundreds of millions of nodes once something
walks it (validation, JSON), and a deeply nested document overflows the recursive composer. So the
event stream is read first (an iterative parser: no recursion, nothing constructed), counting the
nodes the document stands for with every alias expanded, and the nesting depth; only a document
within the limits is constructed.
"""
from __future__ import annotations

import yaml

MAX_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 16
MAX_NODES = 250_000
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_OPENERS = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_CLOSERS = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


class YAMLLimitError(ValueError):
    """The document is over one of the limits; the message says which (one line)."""


def check_limits(text: str) -> None:
    """YAMLLimitError when the document is too deep or expands too far through aliases;
    yaml.YAMLError when it is not YAML at all."""
    expanded = 0
    anchor_sizes: dict[str, int] = {}
    open_nodes: list[tuple[str | None, int]] = []  # (anchor, nodes counted before it opened)
    for event in yaml.parse(text, Loader=_LOADER):
        if isinstance(event, yaml.AliasEvent):
            if event.anchor not in anchor_sizes:
                raise YAMLLimitError(f"alias *{event.anchor} refers to an anchor that is undefined or still open "
                                     "(a recursive alias)")
            expanded += anchor_sizes[event.anchor]
        elif isinstance(event, yaml.ScalarEvent):
            expanded += 1
            if event.anchor:
                anchor_sizes[event.anchor] = 1
        elif isinstance(event, _OPENERS):
            expanded += 1
            open_nodes.append((event.anchor, expanded))
            if len(open_nodes) > MAX_DEPTH:
                raise YAMLLimitError(f"nested more than {MAX_DEPTH} levels deep")
        elif isinstance(event, _CLOSERS):
            anchor, before = open_nodes.pop()
            if anchor:
                anchor_sizes[anchor] = expanded - before + 1
        if expanded > MAX_NODES:
            raise YAMLLimitError(f"aliases and nesting expand to more than {MAX_NODES:,} nodes (an alias bomb?)")


def load_bounded(data: bytes) -> object:
    """The document's value, after the size limit and `check_limits`; UnicodeDecodeError for bytes
    that are not UTF-8 text."""
    if len(data) > MAX_BYTES:
        raise YAMLLimitError(f"{len(data):,} bytes, more than the limit of {MAX_BYTES:,}")
    text = data.decode("utf-8")
    check_limits(text)
    return yaml.load(text, Loader=_LOADER)  # noqa: S506 - a safe loader
