"""Random but realistic `SourceFacts` for property tests and robustness benches.

Why: the planner was developed against a handful of seeds and broke on the first paper outside
them. This generator draws the shapes real papers have (0-8 tables of 1-12 rows, 0-6 figures,
numbers with and without units, `±` spreads, dashes for missing cells, repeated values, long and
short titles, non-ASCII names, prose-only papers, one-number papers) from a `random.Random`, so a
property test (hypothesis `st.randoms()`) or a bench can feed it a seed and replay any case.
"""
from __future__ import annotations

import random

from mmeb_assets.facts.quantities import quantity_statements
from mmeb_assets.provenance import make_provenance
from mmeb_assets.schema.source import (
    Claim, ConfigFact, Fact, Figure, SourceFacts, Statement, Table, TextualExtraction, VisualExtraction, VisualFact,
)

WORDS = ["retrieval", "sparse", "graph", "adaptive", "contrastive", "federated", "latent", "robust", "causal",
         "multilingual", "streaming", "emission", "indicator", "regional", "forecast", "survey", "policy",
         "budget", "outlook", "sensor", "spectral", "token", "pruning", "ranking", "hybrid", "modular"]
NON_ASCII = ["Zürich", "Ångström", "Łódź", "São Paulo", "Ærø", "Øresund", "Škoda", "Çelik", "Ñandú", "Düsseldorf",
             "Kraków", "Málaga", "Tōkyō", "Şişli", "Ελλάδα", "日本語", "Москва", "naïve", "façade", "coöp"]
METRICS = ["Acc", "F1", "Recall@10", "MRR", "nDCG@10", "BLEU", "Latency (ms)", "Params", "Top-1", "EM", "AUC",
           "Share (%)", "Cost (EUR m)", "Throughput", "Error", "Visual tokens", "Score"]
UNITS = ["", "", "", "%", " ms", " GB", " M", " s", " pp", " kt"]
DATASETS = ["HelpDesk-40K", "MS-MARCO", "BEIR", "ImageNet", "SQuAD", "CIFAR-100", "Córdoba-Set", "NQ", "KILT"]
EMPTY = ["-", "–", "—", "n/a", ""]


def _word(rng: random.Random, non_ascii: bool) -> str:
    if non_ascii and rng.random() < 0.4:
        return rng.choice(NON_ASCII)
    return rng.choice(WORDS)


def _title(rng: random.Random, non_ascii: bool) -> str:
    shape = rng.random()
    if shape < 0.2:
        return _word(rng, non_ascii).capitalize()
    words = " ".join(_word(rng, non_ascii) for _ in range(rng.randint(3, 26)))
    if shape < 0.6:
        return f"{rng.choice(['Aurora', 'PLUM', 'Ré-Rank', 'X', 'Métis', 'GraphSAGE-2', 'A Paper'])}: {words.capitalize()}"
    return words.capitalize()


def _number(rng: random.Random, style: str, repeat: list[str]) -> str:
    if repeat and rng.random() < 0.15:
        return rng.choice(repeat)
    if style == "pct":
        text = f"{rng.uniform(40, 99.9):.1f}"
    elif style == "ratio":
        text = f"{rng.uniform(0, 1):.3f}"
    elif style == "int":
        text = str(rng.randint(1, 99))
    elif style == "big":
        text = f"{rng.randint(1000, 999999):,}"
    else:
        text = f"{rng.uniform(0, 500):.{rng.randint(0, 2)}f}"
    if rng.random() < 0.1:
        text += f" ± {rng.uniform(0.1, 2):.1f}"
    elif rng.random() < 0.15:
        text += rng.choice(UNITS)
    return text.strip()


