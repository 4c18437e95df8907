"""Interpretation claims on one table (`families/claims.py`): the stated level sits on the side that
makes the verdict true, reads as a person would write it, and the built items validate, with both
verdicts among them (the per-seed readers check that a reader always saying yes gains nothing)."""
from __future__ import annotations

from collections import Counter
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from generated_projects import rendered_projects
from mmeb_assets.qa.evidence import ProjectIndex
from mmeb_assets.qa.families.claims import claimed_level
from mmeb_assets.qa.text import decimals, parse_number
from mmeb_assets.qa.validate_rules import recompute
from mmeb_assets.qa.validation import validate_items


@st.composite
def printed_numbers(draw) -> str:
    places = draw(st.integers(0, 5))
    magnitude = draw(st.integers(-3, 8))
    units = draw(st.integers(1, 10 ** (places + max(magnitude, 0)) * 9))
    sign = draw(st.sampled_from(["", "-"]))
    number = Decimal(units).scaleb(-places)
    text = f"{number:,f}" if draw(st.booleans()) and number >= 1000 else f"{number:f}"
    return sign + text + draw(st.sampled_from(["", "%"]))


@settings(max_examples=300, deadline=None)
@given(printed_numbers(), st.booleans(), st.booleans())
def test_the_level_makes_the_claim_hold_or_fail_as_intended(value, supported, low):
    level = claimed_level(value, supported, low)
    number, stated = parse_number(value), parse_number(level)
    assert stated is not None and stated != number
    holds = stated >= number if low else stated <= number
    assert holds == supported, (value, level)
    assert decimals(level) <= decimals(value)   # never finer than the value is printed
    assert level.endswith("%") == value.endswith("%")


def test_built_claims_validate_with_both_verdicts():
    seen = Counter()
    for project in rendered_projects(3):
        index = ProjectIndex(plan=project.plan, org=project.org, records=project.records)
        claims = [i for i in project.items if i.generator.split(":")[-1] in
                  ("interpretation.level_claim", "interpretation.rank_claim")]
        kept, dropped = validate_items(claims, index)
        assert not dropped, [(i.q, i.validation.stages[-1].reason) for i in dropped]
        for item in kept:
            assert recompute(item) == item.gold.value
            assert len(item.evidence) >= 1
            seen[(item.generator.split(":")[-1], item.gold.value)] += 1
    assert sum(seen.values()) >= 3 and {v for _, v in seen} == {"Yes", "No"}, seen
