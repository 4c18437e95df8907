"""Ground truth of the three fictional demo seed documents.

`demo_seeds.py` renders these specs into PDFs; tests read them back to check that ingestion
returns what the generator wrote. Section bodies are paragraphs; a body item `[[table:N]]` or
`[[figure:N]]` places that table or figure at that point.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class DemoTable(BaseModel):
    number: int
    caption: str = Field(description="full printed caption, starting 'Table N:'")
    header: list[str]
    rows: list[list[str]]


class DemoFigure(BaseModel):
    number: int
    caption: str = Field(description="full printed caption, starting 'Figure N:'")
    kind: Literal["raster", "vector"]
    chart: Literal["bar", "line", "diagram"]
    title: str
    x_labels: list[str] = []
    series: dict[str, list[str]] = Field(default={}, description="series name -> printed value strings")
    y_label: str = ""
    boxes: list[str] = Field(default=[], description="diagram boxes, left to right")

    @property
    def text_labels(self) -> list[str]:
        """Short strings drawn inside the image (title, legend, categories, boxes)."""
        labels = [self.title, *self.boxes, *self.x_labels]
        if len(self.series) > 1:
            labels.extend(self.series)
        if self.y_label:
            labels.append(self.y_label)
        return labels

    @property
    def key_numbers(self) -> list[str]:
        """Values printed on the bars/points (no axis ticks are drawn)."""
        return [v for values in self.series.values() for v in values]


class DemoSection(BaseModel):
    heading: str
    body: list[str]


class DemoSeedSpec(BaseModel):
    seed_id: str
    title: str
    authors: str
    style: Literal["research", "report"]
    sections: list[DemoSection]
    tables: list[DemoTable]
    figures: list[DemoFigure]


AURORA = DemoSeedSpec(
    seed_id="aurora-retrieval",
    title="Aurora: Late-Interaction Retrieval for Support Tickets",
    authors="Mira Okafor, Tomas Lindqvist and Ana Ruiz - Northwind Applied Research",
    style="research",
    sections=[
        DemoSection(heading="Abstract", body=[
            "We present Aurora, a late-interaction retriever for customer support tickets. On the "
            "HelpDesk-40K benchmark Aurora reaches a Recall@10 of 0.842 and an MRR of 0.611, an "
            "improvement of 21.4 points of Recall@10 over the BM25 baseline, while answering a query "
            "in 47 ms on a single GPU.",
        ]),
        DemoSection(heading="1 Introduction", body=[
            "Support teams search large archives of resolved tickets to reuse earlier answers. Lexical "
            "search misses paraphrases, and single-vector dense retrievers compress a long ticket into one "
            "vector. Aurora keeps one vector per token, prunes the vectors that carry little information, "
            "and reranks the best candidates with a cross-encoder.",
        ]),
        DemoSection(heading="2 Method", body=[
            "Aurora has four components: a ticket encoder initialised from MiniLM-L12, a token pruning "
            "module, a MaxSim scorer and a cross-encoder reranker. The encoder maps each token of a ticket "
            "to a 128-dimensional vector. The pruning module keeps the 32 vectors with the highest "
            "attention mass per ticket. At query time the MaxSim scorer ranks the 1,000 nearest tickets "
            "and the reranker rescores the top 50 candidates.",
        ]),
        DemoSection(heading="3 Experimental Setup", body=[
            "We train on 40,000 resolved tickets from HelpDesk-40K and evaluate on 2,500 held-out queries. "
            "Training runs for 12 epochs with a batch size of 64 and a learning rate of 2e-5 on 4 A100 "
            "GPUs. Each ticket is truncated to 256 tokens. We report Recall@10 and MRR; latency is the "
            "median time per query in milliseconds.",
        ]),
        DemoSection(heading="4 Results", body=[
            "Table 1 lists the five runs. Each run adds one change to the previous one; the full system "
            "(run R5) improves Recall@10 from 0.628 to 0.842.",
            "[[table:1]]",
            "Token pruning lowers latency from 31 ms to 24 ms while raising MRR from 0.556 to 0.583. "
            "Table 2 removes one component at a time from the full system.",
            "[[table:2]]",
            "Removing hard negatives costs the most: Recall@10 drops to 0.771. Figure 1 breaks the "
            "Recall@10 of run R5 down by ticket category and Figure 2 follows the validation MRR during "
            "training.",
            "[[figure:1]]",
            "[[figure:2]]",
        ]),
        DemoSection(heading="5 Conclusion", body=[
            "Aurora retrieves support tickets more accurately than lexical and single-vector baselines at "
            "a latency below 50 ms per query.",
        ]),
    ],
    tables=[
        DemoTable(
            number=1,
            caption="Table 1: Retrieval results on HelpDesk-40K for successive runs.",
            header=["Run", "System", "Recall@10", "MRR", "Latency (ms)"],
            rows=[
                ["R1", "BM25", "0.628", "0.402", "12"],
                ["R2", "Dense bi-encoder", "0.731", "0.498", "18"],
                ["R3", "Aurora-base", "0.794", "0.556", "31"],
                ["R4", "Aurora + pruning", "0.815", "0.583", "24"],
                ["R5", "Aurora + pruning + rerank", "0.842", "0.611", "47"],
            ],
        ),
        DemoTable(
            number=2,
            caption="Table 2: Ablation of Aurora components on HelpDesk-40K.",
            header=["Variant", "Recall@10", "MRR"],
            rows=[
                ["Full Aurora", "0.842", "0.611"],
                ["w/o token pruning", "0.829", "0.597"],
                ["w/o reranker", "0.815", "0.583"],
                ["w/o hard negatives", "0.771", "0.534"],
            ],
        ),
    ],
    figures=[
        DemoFigure(
            number=1,
            caption="Figure 1: Recall@10 of run R5 by ticket category.",
            kind="raster", chart="bar", title="Recall@10 by category",
            x_labels=["Billing", "Login", "Shipping", "Hardware"],
            series={"Recall@10": ["0.871", "0.856", "0.803", "0.779"]},
        ),
        DemoFigure(
            number=2,
            caption="Figure 2: Validation MRR after each pair of training epochs.",
            kind="raster", chart="line", title="Validation MRR",
            x_labels=["ep 2", "ep 4", "ep 6", "ep 8", "ep 10", "ep 12"],
            series={"Aurora": ["0.512", "0.559", "0.584", "0.598", "0.606", "0.611"],
                    "Dense": ["0.431", "0.462", "0.479", "0.490", "0.495", "0.498"]},
        ),
    ],
)

HARBOR = DemoSeedSpec(
    seed_id="harbor-emissions",
    title="Harbor Emissions Outlook 2026-2030",
    authors="Calder Bay Port Authority - Environmental Planning Office",
    style="report",
    sections=[
        DemoSection(heading="Executive Summary", body=[
            "Total emissions from port operations fell to 412.6 kt CO2e in 2025, down 8.3% from 2024. "
            "Vessels at berth remain the largest source with 171.9 kt CO2e, or 41.7% of the total. "
            "Shore power now serves 39% of berth calls, up from 18% in 2023.",
        ]),
        DemoSection(heading="1 Scope and Data", body=[
            "The inventory covers five sectors inside the port boundary and follows the 2024 edition of "
            "the regional emissions protocol. Activity data come from 3,214 vessel calls, 126 cargo "
            "handling machines and 58,400 truck trips recorded in 2025.",
        ]),
        DemoSection(heading="2 Emissions by Sector", body=[
            "Table 1 reports emissions by sector for the last three inventory years.",
            "[[table:1]]",
            "Drayage trucks emitted 109.6 kt CO2e in 2025, 7.1% less than in 2024, as 212 older trucks "
            "were retired under the replacement programme.",
        ]),
        DemoSection(heading="3 Air Quality and Electrification Indicators", body=[
            "[[table:2]]",
            "NOx emissions fell to 1,512 t in 2025 and PM2.5 to 40.1 t. The number of zero-emission "
            "cranes rose from 4 in 2023 to 15 in 2025.",
        ]),
        DemoSection(heading="4 Outlook 2026-2030", body=[
            "Under the adopted measures, emissions are projected to decline each year to 2030. Figure 1 "
            "shows the projected totals; the 2030 target is 250.0 kt CO2e.",
            "[[figure:1]]",
            "The budget for shore power and crane electrification is 86.5 million euros over five years.",
        ]),
    ],
    tables=[
        DemoTable(
            number=1,
            caption="Table 1: Emissions by sector, kt CO2e.",
            header=["Sector", "2023", "2024", "2025"],
            rows=[
                ["Vessels at berth", "198.4", "187.2", "171.9"],
                ["Cargo handling equipment", "96.1", "91.7", "84.3"],
                ["Drayage trucks", "121.5", "118.0", "109.6"],
                ["Rail", "31.2", "30.8", "29.4"],
                ["Buildings", "20.7", "22.3", "17.4"],
                ["Total", "467.9", "450.0", "412.6"],
            ],
        ),
        DemoTable(
            number=2,
            caption="Table 2: Air quality and electrification indicators by year.",
            header=["Indicator", "Unit", "2023", "2024", "2025"],
            rows=[
                ["Shore power share of berth calls", "%", "18", "27", "39"],
                ["Zero-emission cranes", "count", "4", "9", "15"],
                ["NOx", "t", "1,842", "1,705", "1,512"],
                ["PM2.5", "t", "48.2", "44.9", "40.1"],
            ],
        ),
    ],
    figures=[
        DemoFigure(
            number=1,
            caption="Figure 1: Projected total port emissions, kt CO2e.",
            kind="raster", chart="bar", title="Projected emissions (kt CO2e)",
            x_labels=["2026", "2027", "2028", "2029", "2030"],
            series={"Projected": ["389.5", "351.2", "318.7", "284.0", "252.3"]},
        ),
    ],
)

LUMEN = DemoSeedSpec(
    seed_id="lumen-vision",
    title="Lumen: Token-Efficient Chart Question Answering",
    authors="Priya Raman and Jonas Weber - Lumen Labs",
    style="research",
    sections=[
        DemoSection(heading="Abstract", body=[
            "Lumen answers questions about charts with a vision-language model that keeps only the "
            "visual tokens a question needs. With 256 visual tokens Lumen-M reaches 73.4% accuracy on "
            "ChartBench-S, 2.1 points above a baseline that uses 576 tokens, and processes 15.1 images "
            "per second.",
        ]),
        DemoSection(heading="1 Method", body=[
            "Lumen has three components: a ViT-B/16 image encoder, a question-conditioned token scorer "
            "and a Qwen-1.8B language decoder. The scorer ranks the visual tokens by their relevance to "
            "the question and passes the top k tokens to the decoder, as shown in Figure 2.",
        ]),
        DemoSection(heading="2 Setup", body=[
            "We fine-tune on 18,000 chart-question pairs for 3 epochs with a learning rate of 1e-4 and a "
            "batch size of 32. Images are resized to 384 x 384 pixels. ChartBench-S has 1,200 test "
            "questions; we report exact-match accuracy.",
        ]),
        DemoSection(heading="3 Results", body=[
            "[[table:1]]",
            "Lumen-S keeps 144 tokens and is 2.6 times faster than the baseline at a cost of 0.4 points "
            "of accuracy. Figure 1 plots accuracy against the number of visual tokens.",
            "[[figure:1]]",
            "[[table:2]]",
            "Without question conditioning, accuracy drops to 69.8%.",
            "[[figure:2]]",
        ]),
    ],
    tables=[
        DemoTable(
            number=1,
            caption="Table 1: Accuracy and throughput on ChartBench-S.",
            header=["Model", "Visual tokens", "Accuracy (%)", "Images/s"],
            rows=[
                ["Baseline VLM", "576", "71.3", "8.2"],
                ["Lumen-S", "144", "70.9", "21.5"],
                ["Lumen-M", "256", "73.4", "15.1"],
                ["Lumen-L", "400", "74.8", "10.6"],
            ],
        ),
        DemoTable(
            number=2,
            caption="Table 2: Ablation of the token scorer with 256 tokens.",
            header=["Scorer", "Accuracy (%)"],
            rows=[
                ["Question-conditioned (Lumen-M)", "73.4"],
                ["Image-only saliency", "69.8"],
                ["Random selection", "64.2"],
            ],
        ),
    ],
    figures=[
        DemoFigure(
            number=1,
            caption="Figure 1: Accuracy on ChartBench-S against the number of visual tokens.",
            kind="vector", chart="bar", title="Accuracy (%) by token budget",
            x_labels=["64 tok", "144 tok", "256 tok", "400 tok"],
            series={"Accuracy": ["61.7", "70.9", "73.4", "74.8"]},
        ),
        DemoFigure(
            number=2,
            caption="Figure 2: The Lumen pipeline.",
            kind="raster", chart="diagram", title="Lumen pipeline",
            boxes=["Chart image", "ViT encoder", "Token scorer", "Top-k tokens", "LLM decoder"],
        ),
    ],
)

DEMO_SPECS: dict[str, DemoSeedSpec] = {spec.seed_id: spec for spec in (AURORA, HARBOR, LUMEN)}
