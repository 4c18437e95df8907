"""Units as tables state them: what is a unit and what is a measure that starts with a unit word."""
import pytest

from mmeb_assets.ingestion.table_units import as_unit, caption_unit, split_unit, unit_line


@pytest.mark.parametrize("text, unit", [
    ("Dollars in millions", "Dollars in millions"), ("USD million", "USD million"), ("Percent", "%"),
    ("% of GDP", "% of GDP"), ("millions of dollars", "millions of dollars"), ("% points", "percentage points"),
    ("percentage change on previous year", "percentage change on previous year"),
    ("Percent Fuel Savings", ""), ("Dollars Saved", ""), ("dev", ""), ("2019", ""),
])
def test_as_unit_tells_units_from_measures(text, unit):
    assert as_unit(text) == unit


@pytest.mark.parametrize("caption, unit", [
    ("Table 15. Actual and projected percentage changes in public high school graduates, by region and state", "%"),
    ("Table 5: Percentage of generated sentences judged fluent", "%"),
    ("Table 2: Number and percentage of students, by grade", ""),
    ("Table 3: Energy use (kWh per household)", "kWh per household"),
    ("Table 1: Results on the dev set", ""),
])
def test_caption_unit(caption, unit):
    assert caption_unit(caption) == unit


def test_header_led_by_a_percent_sign():
    assert split_unit("% growth in total retail sales volume") == ("growth in total retail sales volume", "%")
    assert split_unit("Accuracy (%)") == ("Accuracy", "%")


def test_unit_line_is_not_a_measure_heading():
    assert unit_line("[In thousands]") == "thousands"
    assert unit_line("Percent Fuel Savings") == ""


def _line(y: float, *cells: tuple[str, float, float]):
    from mmeb_assets.ingestion.table_words import Line, Phrase
    return Line(y, y + 9, [Phrase(x0, y, x1, y + 9, text, [(x0, x1, text)]) for text, x0, x1 in cells])


def test_numbered_column_heads_are_no_value_row():
    from mmeb_assets.ingestion.table_structure import _numbered_heads
    heads = _line(0, ("Year", 36, 53), ("Total", 118, 137), ("K", 240, 246), ("1", 295, 300), ("2", 349, 354), ("3", 403, 408))
    row = _line(12, ("1996", 36, 56), ("45,611", 109, 137), ("3,532", 224, 246), ("1", 295, 300), ("2", 349, 354), ("3", 403, 408))
    assert _numbered_heads(heads)
    assert not _numbered_heads(row)


def test_header_words_over_one_column_join_before_the_next_line_wraps_them():
    from mmeb_assets.ingestion.table_header import read_header
    anchors = [(36, 120), (214, 236), (276, 315)]
    lines = [_line(0, ("1996", 214, 236), ("change", 276, 307)), _line(10, ("since", 268, 290), ("1980", 293, 315))]
    paths, _rows = read_header(lines, anchors, 1, [], [])
    assert paths[2] == ["change since 1980"]


@pytest.mark.parametrize("header, split", [
    ("to air kg/year", ("to air", "kg/year")), ("Signed TA (EURm)", ("Signed TA", "EURm")),
    ("Cost (€bn)", ("Cost", "€bn")), ("% Pos", ("Pos", "%")), ("Yield t/ha", ("Yield", "t/ha")),
    ("Yes/No", ("Yes/No", "")), ("Ratio w/o", ("Ratio w/o", "")), ("Words/sentence", ("Words/sentence", "")),
])
def test_units_reports_print_without_brackets(header, split):
    """European reports: a rate unit after the head ('to air kg/year'), money in millions written short
    ('EURm', '€bn'), a share sign before a short head ('% Pos'); a slash between words is no unit."""
    assert split_unit(header) == split
