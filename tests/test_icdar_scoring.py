"""The ICDAR 2013 adjacency-relation scorer of bench/bench_icdar.py (bench/icdar_scoring.py) on grids whose
answer is known by hand, and on the competition's own ground truth scored against itself."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from icdar_scoring import Cell, best_match, grid_cells, read_structure, relations, score  # noqa: E402

ICDAR = ROOT.parent / "shared" / "icdar2013"
GRID = [["", "2019", "2020"],
        ["Sales", "10", "12"],
        ["Costs", "7", "8"]]


def test_relations_of_a_small_grid():
    got = relations(grid_cells(GRID))
    assert got == {("2019", "2020", "right"): 1, ("2019", "10", "down"): 1, ("2020", "12", "down"): 1,
                   ("Sales", "10", "right"): 1, ("10", "12", "right"): 1, ("Sales", "Costs", "down"): 1,
                   ("10", "7", "down"): 1, ("12", "8", "down"): 1, ("Costs", "7", "right"): 1, ("7", "8", "right"): 1}


def test_identical_grid_scores_one():
    s = score(grid_cells(GRID), grid_cells(GRID))
    assert (s.precision, s.recall, s.f1, s.correct, s.truth) == (1.0, 1.0, 1.0, 10, 10)


def test_whitespace_dashes_and_blank_columns_do_not_count():
    truth = grid_cells([["Net  income", "−5"], ["Loss", "–3"]])
    parsed = grid_cells([["Net\nincome", "", "-5"], ["", "", ""], ["Loss", "", "-3"]])
    assert score(truth, parsed).f1 == 1.0


def test_merged_columns_score_lower():
    merged = grid_cells([["", "2019 2020"], ["Sales", "10 12"], ["Costs", "7 8"]])
    s = score(grid_cells(GRID), merged)
    assert 0 < s.f1 < 1 and s.correct == 1  # only Sales -> Costs survives
    assert s.precision == pytest.approx(1 / 5) and s.recall == pytest.approx(1 / 10)


def test_empty_table_scores_zero():
    assert score(grid_cells(GRID), []).f1 == 0.0
    assert score(grid_cells(GRID), grid_cells([["", ""], ["", ""]])).f1 == 0.0
    index, s = best_match(grid_cells(GRID), [])
    assert index == -1 and s.f1 == 0.0 and s.truth == 10


def test_a_spanning_cell_relates_to_every_cell_under_it():
    truth = [Cell(0, 0, 1, 2, "Revenue"), Cell(1, 1, 1, 1, "2019"), Cell(1, 1, 2, 2, "2020")]
    assert relations(truth) == {("Revenue", "2019", "down"): 1, ("Revenue", "2020", "down"): 1,
                                ("2019", "2020", "right"): 1}
    repeated = grid_cells([["", "Revenue", "Revenue"], ["", "2019", "2020"]])  # a spanning cell read twice
    assert score(truth, repeated).f1 < 1.0
    assert score(truth, grid_cells([["", "Revenue", ""], ["", "2019", "2020"]], {(0, 1): (0, 2)})).f1 == 1.0


def test_best_match_takes_the_highest_f1():
    other = grid_cells([["a", "b"], ["c", "d"]])
    index, s = best_match(grid_cells(GRID), [other, grid_cells(GRID)])
    assert index == 1 and s.f1 == 1.0


@pytest.mark.skipif(not ICDAR.is_dir(), reason=f"the ICDAR 2013 ground truth is not here ({ICDAR})")
def test_ground_truth_scores_one_against_itself():
    files = sorted(ICDAR.glob("competition-dataset-*/*-str.xml"))
    assert files, f"no -str.xml under {ICDAR}"
    tables = [t for path in files for t in read_structure(path)]
    assert len(tables) > 150
    wrong = [(t.pdf, t.table, t.page) for t in tables if score(t.cells, t.cells).f1 != 1.0]
    assert not wrong, f"tables that do not score 1.0 against themselves: {wrong}"
    three = next(t for t in read_structure(ICDAR / "competition-dataset-us" / "us-035a-str.xml") if t.table == 2)
    assert three.regions == 3 and max(c.c1 for c in three.cells) == 6  # side-by-side blocks, shifted right
