"""The 30 `scale` seeds: research papers and analysis reports drawn from domain vocabularies with a
seeded RNG, in the same `DemoSeedSpec` form the demo seeds use (so the same renderer writes them).

Each seed's RNG is seeded by its id, so a spec never depends on which other seeds exist. Values are
drawn first and printed once; every number the prose cites is one of those printed strings (or a
difference/total computed from them), so the text, the tables and the figures agree.
"""
from __future__ import annotations

import random
import re

from mmeb_assets.seedgen.demo_specs import DemoFigure, DemoSection, DemoSeedSpec, DemoTable
from mmeb_assets.seedgen.scale_vocab import FIRST_NAMES, LABS, LAST_NAMES, Domain, Metric

SCALE_GENERATOR = "scale"
SEEDS_PER_DOMAIN = 3
RESEARCH_TITLES = ("{name}: {adj} {subject} on {data}", "{name}: Towards {adj} {subject}",
                   "{name}: A {adj} Approach to {subject}", "{name}: {adj} {subject} at Scale")
ADJECTIVES = ("Efficient", "Robust", "Calibrated", "Lightweight", "Adaptive", "Faithful", "Scalable")
REPORT_TITLES = ("{org} {subject} Outlook {y0}-{y1}", "{org} Annual Review of {subject} {y1}",
                 "{org} {subject} Performance Report {y1}", "{org} Statistical Bulletin: {subject} {y1}")


def fmt(value: float, decimals: int) -> str:
    text = f"{value:,.{decimals}f}"
    return text if abs(value) >= 1000 else text.replace(",", "")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower().split()[0]).strip("-")


def _series(rng: random.Random, low: float, high: float, n: int, increasing: bool, decimals: int) -> list[str]:
    """n distinct printed values moving one way between low and high."""
    span = high - low
    start = low + rng.uniform(0.0, 0.25) * span
    steps = sorted(rng.uniform(0.08, 0.22) * span / max(1, n - 1) * (i + 1) for i in range(n))
    values = [start + s for s in [0.0, *steps[: n - 1]]]
    values = values if increasing else [high - (v - low) for v in values]
    out: list[str] = []
    for v in values:
        text = fmt(v, decimals)
        while text in out:
            v += (1 if increasing else -1) * 10 ** -decimals
            text = fmt(v, decimals)
        out.append(text)
    return out


def _num(text: str) -> float:
    return float(text.replace(",", ""))


def _people(rng: random.Random, n: int) -> str:
    names = [f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}" for _ in range(n)]
    return ", ".join(names[:-1]) + f" and {names[-1]}" if n > 1 else names[0]