def _table(rng: random.Random, n: int, non_ascii: bool, repeat: list[str]) -> Table:
    years = rng.random() < 0.2
    n_rows = rng.randint(1, 12)
    if years:
        start = rng.randint(2015, 2022)
        header = [rng.choice(["Sector", "Indicator", "Région"])] + [str(start + k) for k in range(rng.randint(2, 4))]
    else:
        header = [rng.choice(["Method", "Variant", "Run", "Système", "Model"])]
        header += rng.sample(METRICS, rng.randint(1, 6))
    style = rng.choice(["pct", "ratio", "int", "big", "float"])
    words_only = rng.random() < 0.05  # a table of words (a glossary): no number to plan on
    rows = []
    for r in range(n_rows):
        label = " ".join(_word(rng, non_ascii) for _ in range(rng.randint(1, 4))).capitalize()
        if rng.random() < 0.1:
            label = f"w/o {label.lower()}"
        if rng.random() < 0.05:
            label = ""
        cells = [rng.choice(EMPTY) if rng.random() < 0.08 else _number(rng, style, repeat) for _ in header[1:]]
        if words_only:
            cells = [_word(rng, non_ascii) for _ in header[1:]]
        if rng.random() < 0.05:
            cells = cells[:-1]
        repeat.extend(c for c in cells if c and rng.random() < 0.3)
        rows.append([label, *cells])
    if rng.random() < 0.15:
        rows[-1][0] = "Total" if years else f"{header[0]} (ours)"
    topic = " ".join(_word(rng, non_ascii) for _ in range(rng.randint(1, 12)))
    place = f" on {rng.choice(DATASETS)}" if rng.random() < 0.5 else ""
    caption = f"Table {n}: {rng.choice(['Results', 'Ablation of', 'Comparison of', 'Emissions by'])} {topic}{place}."
    return Table(id=f"table_{n}", number=n, caption=caption, page=rng.randint(1, 8), header=header, rows=rows,
                 extractor="generator")


def _claims(rng: random.Random, n: int, non_ascii: bool, repeat: list[str]) -> list[Claim]:
    out = []
    for _ in range(n):
        values = [_number(rng, rng.choice(["pct", "ratio", "int", "big", "float"]), repeat)
                  for _ in range(rng.randint(1, 3))]
        unit = rng.choice(["", "%", " ms", " points", " GB"])
        subject = " ".join(_word(rng, non_ascii) for _ in range(rng.randint(1, 5)))
        text = f"The {subject} reaches " + " and then ".join(f"{v}{unit}" for v in values) + "."
        out.append(Claim(text=text, value_strings=values, label=f"{subject} score", source_hint="page 2"))
    return out


def _figures(rng: random.Random, n: int, non_ascii: bool, repeat: list[str]) -> tuple[list[Figure], list]:
    figures, visual = [], []
    for k in range(1, n + 1):
        caption = f"Figure {k}: " + " ".join(_word(rng, non_ascii) for _ in range(rng.randint(0, 10)))
        figures.append(Figure(id=f"figure_{k}", number=k, caption=caption.strip(), page=rng.randint(1, 8),
                              image_path=f"figures/figure_{k}.png", kind=rng.choice(["raster", "vector"])))
        if rng.random() < 0.8:
            facts = [VisualFact(fact=f"value printed for {_word(rng, non_ascii)}",
                                value=_number(rng, rng.choice(["pct", "ratio", "int", "float"]), repeat))
                     for _ in range(rng.randint(0, 5))]
            visual.append(VisualExtraction(figure_id=f"figure_{k}", description=f"A chart of {caption}",
                                           image_only_facts=facts, text_labels=[_word(rng, non_ascii)],
                                           key_numbers=[f.value for f in facts]))
    return figures, visual


COUNTED = ["characters", "bits of entropy", "respondents", "sites", "audits", "working days", "hours", "percent"]
MODALS = ["SHALL be at least", "must keep no more than", "reported", "should allow up to", "received"]


