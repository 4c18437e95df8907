"""Analysis-firm reports of the `scale` seeds: a sector table by year (with its total), an indicator
table with a Unit column, optional targets, projections and shares as figures."""
from __future__ import annotations

import random

from mmeb_assets.seedgen.demo_specs import DemoFigure, DemoSection, DemoSeedSpec, DemoTable
from mmeb_assets.seedgen.scale_specs import REPORT_TITLES, _figure_plan, _num, _series, fmt
from mmeb_assets.seedgen.scale_vocab import Domain, Indicator

SECTOR_DECIMALS = 1


def report_spec(seed_id: str, domain: Domain, index: int) -> DemoSeedSpec:
    rng = random.Random(f"mmeb-scale:{seed_id}")
    org, programme = domain.names[index], domain.datasets[index]
    y_first = rng.randint(2019, 2022)
    years = [str(y_first + i) for i in range(rng.randint(3, 4))]
    sectors = rng.sample(domain.sectors, k=rng.randint(3, 6))
    scale = rng.choice((10, 40, 150, 600))
    falling = rng.random() < 0.5
    cells = {s: _series(rng, scale * 0.3, scale * 1.6, len(years), not falling, SECTOR_DECIMALS) for s in sectors}
    totals = [fmt(sum(_num(cells[s][i]) for s in sectors), SECTOR_DECIMALS) for i in range(len(years))]
    t1 = DemoTable(number=1, caption=f"Table 1: {org}, {domain.subject} by sector, {domain.sector_unit}.",
                   header=["Sector", *years], rows=[[s, *cells[s]] for s in sectors] + [["Total", *totals]])
    indicators: list[Indicator] = rng.sample(domain.indicators, k=rng.randint(3, 5))
    ind_cells = {i.name: _series(rng, i.low, i.high, len(years), i.rising, i.decimals) for i in indicators}
    t2 = DemoTable(number=2, caption=f"Table 2: {programme} indicators by year.",
                   header=["Indicator", "Unit", *years], rows=[[i.name, i.unit, *ind_cells[i.name]] for i in indicators])
    tables = [t1, t2]
    target_year = str(int(years[-1]) + rng.choice((3, 5, 8)))
    if rng.random() < 0.5:
        rows = []
        for ind in indicators[:3]:
            last = _num(ind_cells[ind.name][-1])
            goal = last * (1 + rng.uniform(0.1, 0.4)) if ind.rising else last * (1 - rng.uniform(0.1, 0.4))
            rows.append([ind.name, ind_cells[ind.name][-1], fmt(goal, ind.decimals), target_year])
        tables.append(DemoTable(number=3, caption=f"Table 3: {programme} targets for {target_year}.",
                                header=["Indicator", f"Value {years[-1]}", "Target", "Year"], rows=rows))
    figures = _report_figures(rng, domain, org, years, sectors, cells, totals, falling)
    title = rng.choice(REPORT_TITLES).format(org=org, subject=domain.label.title(), y0=int(years[-1]) + 1,
                                             y1=int(years[-1]) + 5)
    office = rng.choice(("Planning Office", "Strategy Unit", "Statistics Team", "Performance Office"))
    return DemoSeedSpec(seed_id=seed_id, title=title, authors=f"{org} - {office}", style="report",
                        sections=_report_sections(rng, domain, org, programme, years, sectors, cells, totals,
                                                  indicators, ind_cells, tables, figures),
                        tables=tables, figures=figures)