def _fits(header: list[str], labels: list[str], width: float = 460.0) -> bool:
    """Whether a table with this header and these row labels fits the text width (cells do not wrap)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    label = max(stringWidth(t, "Helvetica", 9) for t in [header[1], *labels])
    others = sum(stringWidth(h, "Helvetica-Bold", 9) + 12 for h in header[2:])
    return stringWidth(header[0], "Helvetica-Bold", 9) + 12 + label + 12 + others <= width


def _figure_plan(rng: random.Random, kinds: tuple[str, ...]) -> list[str]:
    count = rng.choice((1, 1, 2, 2, 3))
    return rng.sample(kinds, k=min(count, len(kinds)))


# ---------------------------------------------------------------- research papers

def research_spec(seed_id: str, domain: Domain, index: int) -> DemoSeedSpec:
    rng = random.Random(f"mmeb-scale:{seed_id}")
    name, data = domain.names[index], domain.datasets[index]
    metrics: list[Metric] = rng.sample(domain.metrics, k=rng.randint(2, min(4, len(domain.metrics))))
    comps = rng.sample(domain.components, k=rng.randint(3, 5))
    n_runs = rng.randint(3, 6)
    baselines = rng.sample(domain.baselines, k=max(1, min(len(domain.baselines), n_runs - 3)))
    systems = [*baselines, f"{name}-base", *(f"{name} + {c}" for c in comps)][:n_runs]
    while len(metrics) > 2 and not _fits(["Run", "System", *(m.name for m in metrics)], systems):
        metrics.pop()
    main = metrics[0]
    columns = {m.name: _series(rng, m.low, m.high, len(systems), m.higher_better, m.decimals) for m in metrics}
    t1 = DemoTable(number=1, caption=f"Table 1: {', '.join(m.name for m in metrics[:2])} of successive systems on {data}.",
                   header=["Run", "System", *columns],
                   rows=[[f"R{i + 1}", s, *(columns[m][i] for m in columns)] for i, s in enumerate(systems)])
    ab_metrics = metrics[: rng.randint(1, min(2, len(metrics)))]
    removed = comps[: rng.randint(2, min(4, len(comps)))]
    ab_rows = [[f"Full {name}", *(columns[m.name][-1] for m in ab_metrics)]]
    for comp in removed:
        cells = []
        for m in ab_metrics:
            best = _num(columns[m.name][-1])
            delta = rng.uniform(0.01, 0.08) * (m.high - m.low)
            cells.append(fmt(best - delta if m.higher_better else best + delta, m.decimals))
        ab_rows.append([f"w/o {comp}", *cells])
    t2 = DemoTable(number=2, caption=f"Table 2: Ablation of {name} components on {data}.",
                   header=["Variant", *(m.name for m in ab_metrics)], rows=ab_rows)
    tables = [t1, t2]
    cats = rng.sample(domain.categories, k=rng.randint(3, 5))
    cat_values = _series(rng, main.low, main.high, len(cats), main.higher_better, main.decimals)
    rng.shuffle(cat_values)
    if rng.random() < 0.45:
        counts = [fmt(rng.randint(120, 4800), 0) for _ in cats]
        tables.append(DemoTable(number=3, caption=f"Table 3: {main.name} of {name} by category on {data}.",
                                header=["Category", "Test items", main.name],
                                rows=[[c, n, v] for c, n, v in zip(cats, counts, cat_values)]))
    figures = _research_figures(rng, domain, name, comps, main, cats, cat_values, systems, columns)
    return DemoSeedSpec(seed_id=seed_id, title=_research_title(rng, name, domain, data),
                        authors=f"{_people(rng, rng.randint(2, 4))} - {name} {rng.choice(LABS)}",
                        style="research", sections=_research_sections(rng, domain, name, data, comps, metrics,
                                                                      columns, systems, ab_rows, tables, figures),
                        tables=tables, figures=figures)


def _research_title(rng: random.Random, name: str, domain: Domain, data: str) -> str:
    subject = domain.subject[:1].upper() + domain.subject[1:]
    return rng.choice(RESEARCH_TITLES).format(name=name, adj=rng.choice(ADJECTIVES), subject=subject, data=data)


def _research_figures(rng, domain, name, comps, main, cats, cat_values, systems, columns) -> list[DemoFigure]:
    figures: list[DemoFigure] = []
    for kind in _figure_plan(rng, ("category", "curve", "budget", "diagram")):
        number = len(figures) + 1
        if kind == "category":
            figures.append(DemoFigure(number=number, kind="raster", chart="bar", title=f"{main.name} by category",
                                      caption=f"Figure {number}: {main.name} of {name} by category.",
                                      x_labels=cats, series={main.name: cat_values}))
        elif kind == "curve":
            steps = rng.randint(4, 6)
            every = rng.choice((1, 2, 5))
            labels = [f"ep {every * (i + 1)}" for i in range(steps)]
            ours = _series(rng, main.low, main.high, steps, main.higher_better, main.decimals)
            base = _series(rng, main.low * 0.9, main.low + (main.high - main.low) * 0.5, steps, main.higher_better, main.decimals)
            figures.append(DemoFigure(number=number, kind="raster", chart="line", title=f"Validation {main.name}",
                                      caption=f"Figure {number}: Validation {main.name} during training, every {every} epoch(s).",
                                      x_labels=labels, series={name: ours, systems[0]: base}))
        elif kind == "budget":
            sizes = sorted(rng.sample((16, 32, 64, 128, 256, 512, 1024), k=rng.randint(3, 5)))
            values = _series(rng, main.low, main.high, len(sizes), main.higher_better, main.decimals)
            figures.append(DemoFigure(number=number, kind="vector", chart="bar", title=f"{main.name} by budget",
                                      caption=f"Figure {number}: {main.name} of {name} against the candidate budget.",
                                      x_labels=[f"{s} cand" for s in sizes], series={main.name: values}))
        else:
            boxes = ["Input", *(c[:18] for c in comps[:4]), "Output"][:6]
            figures.append(DemoFigure(number=number, kind="raster", chart="diagram", title=f"{name} pipeline",
                                      caption=f"Figure {number}: The {name} pipeline.", boxes=boxes))
    return figures


def _research_sections(rng, domain, name, data, comps, metrics, columns, systems, ab_rows, tables, figures):
    main = metrics[0]
    first, last = columns[main.name][0], columns[main.name][-1]
    n_train, n_test = rng.randint(4, 90) * 1000, rng.randint(5, 40) * 100
    epochs, batch, gpus = rng.choice((3, 5, 8, 10, 12, 20)), rng.choice((16, 32, 64, 128, 256)), rng.choice((1, 2, 4, 8))
    lr = rng.choice(("1e-4", "2e-5", "3e-4", "5e-5"))
    dim = rng.choice((128, 256, 384, 768))
    second = metrics[1]
    verb = "improves" if main.higher_better else "reduces"
    abstract = (f"We present {name}, a system for {domain.subject}. On {data} {name} reaches a {main.name} of {last}, "
                f"against {first} for the {systems[0]} baseline, with {second.name} at {columns[second.name][-1]}.")
    worst = max(ab_rows[1:], key=lambda r: abs(_num(r[1]) - _num(ab_rows[0][1])))
    results = [f"Table 1 lists the {len(systems)} runs. Each run adds one change to the previous one; the full system "
               f"(run R{len(systems)}) {verb} {main.name} from {first} to {last}.", "[[table:1]]",
               "Table 2 removes one component at a time from the full system.", "[[table:2]]",
               f"Removing the {worst[0][4:]} costs the most: {ab_metrics_name(tables[1])} becomes {worst[1]}."]
    for m in metrics[1:]:
        results.append(f"{m.name} moves from {columns[m.name][0]} for {systems[0]} to {columns[m.name][-1]} for the full system.")
    if len(tables) > 2:
        results += ["Table 3 breaks the result down by category.", "[[table:3]]"]
    results += [f"[[figure:{f.number}]]" for f in figures]
    comp_list = ", ".join(f"a {c}" for c in comps[:-1]) + f" and a {comps[-1]}"
    return [
        DemoSection(heading="Abstract", body=[abstract]),
        DemoSection(heading="1 Introduction", body=[
            f"Teams working on {domain.subject} need systems that are accurate and cheap to run. Existing "
            f"approaches such as {systems[0]} trade one for the other; {name} is designed to keep both."]),
        DemoSection(heading="2 Method", body=[
            f"{name} has {len(comps)} components: {comp_list}. Each token is mapped to a {dim}-dimensional vector "
            f"and the top {rng.choice((20, 50, 100))} candidates are passed to the last stage."]),
        DemoSection(heading="3 Experimental Setup", body=[
            f"We train on {fmt(n_train, 0)} examples from {data} and evaluate on {fmt(n_test, 0)} held-out items. "
            f"Training runs for {epochs} epochs with a batch size of {batch} and a learning rate of {lr} on {gpus} GPUs. "
            f"We report {', '.join(m.name for m in metrics)}."]),
        DemoSection(heading="4 Results", body=results),
        DemoSection(heading="5 Conclusion", body=[
            f"{name} {verb} {main.name} on {data} over every baseline we tried, with the largest gain from the full pipeline."]),
    ]


def ab_metrics_name(table: DemoTable) -> str:
    return table.header[1]
