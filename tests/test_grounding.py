"""What a question rests on, traced through its fact key to the plan (issue 37's document share)."""
from types import SimpleNamespace as NS

from mmeb_assets.qa.grounding import PlanTrace


def _plan():
    items = [NS(id="ana_01", table_id="table_2"), NS(id="ana_02", table_id=""), NS(id="ana_03", table_id="review"),
             NS(id="ana_04", table_id="statement")]
    errors = [NS(id="err_01", target="ana_01:cost"), NS(id="err_02", target="inv_02"), NS(id="err_03", target="ana_03:open findings")]
    events = [NS(id="ev_0001", refs=["ana_02"]), NS(id="ev_0002", refs=["evo_01"]), NS(id="ev_0003", refs=["err_01"])]
    documents = [NS(id="chart__v2", table_id="table_2", item_ids=["ana_01"], pending_item_ids=[]),
                 NS(id="report_v1", table_id="", item_ids=["ana_01"], pending_item_ids=[])]
    return PlanTrace(NS(items=items, errors=errors, events=events, documents=documents))


def test_items_from_the_seed_are_the_document():
    trace = _plan()
    for key in ("ana_01:cost", "ana_02:number", "ana_04:definition", "pair:ana_02|ana_01:cost", "table_2:cost",
                "err_01:flag-fix", "ev_0001", "ev_0003", "chart__v2:ana_01:cost", "rank_claim:table_2:cost"):
        assert trace.basis(key) == "document", key


def test_workspace_and_the_teams_own_numbers_are_not():
    trace = _plan()
    for key in ("evo_02", "evo_02:authors", "inv_04", "err_02:flag-fix", "ev_0002", "report_v1", ""):
        assert trace.basis(key) == "workspace", key
    for key in ("ana_03:open findings", "review:controls checked", "err_03:flag-fix"):
        assert trace.basis(key) == "review", key