def _report_figures(rng, domain, org, years, sectors, cells, totals, falling) -> list[DemoFigure]:
    figures: list[DemoFigure] = []
    future = [str(int(years[-1]) + i) for i in range(1, rng.randint(4, 6))]
    for kind in _figure_plan(rng, ("projection", "trend", "share", "steps")):
        number = len(figures) + 1
        if kind == "projection":
            last = _num(totals[-1])
            values = _series(rng, last * 0.55, last * 0.98, len(future), not falling and rng.random() < 0.5, SECTOR_DECIMALS)
            figures.append(DemoFigure(number=number, kind="raster", chart="bar", title=f"Projected total ({domain.sector_unit})",
                                      caption=f"Figure {number}: Projected total, {domain.sector_unit}.",
                                      x_labels=future, series={"Projected": values}))
        elif kind == "trend":
            pair = sectors[:2]
            figures.append(DemoFigure(number=number, kind="raster", chart="line", title=f"{pair[0]} and {pair[1]}",
                                      caption=f"Figure {number}: {pair[0]} and {pair[1]} by year, {domain.sector_unit}.",
                                      x_labels=years, series={p: cells[p] for p in pair}))
        elif kind == "share":
            total = sum(_num(cells[s][-1]) for s in sectors)
            shares = [fmt(100 * _num(cells[s][-1]) / total, 1) for s in sectors]
            if len(set(shares)) < len(shares):
                continue
            figures.append(DemoFigure(number=number, kind="vector", chart="bar", title=f"Share of total in {years[-1]} (%)",
                                      caption=f"Figure {number}: Share of each sector in {years[-1]}.",
                                      x_labels=[s.split()[0] for s in sectors], series={"Share": shares}))
        else:
            boxes = ["Baseline", "Measures", "Funding", "Delivery", "Review"][: rng.randint(3, 5)]
            figures.append(DemoFigure(number=number, kind="raster", chart="diagram", title=f"{org} delivery cycle",
                                      caption=f"Figure {number}: The {org} delivery cycle.", boxes=boxes))
    return figures


def _change(old: str, new: str) -> str:
    return fmt(abs(_num(new) - _num(old)) / _num(old) * 100, 1)


def _report_sections(rng, domain, org, programme, years, sectors, cells, totals, indicators, ind_cells, tables, figures):
    biggest = max(sectors, key=lambda s: _num(cells[s][-1]))
    share = fmt(100 * _num(cells[biggest][-1]) / _num(totals[-1]), 1)
    direction = "down" if _num(totals[-1]) < _num(totals[-2]) else "up"
    mover = sectors[-1]
    verb = "less" if _num(cells[mover][-1]) < _num(cells[mover][-2]) else "more"
    unit = domain.sector_unit
    first_ind = indicators[0]
    second_ind = indicators[1]
    budget = fmt(rng.uniform(12, 240), 1)
    outlook = [f"The {programme} programme sets out the measures for the next five years."]
    outlook += [f"[[figure:{f.number}]]" for f in figures]
    outlook.append(f"The budget for {domain.budget_item} is {budget} million euros over five years.")
    body_ind = ["[[table:2]]",
                f"{first_ind.name} moved from {ind_cells[first_ind.name][0]} in {years[0]} to "
                f"{ind_cells[first_ind.name][-1]} in {years[-1]}, and {second_ind.name.lower()} reached "
                f"{ind_cells[second_ind.name][-1]} ({second_ind.unit})."]
    for ind in indicators[2:]:
        body_ind.append(f"{ind.name} stood at {ind_cells[ind.name][-1]} ({ind.unit}) in {years[-1]}, against "
                        f"{ind_cells[ind.name][-2]} a year earlier.")
    if len(tables) > 2:
        body_ind += [f"Table 3 lists the targets the {programme} programme commits to.", "[[table:3]]"]
    return [
        DemoSection(heading="Executive Summary", body=[
            f"The total for {domain.subject} was {totals[-1]} {unit} in {years[-1]}, {direction} "
            f"{_change(totals[-2], totals[-1])}% from {years[-2]}. {biggest} remains the largest sector with "
            f"{cells[biggest][-1]} {unit}, or {share}% of the total."]),
        DemoSection(heading="1 Scope and Data", body=[
            f"This report by {org} covers {len(sectors)} sectors and follows the {years[0]} edition of the reporting "
            f"protocol. Activity data come from {fmt(rng.randint(1200, 90000), 0)} records collected in {years[-1]}."]),
        DemoSection(heading="2 Results by Sector", body=[
            f"Table 1 reports {domain.subject} by sector for the last {len(years)} years.", "[[table:1]]",
            f"{mover} stood at {cells[mover][-1]} {unit} in {years[-1]}, {_change(cells[mover][-2], cells[mover][-1])}% "
            f"{verb} than in {years[-2]}."]),
        DemoSection(heading="3 Indicators", body=body_ind),
        DemoSection(heading=f"4 Outlook {int(years[-1]) + 1}-{int(years[-1]) + 5}", body=outlook),
    ]
