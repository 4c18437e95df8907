"""Read a finished build from its data home, once, for every exporter.

The exporters never recompute anything: they repackage what the graph stored (questions, corpus,
retrievals, answers, judgments, leaderboard, statistics), so an export always says what the build
said. What a format needs and the home lacks is an `IncompleteBuild` whose one line names the file
and the asset that writes it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from mmeb_assets.schema.evaluation import AnswerSet, JudgmentSet, Leaderboard, RetrievalSet
from mmeb_assets.schema.qa import Benchmark, QAItem
from mmeb_assets.schema.records import Corpus, Record
from mmeb_resources.io_manager import _load as load_envelope


class IncompleteBuild(RuntimeError):
    """The data home lacks (or holds an inconsistent) part of a build that an export needs."""


# what each part is, the file under the home, and the asset that writes it
PARTS = {
    "benchmark": ("benchmark/benchmark.json", "benchmark"),
    "corpus": ("benchmark/corpus.json", "corpus"),
    "statistics": ("benchmark/qa_statistics.json", "qa_statistics"),
    "leaderboard": ("benchmark/leaderboard.json", "leaderboard"),
}


@dataclass(frozen=True)
class EvalCell:
    """One model x k cell: its answers and, when judged, its judgments."""

    answers: AnswerSet
    judgments: JudgmentSet | None


@dataclass
class BuildHome:
    """Lazy view of a data home; each property loads its file on first use."""

    root: Path
    manifest: str | None = None
    _cache: dict = field(default_factory=dict, repr=False)

    def _part(self, name: str, expected: type):
        if name not in self._cache:
            relative, asset = PARTS[name]
            path = self.root / relative
            if not path.exists():
                raise IncompleteBuild(f"{path}: missing (materialize the '{asset}' asset, e.g. `mmeb demo` "
                                      f"or `mmeb build --manifest ...`)")
            value = load_envelope(path)
            if not isinstance(value, expected):
                raise IncompleteBuild(f"{path}: holds {type(value).__name__}, expected {expected.__name__}")
            self._cache[name] = value
        return self._cache[name]

    def check_exists(self) -> None:
        if not self.root.is_dir():
            raise IncompleteBuild(f"{self.root}: no data home here (build one with `mmeb demo`, or pass --home)")

    @property
    def benchmark(self) -> Benchmark:
        return self._part("benchmark", Benchmark)

    @property
    def items(self) -> list[QAItem]:
        return self.benchmark.items

    @property
    def corpus(self) -> Corpus:
        corpus = self._part("corpus", Corpus)
        missing = sorted(set(self.benchmark.projects) - set(corpus.projects))
        if missing:
            raise IncompleteBuild(f"{self.root / PARTS['corpus'][0]}: no records of project(s) {', '.join(missing)} "
                                  f"that the benchmark has questions for (rematerialize 'corpus')")
        return corpus

    @property
    def statistics(self):
        from mmeb_assets.qa.stats import QAStatistics

        return self._part("statistics", QAStatistics)

    @property
    def leaderboard(self) -> Leaderboard | None:
        return self._part("leaderboard", Leaderboard) if (self.root / PARTS["leaderboard"][0]).exists() else None

    @cached_property
    def records_by_id(self) -> dict[str, Record]:
        return {r.id: r for r in self.corpus.records}

    def image_file(self, record: Record) -> Path | None:
        """The stored image of a visual record; IncompleteBuild when the record names a file that is not there."""
        if not record.image_path:
            return None
        path = self.root / "projects" / record.project / record.image_path
        if not path.is_file():
            raise IncompleteBuild(f"{path}: image of record {record.id} missing (rematerialize 'records' for "
                                  f"{record.project})")
        return path

    @cached_property
    def retrievals(self) -> dict[str, RetrievalSet]:
        """Every retriever partition the build holds ({name: RetrievalSet}), whatever the retrievers are."""
        found: dict[str, RetrievalSet] = {}
        question_ids = {i.id for i in self.items}
        for path in sorted((self.root / "evaluation" / "retrievals").glob("*/retrievals.json")):
            value = load_envelope(path)
            if not isinstance(value, RetrievalSet):
                raise IncompleteBuild(f"{path}: holds {type(value).__name__}, expected RetrievalSet")
            covered = {r.question_id for r in value.retrievals}
            if covered != question_ids:
                raise IncompleteBuild(f"{path}: ranks {len(covered & question_ids)} of the benchmark's "
                                      f"{len(question_ids)} questions (stale; rematerialize 'retrievals' "
                                      f"partition {path.parent.name})")
            found[path.parent.name] = value
        return found

    def require_retrievals(self) -> dict[str, RetrievalSet]:
        if not self.retrievals:
            raise IncompleteBuild(f"{self.root / 'evaluation' / 'retrievals'}: no retriever partition materialized "
                                  "(materialize the 'retrievals' asset)")
        return self.retrievals

    @cached_property
    def cells(self) -> list[EvalCell]:
        """Every answered model x k cell, in (model, k) order; judgments where they exist."""
        cells = []
        for path in sorted((self.root / "evaluation").glob("*/k*/answers.json"), key=_cell_order):
            answers = load_envelope(path)
            if not isinstance(answers, AnswerSet):
                raise IncompleteBuild(f"{path}: holds {type(answers).__name__}, expected AnswerSet")
            judged = path.with_name("judgments.json")
            judgments = load_envelope(judged) if judged.exists() else None
            if judgments is not None and not isinstance(judgments, JudgmentSet):
                raise IncompleteBuild(f"{judged}: holds {type(judgments).__name__}, expected JudgmentSet")
            cells.append(EvalCell(answers=answers, judgments=judgments))
        return cells

    def require_cells(self) -> list[EvalCell]:
        if not self.cells:
            raise IncompleteBuild(f"{self.root / 'evaluation'}: no model x k answers (materialize 'answers')")
        return self.cells

    def recall_report(self, retriever: str) -> dict[str, float]:
        """{k: overall Recall@k} as the retrieval report states it (evaluation/retrieval/<r>/recall.csv)."""
        from mmeb_assets.retrieval.recall import read_overall

        path = self.root / "evaluation" / "retrieval" / retriever / "recall.csv"
        if not path.exists():
            raise IncompleteBuild(f"{path}: missing (materialize 'retrievals' partition {retriever})")
        return read_overall(path.read_text(encoding="utf-8"))

    def seed_sources(self) -> list[dict]:
        """Per built project: title, source path, sha256, domain and licence (from the manifest)."""
        from mmeb_assets.manifests import ManifestError, load_manifest

        try:
            manifest = load_manifest(self.manifest)
        except ManifestError as exc:
            raise IncompleteBuild(str(exc)) from exc
        rows = []
        for project in self.benchmark.projects:
            try:
                entry = manifest.seed(project)
            except (KeyError, ManifestError) as exc:
                raise IncompleteBuild(f"{manifest.file}: no valid entry for built project {project!r} "
                                      f"(pass --manifest with the manifest this home was built from)") from exc
            document = self.root / "projects" / project / "source_document.json"
            stored = json.loads(document.read_text(encoding="utf-8")) if document.exists() else {}
            sha256 = stored.get("data", stored).get("sha256", "")  # plain file, or an IO-manager envelope
            rows.append({"id": project, "title": entry.title, "path": entry.path, "domain": entry.domain,
                         "license": entry.license, "sha256": sha256})
        return rows


def _cell_order(path: Path) -> tuple[str, int]:
    k = path.parent.name[1:]
    return path.parent.parent.name, int(k) if k.isdigit() else 0
