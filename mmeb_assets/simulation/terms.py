"""Archetype-dependent words used by prompts and by the rules twin's phrasing."""
from __future__ import annotations

TERMS: dict[str, dict[str, str]] = {
    "research_lab": {
        "V_org_frame": "a small applied-ML engineering company that builds, evaluates and ships the system described",
        "V_items": "runs", "V_item": "run", "V_item_done": "finished", "V_item_report": "run report",
        "V_customer": "Pilot customer", "V_system_word": "model", "V_deliverable": "evaluation report",
        "V_values": "metrics", "V_value": "Metric", "V_release": "Release",
        "V_id_in_text_rule": "Refer to runs by their human label, never by internal ids such as run_03.",
        "results_word": "results", "work_word": "eval",
    },
    "analysis_firm": {
        "V_org_frame": "a small research and analysis consultancy that gathers data, models it and writes the analysis for a client",
        "V_items": "analyses", "V_item": "analysis", "V_item_done": "completed", "V_item_report": "analysis update",
        "V_customer": "Client", "V_system_word": "analysis model", "V_deliverable": "analysis report",
        "V_values": "indicators", "V_value": "Indicator", "V_release": "Headline",
        "V_id_in_text_rule": "Refer to analyses by their human label, never by internal ids such as ana_03.",
        "results_word": "analysis", "work_word": "data",
    },
}


def terms(archetype: str) -> dict[str, str]:
    return TERMS[archetype]
