"""Seed pages kept between builds of the results browser (view/page_store.py): a page drawn once is
copied, not drawn again, and a changed PDF or anchor is drawn afresh, never served stale."""
from __future__ import annotations

import pymupdf
import pytest

from mmeb_assets.view import seedpage
from mmeb_assets.view.page_store import PageStore
from mmeb_assets.view.seedpage import Anchor, render_seed_page


def _pdf(path, value: str):
    doc = pymupdf.open()
    for text in ("Introduction and method.", f"Table 1: recall at 10 is {value} on the test set."):
        doc.new_page().insert_text((72, 72), text)
    doc.save(path)
    doc.close()
    return path


def _draw(pdf, anchor, out, store):
    return render_seed_page(pdf, anchor, out, {}, store)


def test_a_stored_page_is_copied_and_the_same(tmp_path, monkeypatch):
    pdf, store = _pdf(tmp_path / "seed.pdf", "0.62"), PageStore(tmp_path / "cache")
    anchor = Anchor(page=None, quotes=("0.62",), what="the value")
    first = _draw(pdf, anchor, tmp_path / "site1", store)
    assert first["page"] == 2 and first["boxed"]

    def no_drawing(*args):
        raise AssertionError("drawn again although stored")

    monkeypatch.setattr(seedpage, "_render", no_drawing)
    second = _draw(pdf, anchor, tmp_path / "site2", store)
    assert second == first
    assert (tmp_path / "site2" / second["png"]).read_bytes() == (tmp_path / "site1" / first["png"]).read_bytes()


@pytest.mark.parametrize("change", ["pdf", "anchor"])
def test_a_changed_pdf_or_anchor_is_drawn_again(tmp_path, change):
    pdf, store = _pdf(tmp_path / "seed.pdf", "0.62"), PageStore(tmp_path / "cache")
    anchor = Anchor(page=None, quotes=("recall at 10",), what="the value")
    first = _draw(pdf, anchor, tmp_path / "site1", store)
    if change == "pdf":  # the same file name, another value printed: the page must show it
        _pdf(tmp_path / "seed.pdf", "0.71")
    else:
        anchor = Anchor(page=None, quotes=("Introduction",), what="the value")
    second = _draw(pdf, anchor, tmp_path / "site2", store)
    assert (tmp_path / "site2" / second["png"]).read_bytes() != (tmp_path / "site1" / first["png"]).read_bytes()
    fresh = _draw(pdf, anchor, tmp_path / "site3", None)
    assert (tmp_path / "site3" / fresh["png"]).read_bytes() == (tmp_path / "site2" / second["png"]).read_bytes()
    assert second["page"] == (2 if change == "pdf" else 1)
