"""The LanceDB database that holds the workspace index (one table per retriever)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from dagster import ConfigurableResource

from mmeb_resources.storage import default_home


class LanceDBResource(ConfigurableResource):
    """`uri` empty means `<home>/lance` (MMEB_HOME or ./data). Tables: `records_<retriever>`."""

    uri: str = ""

    def resolved_uri(self) -> str:
        if self.uri:
            return self.uri if "://" in self.uri else str(Path(self.uri).resolve())
        return str(default_home() / "lance")

    def connect(self) -> Any:
        import lancedb

        if "://" not in self.resolved_uri():
            Path(self.resolved_uri()).mkdir(parents=True, exist_ok=True)
        return lancedb.connect(self.resolved_uri())

    @staticmethod
    def table_name(retriever: str) -> str:
        return "records_" + re.sub(r"[^A-Za-z0-9_]", "_", retriever)

    def open_table(self, retriever: str) -> Any | None:
        """The retriever's table, or None when it has not been built yet."""
        db = self.connect()
        name = self.table_name(retriever)
        return db.open_table(name) if name in table_names(db) else None


def table_names(db: Any) -> list[str]:
    listing = db.list_tables()
    names = getattr(listing, "tables", listing)
    return list(names)
