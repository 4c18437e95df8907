"""Hand-built SourceFacts for tests and for stages that need a plan before ingestion has run.

One research-style project (a progression table and an ablation table) and one analysis-firm project
(indicator tables by year). All values are invented.
"""
from __future__ import annotations

from mmeb_assets.provenance import make_provenance
from mmeb_assets.schema.source import (
    Claim, ConfigFact, Figure, SourceFacts, Table, TextualExtraction, VisualExtraction, VisualFact,
)


def sample_research_facts(seed_id: str = "sample-research") -> SourceFacts:
    tables = [
        Table(id="table_1", number=1, caption="Table 1: Retrieval results on HelpDesk-40K for successive runs.", page=3,
              header=["Run", "System", "Recall@10", "MRR", "Latency (ms)"],
              rows=[["R1", "BM25", "0.628", "0.402", "12"], ["R2", "Dense bi-encoder", "0.731", "0.498", "18"],
                    ["R3", "Aurora-base", "0.794", "0.556", "31"], ["R4", "Aurora + pruning", "0.815", "0.583", "24"],
                    ["R5", "Aurora + pruning + rerank", "0.842", "0.611", "47"]]),
        Table(id="table_2", number=2, caption="Table 2: Ablation of Aurora components on HelpDesk-40K.", page=4,
              header=["Variant", "Recall@10", "MRR"],
              rows=[["Full Aurora", "0.842", "0.611"], ["w/o token pruning", "0.829", "0.597"],
                    ["w/o reranker", "0.815", "0.583"], ["w/o hard negatives", "0.771", "0.534"]]),
    ]
    figures = [Figure(id="figure_1", number=1, caption="Figure 1: Recall@10 of run R5 by ticket category.", page=4,
                      image_path="figures/figure_1.png"),
               Figure(id="figure_2", number=2, caption="Figure 2: Validation MRR after each pair of training epochs.",
                      page=5, image_path="figures/figure_2.png")]
    visual = [VisualExtraction(figure_id="figure_1", description="Bar chart of Recall@10 per ticket category.",
                               image_only_facts=[VisualFact(fact="Recall@10 for Billing tickets", value="0.871"),
                                                 VisualFact(fact="Recall@10 for Hardware tickets", value="0.779")],
                               text_labels=["Billing", "Login", "Shipping", "Hardware"],
                               key_numbers=["0.871", "0.856", "0.803", "0.779"]),
              VisualExtraction(figure_id="figure_2", description="Validation MRR curves for Aurora and Dense.",
                               image_only_facts=[VisualFact(fact="Aurora validation MRR after epoch 6", value="0.584")],
                               text_labels=["Aurora", "Dense"], key_numbers=["0.584", "0.498"])]
    textual = TextualExtraction(
        method_name="Aurora", one_sentence="Aurora finds the resolved support tickets that answer a new ticket",
        task_summary="Ticket retrieval on HelpDesk-40K measured by Recall@10, MRR and latency",
        components=["MiniLM-L12 encoder", "token pruning module", "MaxSim scorer", "cross-encoder reranker", "BM25"],
        config_facts=[ConfigFact(name="embedding size", value="128"), ConfigFact(name="batch size", value="64")],
        claims=[Claim(text="Recall@10 improves from 0.628 to 0.842", value_strings=["0.628", "0.842"],
                      label="Recall@10 of the full system")],
        pipeline_steps=["Encode tickets token by token", "Prune low-information token vectors",
                        "Score candidates with MaxSim", "Rerank the top candidates with a cross-encoder"])
    return SourceFacts(seed_id=seed_id, provenance=make_provenance(seed_id, "ingestion", "rules"),
                       title="Aurora: Late-Interaction Retrieval for Support Tickets", domain="Information retrieval",
                       textual=textual, visual=visual, tables=tables, figures=figures)


def sample_analysis_facts(seed_id: str = "sample-analysis") -> SourceFacts:
    tables = [
        Table(id="table_1", number=1, caption="Table 1: Emissions by sector, kt CO2e.", page=2,
              header=["Sector", "2023", "2024", "2025"],
              rows=[["Vessels at berth", "198.4", "187.2", "171.9"], ["Cargo handling equipment", "96.1", "91.7", "84.3"],
                    ["Drayage trucks", "121.5", "118.0", "109.6"], ["Rail", "31.2", "30.8", "29.4"],
                    ["Buildings", "20.7", "22.3", "17.4"], ["Total", "467.9", "450.0", "412.6"]]),
        Table(id="table_2", number=2, caption="Table 2: Air quality and electrification indicators by year.", page=3,
              header=["Indicator", "Unit", "2023", "2024", "2025"],
              rows=[["Shore power share of berth calls", "%", "18", "27", "39"],
                    ["Zero-emission cranes", "count", "4", "9", "15"], ["NOx", "t", "1,842", "1,705", "1,512"],
                    ["PM2.5", "t", "48.2", "44.9", "40.1"]]),
        Table(id="table_3", number=3, caption="Table 3: Cost of abatement measures.", page=4,
              header=["Measure", "Capex (EUR m)", "Abatement (kt CO2e/yr)"],
              rows=[["Shore power at container berths", "64.5", "38.2"], ["Electric straddle carriers", "41.0", "12.7"],
                    ["Zero-emission drayage incentive", "22.8", "19.4"]]),
    ]
    figures = [Figure(id="figure_1", number=1, caption="Figure 1: Projected total port emissions, kt CO2e.", page=3,
                      image_path="figures/figure_1.png")]
    visual = [VisualExtraction(figure_id="figure_1", description="Line chart of projected total emissions 2026-2030.",
                               image_only_facts=[VisualFact(fact="projected total emissions in 2030", value="252.3"),
                                                 VisualFact(fact="projected total emissions in 2027", value="351.2")],
                               text_labels=["Projected"], key_numbers=["389.5", "351.2", "318.7", "284.0", "252.3"])]
    textual = TextualExtraction(
        method_name="Harbor Emissions Outlook", one_sentence="the outlook projects port emissions by sector to 2030",
        task_summary="Port emissions inventory and outlook by sector, with air quality indicators and abatement costs",
        components=["vessels at berth", "cargo handling equipment", "drayage trucks", "shore power", "NOx", "PM2.5"],
        config_facts=[ConfigFact(name="base year", value="2023")],
        claims=[Claim(text="Total emissions fall from 467.9 to 412.6 kt CO2e", value_strings=["467.9", "412.6"],
                      label="total port emissions")],
        pipeline_steps=["Collect activity data per sector", "Apply emission factors", "Project to 2030 by scenario",
                        "Cost the abatement measures"])
    return SourceFacts(seed_id=seed_id, provenance=make_provenance(seed_id, "ingestion", "rules"),
                       title="Harbor Emissions Outlook 2026-2030", domain="Port emissions policy",
                       textual=textual, visual=visual, tables=tables, figures=figures)