def _statements(rng: random.Random, n: int, non_ascii: bool) -> list[Statement]:
    """Stated figures (read by the real `quantity_statements` from drawn sentences), abbreviations and
    definitions, numbered as the facts stage numbers them."""
    facts = []
    for k in range(n):
        subject = " ".join(_word(rng, non_ascii) for _ in range(rng.randint(1, 3)))
        value = rng.choice([str(rng.randint(2, 99)), f"{rng.randint(1000, 99999):,}", f"{rng.uniform(1, 99):.1f}"])
        sentence = (f"The {subject} {rng.choice(MODALS)} {value} {rng.choice(COUNTED)} for each "
                    f"{_word(rng, non_ascii)} {_word(rng, non_ascii)} review.")
        facts.append(Fact(measure="figure", value=value, unit="count", page=1 + k % 8, source=sentence))
    out = quantity_statements(facts)
    for k in range(rng.randint(0, 3)):
        words = [_word(rng, non_ascii).capitalize() for _ in range(rng.randint(2, 4))]
        acronym = "".join(w[0] for w in words).upper()
        out.append(Statement(id="", kind="acronym", subject=acronym, aspect="expansion", stated=" ".join(words),
                             sentence=f"We use the {' '.join(words)} ({acronym}) throughout.", page=2))
    if rng.random() < 0.5:
        term = _word(rng, non_ascii).capitalize()
        stated = "the " + " ".join(_word(rng, non_ascii) for _ in range(rng.randint(3, 8)))
        out.append(Statement(id="", kind="definition", subject=term, aspect="definition", stated=stated,
                             sentence=f"{term} refers to {stated}.", page=3))
    return [s.model_copy(update={"id": f"statement_{n + 1:02d}"}) for n, s in enumerate(out)]


SHAPES = ("usual", "prose", "one_number", "one_row", "empty")


def random_source_facts(rng: random.Random, seed_id: str = "prop-seed", *, shape: str | None = None,
                        n_tables: int | None = None, n_figures: int | None = None,
                        non_ascii: bool | None = None) -> SourceFacts:
    """One drawn paper. Shapes: usual (0-8 tables), prose-only, one-number, one-row, empty (nothing to
    plan on). The keyword arguments pin the structure (a property test draws them, so it shrinks)."""
    shape = shape or rng.choices(SHAPES, weights=[60, 15, 10, 10, 5])[0]
    non_ascii = rng.random() < 0.3 if non_ascii is None else non_ascii
    repeat: list[str] = []
    if shape == "usual":
        count = rng.randint(0, 8) if n_tables is None else n_tables
        tables = [_table(rng, n, non_ascii, repeat) for n in range(1, count + 1)]
        claims = _claims(rng, rng.randint(0, 30), non_ascii, repeat)
    elif shape == "prose":
        tables, claims = [], _claims(rng, rng.randint(1, 30), non_ascii, repeat)
    elif shape == "one_number":
        value = _number(rng, rng.choice(["pct", "ratio", "int", "float"]), [])
        if rng.random() < 0.5:
            tables = [Table(id="table_1", number=1, caption="Table 1: The only result.", page=1,
                            header=["Method", rng.choice(METRICS)], rows=[["Ours", value]], extractor="generator")]
            claims = []
        else:
            tables, claims = [], []  # the one number stated in prose (see `statements` below)
    elif shape == "one_row":
        tables = [_table(rng, 1, non_ascii, repeat)]
        tables[0].rows = tables[0].rows[:1]
        claims = _claims(rng, rng.randint(0, 2), non_ascii, repeat)
    else:
        tables, claims = [], []
    figures, visual = _figures(rng, rng.randint(0, 6) if n_figures is None else n_figures, non_ascii, repeat)
    title = _title(rng, non_ascii)
    method = title.split(":")[0].strip() if ":" in title else title
    textual = TextualExtraction(
        method_name=method, one_sentence=f"{method} handles {_word(rng, non_ascii)} data",
        task_summary=f"{title}. Measures: {', '.join(t.header[1] for t in tables if len(t.header) > 1)}.",
        components=[_word(rng, non_ascii) for _ in range(rng.randint(0, 6))],
        config_facts=[ConfigFact(name="batch size", value=str(rng.choice([16, 32, 64])))] if rng.random() < 0.5 else [],
        claims=claims, pipeline_steps=[f"Step {k}: {_word(rng, non_ascii)} the inputs" for k in range(rng.randint(0, 5))])
    statements = (_statements(rng, rng.randint(1, 12), non_ascii) if shape in ("usual", "prose")
                  else _statements(rng, 1, non_ascii)[:1] if shape == "one_number" and not tables else [])
    return SourceFacts(seed_id=seed_id, provenance=make_provenance(seed_id, "source_facts", "generator"),
                       statements=statements, title=title, domain=rng.choice(["", "Information retrieval", "Port emissions policy",
                                                       f"{_word(rng, non_ascii)} studies", "NLP 2024",
                                                       "Conference papers on retrieval"]),
                       textual=textual, visual=visual, tables=tables, figures=figures)
