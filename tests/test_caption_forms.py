"""Caption forms of real reports: a table numbered as an exhibit, and one set in small capitals, whose
text layer reads 'tABLE 1.' (the capital drawn full size, the rest as small capitals)."""
from __future__ import annotations

import pytest

from mmeb_assets.ingestion.pdf_text import _caption_of


@pytest.mark.parametrize("text, kind, number", [
    ("Table 3: Results on the dev set.", "table", 3),
    ("Exhibit 2.2. Number of Children Randomly Assigned", "table", 2),
    ("tABLE 1. number of deaths and age-adjusted death rates", "table", 1),
    ("fIGURE 2. age-adjusted death rates by state", "figure", 2),
])
def test_a_caption_is_read_in_the_forms_reports_print(text, kind, number):
    found = _caption_of(text)
    assert found is not None and found[:2] == (kind, number)


def test_prose_that_mentions_a_table_is_no_caption():
    assert _caption_of("table 1 shows the number of deaths") is None
