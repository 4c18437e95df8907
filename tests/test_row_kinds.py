"""Which rows of a seed table the workspace frames as baselines and a release candidate (issue 37):
only a results table where the document's own method stands once, after its rivals."""
from __future__ import annotations

from types import SimpleNamespace

from mmeb_assets.schema.source import Table
from mmeb_assets.simulation.items import classify_rows, make_label


def _table(labels: list[str], caption: str = "Table 2: Results on the test set.") -> Table:
    return Table(id="table_2", number=2, caption=caption, page=6, header=["Model", "F1"],
                 rows=[[label, f"{60 + i}.0"] for i, label in enumerate(labels)])


def _facts(method: str):
    return SimpleNamespace(textual=SimpleNamespace(method_name=method))


def test_rivals_above_the_method_are_baselines_and_its_last_row_the_release():
    kinds = classify_rows(_table(["BERT", "RoBERTa", "SPECTER", "SPECTER + rerank"]), _facts("SPECTER"), "research_lab")
    assert kinds == ["baseline", "baseline", "progression", "release"]
    assert make_label("baseline", "BERT", {}) == "Baseline: BERT"


def test_a_dataset_named_once_per_block_frames_no_row_as_a_baseline():
    labels = ["XSUM", "Newsroom", "Multi-LexSum D→T", "BigPatent", "BillSum", "Multi-LexSum D→S",
              "Multi-News", "Multi-LexSum D→L"]
    kinds = classify_rows(_table(labels, "Table 2: Comparison of Multi-LexSum to other datasets."),
                          _facts("Multi-LexSum"), "research_lab")
    assert kinds == ["progression"] * len(labels)


def test_the_dataset_is_named_by_the_captions_first_sentence_only():
    from mmeb_assets.simulation.items import dataset_of

    explained = _table(["BC5CDR"], "Table 1: Test performances of all BERT variants on all tasks and datasets. Bold "
                                    "indicates the SOTA result. We report macro F1 scores for NER (span-level).")
    assert dataset_of(explained, None) == ""
    assert dataset_of(_table(["BERT"], "Table 2: Results on SQuAD. Higher is better."), None) == "SQuAD"
    assert dataset_of(_table(["BERT"], "Table 12. Results on SQuAD."), None) == "SQuAD"
