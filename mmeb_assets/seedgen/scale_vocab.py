"""Domain vocabularies of the `scale` seeds: what a paper or report of each domain measures and names.

`scale_specs.py` draws from these with a seeded RNG; every domain carries more names than one seed
uses, and each seed takes its own method name, data set and organisation, so the 30 projects do not
repeat each other's tables, metrics or figures.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Metric:
    name: str  # printed column header, units included
    low: float
    high: float
    decimals: int
    higher_better: bool = True


@dataclass(frozen=True)
class Indicator:
    name: str
    unit: str
    low: float
    high: float
    decimals: int
    rising: bool


@dataclass(frozen=True)
class Domain:
    key: str
    label: str
    archetype: str  # research_lab | analysis_firm
    names: tuple[str, ...]  # method names (research) or organisation/place names (reports)
    datasets: tuple[str, ...]  # benchmarks (research) or programme names (reports)
    metrics: tuple[Metric, ...] = ()
    baselines: tuple[str, ...] = ()
    components: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    subject: str = ""  # what is studied: 'support ticket retrieval', 'freight throughput'
    sectors: tuple[str, ...] = ()
    sector_unit: str = ""
    indicators: tuple[Indicator, ...] = ()
    budget_item: str = ""


M, I = Metric, Indicator

RESEARCH = (
    Domain("retrieval", "Information retrieval", "research_lab",
           ("Aster", "Corvid", "Quill", "Sable"), ("DocSearch-12K", "FAQ-Bench", "LegalRet-5K", "PatentQ"),
           (M("Recall@10", 0.55, 0.92, 3), M("MRR", 0.35, 0.72, 3), M("nDCG@10", 0.40, 0.80, 3),
            M("Latency (ms)", 8, 90, 0, False), M("Index size (GB)", 1.2, 9.5, 1, False), M("Recall@100", 0.70, 0.98, 3)),
           ("BM25", "Dense bi-encoder", "SPLADE", "ColBERT"),
           ("query encoder", "document encoder", "sparse expansion head", "hybrid scorer", "cross-encoder reranker",
            "hard negative miner"),
           ("Contracts", "Manuals", "Forums", "Emails", "Wikis", "Tickets"), "enterprise document retrieval"),
    Domain("vision", "Computer vision", "research_lab",
           ("Prism", "Halo", "Kestrel", "Mosaic"), ("ShelfDet-8K", "AerialSeg", "DocLayout-3K", "TrafficCam"),
           (M("mAP (%)", 30, 62, 1), M("Top-1 accuracy (%)", 68, 89, 1), M("Images/s", 12, 180, 1),
            M("Parameters (M)", 11, 310, 0, False), M("IoU (%)", 45, 81, 1), M("GFLOPs", 4, 95, 1, False)),
           ("ResNet-50", "ViT-B/16", "ConvNeXt-T", "Swin-T"),
           ("patch embedder", "multi-scale backbone", "deformable attention block", "detection head",
            "feature pyramid", "token merger"),
           ("Daylight", "Night", "Rain", "Fog", "Indoor", "Crowded"), "object detection in cluttered scenes"),
    Domain("clinical", "Clinical prediction", "research_lab",
           ("Vigil", "Cardia", "Sentry", "Pulse"), ("ICU-Vitals", "SepsisWatch", "ReadmitNet", "WardNotes-20K"),
           (M("AUROC", 0.70, 0.93, 3), M("AUPRC", 0.25, 0.68, 3), M("Sensitivity (%)", 62, 91, 1),
            M("Specificity (%)", 70, 95, 1), M("Alert lead time (h)", 1.5, 9.0, 1), M("Brier score", 0.06, 0.21, 3, False)),
           ("Logistic regression", "Gradient boosting", "LSTM", "Clinical BERT"),
           ("vital-sign encoder", "lab value imputer", "note encoder", "temporal attention pooler",
            "calibration layer", "risk head"),
           ("Cardiology", "Oncology", "Surgery", "Pediatrics", "Neurology", "Geriatrics"), "early warning of patient deterioration"),
    Domain("speech", "Speech recognition", "research_lab",
           ("Echo", "Lyra", "Timbre", "Vesper"), ("CallCenter-900h", "MeetingASR", "AccentMix", "FarFieldSet"),
           (M("WER (%)", 4.5, 19.0, 1, False), M("CER (%)", 1.8, 9.5, 1, False), M("Real-time factor", 0.05, 0.60, 2, False),
            M("Speaker accuracy (%)", 80, 97, 1), M("Keyword F1", 0.60, 0.91, 3)),
           ("Whisper-small", "Conformer-CTC", "wav2vec 2.0", "Kaldi TDNN"),
           ("log-mel frontend", "conformer encoder", "streaming chunker", "language model fusion",
            "punctuation restorer", "speaker tagger"),
           ("Support calls", "Sales calls", "Meetings", "Voicemail", "Podcasts", "Lectures"), "transcription of noisy calls"),
    Domain("cybersecurity", "Intrusion detection", "research_lab",
           ("Warden", "Bastion", "Aegis", "Tripwire"), ("NetFlow-24", "AuthLogs-7M", "PhishMail", "CloudTrail-S"),
           (M("Detection rate (%)", 78, 98, 1), M("False positive rate (%)", 0.4, 6.0, 2, False), M("F1", 0.70, 0.95, 3),
            M("Events/s", 2000, 48000, 0), M("Time to detect (s)", 3, 95, 0, False)),
           ("Signature rules", "Isolation forest", "Autoencoder", "Random forest"),
           ("flow featurizer", "sequence encoder", "graph aggregator", "anomaly scorer", "alert deduplicator",
            "analyst feedback loop"),
           ("Port scans", "Brute force", "Exfiltration", "Phishing", "Malware", "Lateral movement"), "network intrusion detection"),
)

REPORTS = (
    Domain("emissions", "Emissions inventory", "analysis_firm",
           ("Calder Bay", "Norrhamn", "Estuary City", "Port Alder"), ("Clean Air Plan", "Green Berth", "Net Zero Harbour", "Blue Corridor"),
           sectors=("Vessels at berth", "Cargo handling equipment", "Drayage trucks", "Rail", "Buildings", "Harbour craft",
                    "Employee commuting", "Waste"), sector_unit="kt CO2e", subject="port emissions",
           indicators=(I("Shore power share of berth calls", "%", 10, 60, 0, True), I("Zero-emission cranes", "count", 2, 40, 0, True),
                       I("NOx", "t", 900, 2400, 0, False), I("PM2.5", "t", 20, 70, 1, False),
                       I("SOx", "t", 60, 300, 0, False), I("Electric trucks", "count", 10, 400, 0, True),
                       I("Renewable electricity share", "%", 20, 90, 0, True)),
           budget_item="shore power and crane electrification"),
    Domain("finance", "Corporate finance", "analysis_firm",
           ("Halvard Holdings", "Meridian Group", "Ostrava Bank", "Quayside Capital"), ("Growth Plan", "Cost Programme", "Digital Agenda", "Resilience Review"),
           sectors=("Retail banking", "Corporate lending", "Wealth management", "Payments", "Insurance", "Treasury",
                    "Leasing", "Markets"), sector_unit="EUR million", subject="revenue by business line",
           indicators=(I("Cost-to-income ratio", "%", 45, 70, 1, False), I("Return on equity", "%", 5, 16, 1, True),
                       I("CET1 ratio", "%", 11, 18, 1, True), I("Non-performing loans", "%", 0.8, 4.5, 2, False),
                       I("Branches", "count", 80, 420, 0, False), I("Digital customers", "thousand", 300, 2400, 0, True),
                       I("Employees", "FTE", 2000, 9000, 0, False)),
           budget_item="core banking modernisation"),
    Domain("logistics", "Freight logistics", "analysis_firm",
           ("Riverside Freight", "Northgate Logistics", "Inland Hub Authority", "Cobalt Transport"), ("Modal Shift", "Last Mile", "Hub Upgrade", "Night Freight"),
           sectors=("Road haulage", "Rail freight", "Inland waterways", "Air cargo", "Parcel delivery", "Cold chain",
                    "Bulk terminals", "Warehousing"), sector_unit="million tonnes", subject="freight volumes",
           indicators=(I("On-time delivery", "%", 82, 97, 1, True), I("Average dwell time", "hours", 8, 40, 1, False),
                       I("Empty running", "%", 12, 30, 1, False), I("Container throughput", "kTEU", 300, 1900, 0, True),
                       I("Damaged shipments", "per 10,000", 3, 25, 1, False), I("Rail share of tonnage", "%", 9, 31, 1, True)),
           budget_item="terminal automation"),
    Domain("energy", "Energy systems", "analysis_firm",
           ("Westmark Grid", "Solvang Energy", "Tidewater Utilities", "Highland Power"), ("Grid Forward", "Storage Ready", "Clean Heat", "Flex Market"),
           sectors=("Wind", "Solar", "Hydro", "Gas", "Biomass", "Nuclear", "Battery storage", "Imports"),
           sector_unit="GWh", subject="electricity generation",
           indicators=(I("Renewable share", "%", 30, 85, 1, True), I("Peak demand", "MW", 1800, 5200, 0, True),
                       I("Outage minutes per customer", "minutes", 40, 160, 0, False), I("Storage capacity", "MW", 50, 900, 0, True),
                       I("Grid losses", "%", 4, 9, 1, False), I("Heat pumps installed", "thousand", 5, 120, 1, True)),
           budget_item="grid reinforcement"),
    Domain("education", "Education outcomes", "analysis_firm",
           ("Fairview District", "Lakeshore Schools", "Marlow County", "Eastbrook Trust"), ("Reading First", "STEM Access", "Attendance Drive", "Tutoring Fund"),
           sectors=("Primary schools", "Secondary schools", "Special education", "Vocational colleges", "Early years",
                    "Adult learning", "Transport", "Meals"), sector_unit="USD million", subject="spending by programme",
           indicators=(I("Graduation rate", "%", 72, 95, 1, True), I("Pupils per teacher", "ratio", 13, 24, 1, False),
                       I("Chronic absence", "%", 6, 22, 1, False), I("Reading proficiency", "%", 45, 82, 1, True),
                       I("Enrolment", "pupils", 8000, 42000, 0, True), I("Teacher vacancies", "count", 12, 160, 0, False)),
           budget_item="classroom technology"),
)

DOMAINS: tuple[Domain, ...] = RESEARCH + REPORTS

FIRST_NAMES = ("Amara", "Bilal", "Chen", "Dagny", "Elif", "Farid", "Greta", "Hiro", "Ines", "Jonas", "Kavya", "Luca",
               "Maren", "Nadia", "Oskar", "Priya", "Rafael", "Sana", "Tomasz", "Uma", "Viktor", "Wen", "Yara", "Zoltan")
LAST_NAMES = ("Adeyemi", "Bergstrom", "Castillo", "Duarte", "Eriksen", "Fontaine", "Gupta", "Horvath", "Iqbal",
              "Jansen", "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov", "Quinn", "Rossi", "Sato",
              "Tanaka", "Varga", "Weber", "Yilmaz", "Zhang")
LABS = ("Applied Research", "AI Lab", "Research Group", "Systems Lab")
