"""Issue 27 item 6: the statistics tables print the paper's Table 3 (d) and appendix Table 4 figures
beside ours and mark the rows more than 8 points away."""
from __future__ import annotations

from mmeb_assets.qa.stats import PAPER_3D, PAPER_4, beside_paper, compute_statistics
from mmeb_assets.schema import TASKS


def test_paper_figures_are_those_of_the_paper():
    assert PAPER_3D[("Evidence size", "1 unit")] == 49.1 and PAPER_3D[("Image units", "2+")] == 13.9
    assert PAPER_4["comparison"] == (22.6, 56.1, 21.2) and PAPER_4["all"] == (45.4, 36.9, 17.7)
    assert set(PAPER_4) == set(TASKS[:-1]) | {"all"}
    for group in ("Evidence size", "Source types", "Unit modality", "Image units"):
        assert abs(sum(v for (g, _), v in PAPER_3D.items() if g == group) - 100.0) < 0.2


def test_rows_further_than_8_points_are_marked():
    assert beside_paper(50, 100, 49.1) == ["50.0%", "49.1%", ""]
    assert beside_paper(30, 100, 49.1) == ["30.0%", "49.1%", "off -19.1"]
    assert beside_paper(0, 0, 13.9)[2] == ""


def test_tables_carry_the_paper_columns():
    from mmeb_assets.qa.evidence import ProjectIndex
    from mmeb_assets.qa.fixture import fixture_organization, fixture_plan, fixture_records
    from mmeb_assets.qa.generate import generate_rule_items, make_context
    from mmeb_assets.provenance import make_provenance
    index = ProjectIndex(fixture_plan(), fixture_organization(), fixture_records())
    items = generate_rule_items(make_context(index, make_provenance("fixture-proj", "qa", "rules")))
    stats = compute_statistics(items, ["fixture-proj"])
    t3 = stats.table("table3d_evidence")
    assert t3.columns[-2:] == ["Paper", "> 8 pts"] and {r[4] for r in t3.rows} >= {"49.1%", "13.9%"}
    t4 = stats.table("table4_modality")
    assert t4.columns[-1] == "> 8 pts" and "(58.2%)" in t4.rows[0][2]
    assert any(r[-1] for r in t3.rows + t4.rows)   # the hand-built fixture is far from the paper somewhere
