"""HTML for people: pages that open offline (no network, no CDN), one file each.

Every piece here is a function from data to a string of HTML, with every
value escaped; a page inlines its style, so a report can be mailed or put on
any web server as one file. The leaderboard's rating bars are inline SVG:
a browser draws them with nothing to load.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Callable, Collection, Mapping, Sequence
from html import escape
from typing import Any
from urllib.parse import quote

from arena.report.figures import figure
from arena.report.figures import share as share_text

#: The style every page shares: light and dark, readable without JavaScript.
CSS = """
:root { color-scheme: light dark; --fg: #1d232a; --bg: #fbfbf8; --muted: #5f6672;
  --line: #d8dde3; --accent: #1d4ed8; --bar: #93b4f5; --danger: #b91c1c; --heat: 66%; }
@media (prefers-color-scheme: dark) { :root { --fg: #e5e7eb; --bg: #15181c;
  --muted: #a3acb6; --line: #343a42; --accent: #8fb0ff; --bar: #34508f; --danger: #fca5a5;
  --heat: 34%; } }
body { font: 15px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg);
  margin: 2rem auto; max-width: 72rem; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin-bottom: 0.2rem; }
p.sub { color: var(--muted); margin-top: 0; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 0.3rem 0.6rem; border-bottom: 1px solid var(--line); text-align: right; }
th { font-weight: 600; }
td.bot, th.bot { text-align: left; font-weight: 600; }
th.faults, td.faults { text-align: left; }
td.faults { color: var(--muted); }
td.details { text-align: left; } td.details ul { margin: 0; padding-left: 1.1rem; }
td.details a { color: var(--accent); font-weight: 600; }
svg.rating line.range { stroke: var(--bar); stroke-width: 8; stroke-linecap: round; }
svg.rating circle { fill: var(--accent); }
svg.rating line.score { stroke: var(--fg); stroke-width: 2; }
svg.scale, svg.rating { display: block; }
svg.scale text, svg.history text { fill: var(--muted); font-size: 11px; }
svg.scale line, svg.history line.axis { stroke: var(--muted); }
svg.history line.grid { stroke: var(--line); }
svg.history text.title { fill: var(--fg); font-size: 12px; }
svg.history polyline.line { fill: none; stroke-width: 2; }
svg.history polyline.line.on { stroke-width: 4; }
svg.history polyline.hit { fill: none; stroke: transparent; stroke-width: 12;
  pointer-events: stroke; cursor: pointer; }
svg.history rect.hit { fill: none; pointer-events: all; cursor: pointer; }
svg.history polygon.band { fill-opacity: 0; stroke-opacity: 0; pointer-events: none; }
figure.chart.bands polygon.band { fill-opacity: 0.12; stroke-opacity: 0.45; }
svg.history polygon.band.on { fill-opacity: 0.22; stroke-opacity: 0.8; }
svg.history g.now line.range { stroke-width: 3; stroke-linecap: round; }
svg.history g.now line.score { stroke-width: 2; }
svg.history g.now.on line.range { stroke-width: 5; }
figure.chart.focus polyline.line:not(.on), figure.chart.focus g.now:not(.on) { opacity: 0.3; }
figure.chart figcaption { color: var(--muted); font-size: 0.9rem; }
.scroll { overflow-x: auto; max-width: 100%; }
ul.legend { display: flex; flex-wrap: wrap; gap: 0.2rem 1.2rem; list-style: none; padding: 0;
  margin: 0.4rem 0; }
ul.legend li.on { font-weight: 700; }
.swatch { display: inline-block; width: 0.8rem; height: 0.8rem; border-radius: 2px;
  margin-right: 0.35rem; vertical-align: -0.05rem; }
p.chart-hover { min-height: 1.4rem; margin: 0.2rem 0; font-weight: 600; }
p.snapshot { padding: 0.5rem 0.8rem; border-left: 4px solid var(--accent); }
h2 { font-size: 1.15rem; margin-top: 2rem; }
"""

#: Names the line under the pointer (or a legend entry) in every score chart of a page.
CHART_JS = """
(() => {
  for (const chart of document.querySelectorAll("figure.chart:not([data-ready])")) {
    chart.dataset.ready = "yes";
    const said = chart.querySelector("p.chart-hover");
    const show = (name, text) => {
      // The bot's line, band, bar and legend entry stand out; the other lines fade.
      for (const item of chart.querySelectorAll(".line, .band, g.now, ul.legend li")) {
        item.classList.toggle("on", item.dataset.bot === name);
      }
      chart.classList.toggle("focus", name !== null);
      said.textContent = text;
    };
    for (const hit of chart.querySelectorAll("polyline.hit, g.now, ul.legend li")) {
      hit.addEventListener("pointerenter", () => show(hit.dataset.bot, hit.dataset.say));
      hit.addEventListener("pointerleave", () => show(null, ""));
    }
  }
})();
"""

#: Width of a rating bar, in CSS pixels.
BAR_WIDTH = 220


def page(title: str, body: str, *, subtitle: str = "") -> str:
    """A whole HTML document around ``body`` (already HTML), with the shared style."""
    sub = f'<p class="sub">{escape(subtitle)}</p>' if subtitle else ""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        f"<h1>{escape(title)}</h1>\n{sub}\n{body}\n</body>\n</html>\n"
    )


def nice_ticks(low: float, high: float, most: int = 5) -> list[float]:
    """Round values to label an axis from ``low`` to ``high``: about ``most`` of them, in
    steps of 1, 2, 2.5 or 5 times a power of ten."""
    span = high - low
    if span <= 0:
        return [low]
    magnitude = 10 ** math.floor(math.log10(span / most))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if span / (m * magnitude) <= most)
    value = math.ceil(low / step - 1e-9) * step
    ticks = []
    while value <= high + 1e-9 * span:
        ticks.append(round(value, 10))
        value += step
    return ticks


def tick_label(value: float) -> str:
    """A tick's label: as short as the value allows (``20``, ``27.5``, ``0.25``)."""
    return f"{value:.6g}"


def _scale(low: float, high: float, x: Callable[[float], float]) -> str:
    """The rating bars' scale: tick marks and their labels, on the bars' own x."""
    marks = "".join(
        f'<line x1="{x(t)}" y1="16" x2="{x(t)}" y2="21"/>'
        f'<text x="{x(t)}" y="12" text-anchor="middle">{tick_label(t)}</text>'
        for t in nice_ticks(low, high)
    )
    return (
        f'<svg class="scale" width="{BAR_WIDTH}" height="22" role="img" '
        f'aria-label="rating scale from {low:.1f} to {high:.1f}">{marks}</svg>'
    )


def leaderboard_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """The standings as an HTML table, each bot with its rating bar (mu +/- 3 sigma).

    All bars share one scale, from the lowest ``mu - 3 sigma`` to the highest
    ``mu + 3 sigma``, so overlapping bars show bots the games have not told apart.
    """
    low = min((row["mu"] - 3 * row["sigma"] for row in rows), default=0.0)
    high = max((row["mu"] + 3 * row["sigma"] for row in rows), default=1.0)
    span = max(high - low, 1e-9)

    def x(value: float) -> float:
        return round(8 + (BAR_WIDTH - 16) * (value - low) / span, 1)

    header = (
        '<tr><th>rank</th><th>tier</th><th class="bot">bot</th>'
        '<th class="rating">rating (mu &plusmn; 3 sigma)'
        f"{_scale(low, high, x)}</th>"
        "<th>score</th><th>mu</th><th>sigma</th><th>games</th><th>wins</th><th>win %</th>"
        '<th>avg place</th><th class="faults">faults</th></tr>'
    )
    body = []
    for row in rows:
        mu, sigma = float(row["mu"]), float(row["sigma"])
        tip = f"{row['bot']}: mu {mu:.2f}, {mu - 3 * sigma:.2f} to {mu + 3 * sigma:.2f}"
        bar = (
            f'<svg class="rating" width="{BAR_WIDTH}" height="16" role="img" '
            f'aria-label="{escape(tip)}"><title>{escape(tip)}</title>'
            f'<line class="range" x1="{x(mu - 3 * sigma)}" y1="8" '
            f'x2="{x(mu + 3 * sigma)}" y2="8"/>'
            f'<line class="score" x1="{x(mu - 3 * sigma)}" y1="2" '
            f'x2="{x(mu - 3 * sigma)}" y2="14"/>'
            f'<circle cx="{x(mu)}" cy="8" r="4"/></svg>'
        )
        shown = {key: escape(figure(key, row.get(key))) for key in (
            "tier", "score", "mu", "sigma", "games", "wins", "win_pct", "avg_place", "faults"
        )}  # fmt: skip
        body.append(
            f'<tr data-bot="{escape(str(row["bot"]))}"><td>{row["rank"]}</td>'
            f'<td>{shown["tier"]}</td><td class="bot">{escape(str(row["bot"]))}</td>'
            f"<td>{bar}</td><td>{shown['score']}</td><td>{shown['mu']}</td>"
            f"<td>{shown['sigma']}</td><td>{shown['games']}</td><td>{shown['wins']}</td>"
            f"<td>{shown['win_pct']}</td><td>{shown['avg_place']}</td>"
            f'<td class="faults">{shown["faults"]}</td></tr>'
        )
    return (
        f'<div class="scroll"><table class="leaderboard">\n<thead>{header}</thead>\n'
        f"<tbody>\n{chr(10).join(body)}\n</tbody>\n</table></div>"
    )


def pairwise_table(bots: Sequence[str], pairs: Mapping[tuple[str, str], tuple[int, int]]) -> str:
    """Who beats whom, as a heat map: the share of games of both where the row's bot placed above.

    The colour runs from red (never above) through none (half the time) to
    blue (always above); the cell's title gives the counts.
    """
    head = "".join(f"<th>{escape(bot)}</th>" for bot in bots)
    lines = []
    for a in bots:
        cells = [f'<th class="bot">{escape(a)}</th>']
        for b in bots:
            above, games = pairs.get((a, b), (0, 0))
            if a == b or not games:
                cells.append("<td>-</td>")
                continue
            share = above / games
            hue, strength = (220, share - 0.5) if share >= 0.5 else (0, 0.5 - share)
            tip = f"{a} placed above {b} in {above} of {games} games"
            # Lightness by scheme (--heat): the cell's text keeps its contrast at any share.
            cells.append(
                f'<td style="background: hsl({hue} 80% var(--heat) / {1.6 * strength:.2f})" '
                f'title="{escape(tip)}">{share_text(above, games)}</td>'
            )
        lines.append(f"<tr>{''.join(cells)}</tr>")
    return (
        '<div class="scroll"><table class="pairwise">\n'
        f'<thead><tr><th class="bot">placed above &rarr;</th>{head}</tr></thead>\n'
        f"<tbody>\n{chr(10).join(lines)}\n</tbody>\n</table></div>"
    )


#: Line colours of the score chart, told apart in light and dark.
PALETTE = ("#2563eb", "#dc2626", "#16a34a", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#65a30d")


def line_colour(index: int) -> str:
    """The colour of a chart's ``index``-th line: the palette's, then hues a golden angle
    apart (the 9th bot took the 1st bot's colour, and two lines read as one)."""
    if index < len(PALETTE):
        return PALETTE[index]
    return f"hsl({((index - len(PALETTE)) * 137.508 + 20) % 360:.0f} 70% 42%)"


#: The rating chart's band: mu +/- this many sigma, as the leaderboard's bars (its lower
#: edge is then the score, mu - 3 sigma, the leaderboard's order).
SPREAD = 3
#: Up to this many bots, the rating chart draws every band; beyond, a band shows only while
#: its bot is pointed at (a dozen translucent bands overlap into one grey), and the bars of
#: the ratings now, at the right, carry the uncertainty for every bot.
BANDS_AT_REST = 4
#: Room for each bot's bar of its rating now, at the right of the rating chart, in pixels.
NOW_STEP = 10


def history_chart(
    series: Mapping[str, Sequence[tuple[int, float]]],
    *,
    width: int = 720,
    height: int = 300,
    label: str = "lines over the games",
    y_label: str = "value",
    x_label: str = "games rated",
) -> str:
    """Named lines over the games as an inline SVG line chart: a match's LLR and its bounds
    (:func:`rating_chart` draws ratings, with their uncertainty).

    Round ticks and their labels on both axes, the axes named, a legend, and
    each line named on hover (the line or its legend entry): the chart keeps
    its width (720 px) and scrolls sideways within a narrow screen.
    """
    says = {
        bot: f"{bot}: {line[-1][1]:.2f} after game {line[-1][0]}"
        for bot, line in series.items()
        if line
    }
    return _chart(
        series, {}, says, width=width, height=height, label=label, y_label=y_label, x_label=x_label
    )


def rating_chart(
    ratings: Mapping[str, Sequence[tuple[int, float, float]]],
    *,
    width: int = 720,
    height: int = 300,
    label: str = "ratings over the games",
) -> str:
    """Each bot's rating over the rated games, ``(game, mu, sigma)`` points, as an inline SVG:
    mu as a line, mu +/- 3 sigma as a translucent band around it, and at the right each
    bot's rating now as a bar (mu +/- 3 sigma, a dot at mu, a tick at the score).

    The score (mu - 3 sigma) alone drew every line climbing together as sigma
    shrank, bunched at the top; mu spreads the bots apart and the band says
    how far apart the games have really told them. The y axis covers the
    lines and the ratings now; a band's early, wider stretch is cut at the
    chart's edges. Up to :data:`BANDS_AT_REST` bots every band shows; with
    more, only the band of the bot pointed at (its line, bar or legend entry).
    """
    ratings = {bot: line for bot, line in ratings.items() if line}
    series = {bot: [(game, mu) for game, mu, _ in line] for bot, line in ratings.items()}
    spreads = {bot: [SPREAD * sigma for _, _, sigma in line] for bot, line in ratings.items()}
    says: dict[str, str] = {}
    for bot, line in ratings.items():
        game, mu, sigma = line[-1]
        says[bot] = (
            f"{bot}: mu {mu:.2f} \u00b1 {SPREAD * sigma:.2f}, score {mu - SPREAD * sigma:.2f}, "
            f"after game {game}"
        )
    return _chart(
        series,
        spreads,
        says,
        width=width,
        height=height,
        label=label,
        y_label=f"rating (mu \u00b1 {SPREAD} sigma)",
        x_label="games rated",
    )


def _chart(
    series: Mapping[str, Sequence[tuple[int, float]]],
    spreads: Mapping[str, Sequence[float]],
    says: Mapping[str, str],
    *,
    width: int,
    height: int,
    label: str,
    y_label: str,
    x_label: str,
) -> str:
    """The line chart of :func:`history_chart` and :func:`rating_chart`: with ``spreads``
    (each point's half-width), a band around each line and the bars of the last points."""
    series = {bot: line for bot, line in series.items() if line}
    if not series:
        return "<p>No game rated yet.</p>"
    points = [point for line in series.values() for point in line]
    first, last = min(g for g, _ in points), max(g for g, _ in points)
    ends = [
        (line[-1][1] - spreads[bot][-1], line[-1][1] + spreads[bot][-1])
        for bot, line in series.items()
        if bot in spreads
    ]
    low = min([s for _, s in points] + [a for a, _ in ends])
    high = max([s for _, s in points] + [b for _, b in ends])
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    # The bars of the ratings now stand in a column of their own at the right.
    column = max(NOW_STEP * len(ends) + 16, 52) if ends else 0
    left, right, top, bottom = 62, 16, 12, 46
    plot_right = width - right - column

    def x(game: float) -> float:
        return round(left + (plot_right - left) * (game - first) / max(last - first, 1), 1)

    def y(score: float) -> float:
        return round(height - bottom - (height - top - bottom) * (score - low) / (high - low), 1)

    y_ticks = nice_ticks(low, high)
    x_ticks = nice_ticks(first, max(last, first + 1), 6)
    grid = "".join(
        f'<line class="grid" x1="{left}" y1="{y(t)}" x2="{width - right}" y2="{y(t)}"/>'
        f'<text class="tick" x="{left - 6}" y="{y(t) + 4}" text-anchor="end">'
        f"{tick_label(t)}</text>"
        for t in y_ticks
    ) + "".join(
        f'<line class="axis" x1="{x(t)}" y1="{height - bottom}" x2="{x(t)}" '
        f'y2="{height - bottom + 5}"/>'
        f'<text class="tick" x="{x(t)}" y="{height - bottom + 18}" text-anchor="middle">'
        f"{int(t)}</text>"
        for t in x_ticks
        if t == int(t)
    )
    axes = (
        f'<line class="axis" x1="{left}" y1="{height - bottom}" x2="{plot_right}" '
        f'y2="{height - bottom}"/>'
        f'<text class="title" x="{(left + plot_right) / 2}" y="{height - 8}" '
        f'text-anchor="middle">{escape(x_label)}</text>'
        f'<text class="title" transform="translate(14 {(top + height - bottom) / 2}) rotate(-90)" '
        f'text-anchor="middle">{escape(y_label)}</text>'
    )
    lines, hits, bands, bars, legend = [], [], [], [], []
    for index, (bot, line) in enumerate(series.items()):
        colour = line_colour(index)
        path = " ".join(f"{x(game)},{y(value)}" for game, value in line)
        say, name = escape(says[bot]), escape(bot)
        lines.append(
            f'<polyline class="line" data-bot="{name}" stroke="{colour}" points="{path}">'
            f"<title>{name}</title></polyline>"
        )
        hits.append(
            f'<polyline class="hit" data-bot="{name}" data-say="{say}" points="{path}">'
            f"<title>{name}</title></polyline>"
        )
        legend.append(
            f'<li data-bot="{name}" data-say="{say}"><span class="swatch" '
            f'style="background: {colour}"></span>{name}</li>'
        )
        if bot not in spreads:
            continue
        spread = spreads[bot]
        outline = [f"{x(g)},{y(v + s)}" for (g, v), s in zip(line, spread, strict=True)] + [
            f"{x(g)},{y(v - s)}" for (g, v), s in reversed(list(zip(line, spread, strict=True)))
        ]
        bands.append(
            f'<polygon class="band" data-bot="{name}" fill="{colour}" stroke="{colour}" '
            f'points="{" ".join(outline)}"/>'
        )
        mu, half = line[-1][1], spread[-1]
        at = plot_right + 8 + NOW_STEP * index + NOW_STEP / 2
        bars.append(
            f'<g class="now" data-bot="{name}" data-say="{say}"><title>{say}</title>'
            f'<rect class="hit" x="{at - NOW_STEP / 2}" y="{top}" width="{NOW_STEP}" '
            f'height="{height - top - bottom}"/>'
            f'<line class="range" x1="{at}" y1="{y(mu + half)}" x2="{at}" y2="{y(mu - half)}" '
            f'stroke="{colour}"/><line class="score" x1="{at - 4}" y1="{y(mu - half)}" '
            f'x2="{at + 4}" y2="{y(mu - half)}" stroke="{colour}"/>'
            f'<circle cx="{at}" cy="{y(mu)}" r="3.5" fill="{colour}"/></g>'
        )
    # The bands in a nested svg the size of the plot: what lies beyond its edges is cut.
    plot = (
        f'<svg class="plot" x="{left}" y="{top}" width="{plot_right - left}" '
        f'height="{height - top - bottom}" viewBox="{left} {top} {plot_right - left} '
        f'{height - top - bottom}">{"".join(bands)}</svg>'
        if bands
        else ""
    )
    now = (
        f'<text class="now" x="{plot_right + 8 + NOW_STEP * len(bars) / 2}" '
        f'y="{height - bottom + 18}" text-anchor="middle">now</text>'
        if bars
        else ""
    )
    every = " bands" if bands and len(bands) <= BANDS_AT_REST else ""
    note = (
        f"<figcaption>A line is a bot's mu; its band spans mu &plusmn; {SPREAD} sigma, and the "
        "band's lower edge is the score the leaderboard ranks by. At the right: the ratings "
        "now."
        + ("" if every else " Point at a line, a bar or a name to see its band.")
        + "</figcaption>"
        if bands
        else ""
    )
    return (
        f'<figure class="chart{every}" style="margin: 0"><div class="scroll"><svg class="history" '
        f'width="{width}" height="{height}" role="img" aria-label="{escape(label)}">'
        f"{grid}{axes}{plot}{''.join(lines)}{''.join(hits)}{''.join(bars)}{now}</svg></div>"
        f'<p class="chart-hover" aria-live="polite"></p><ul class="legend">{"".join(legend)}</ul>'
        f"{note}<script>{CHART_JS}</script></figure>"
    )


def faults_table(
    rows: Sequence[Mapping[str, Any]],
    details: Mapping[str, Sequence[Mapping[str, str]]] | None = None,
    *,
    in_page: Collection[str] = (),
    folder: str = "FOLDER",
) -> str:
    """How often each bot faulted, by kind, and (``details``) its first faults: the game,
    the kind and why, so a reader sees the reason without opening a replay, and then the
    game itself a click away. A game whose replay is ``in_page`` links to the page's
    viewer (``#game=ID``, the address the games list gives it); any other says the
    command that shows it (``folder``: the results folder, as the user named it)."""
    kinds = sorted({kind for row in rows for kind in row["faults"]})
    if not kinds:
        return "<p>No bot faulted.</p>"
    head = "".join(f"<th>{escape(kind)}</th>" for kind in kinds)
    first = "<th>first faults</th>" if details is not None else ""
    body = "".join(
        f'<tr><td class="bot">{escape(str(row["bot"]))}</td>'
        + "".join(f"<td>{row['faults'].get(kind, 0)}</td>" for kind in kinds)
        + (
            _first_faults((details or {}).get(str(row["bot"]), []), in_page, folder)
            if details is not None
            else ""
        )
        + "</tr>"
        for row in rows
    )
    return (
        f'<div class="scroll"><table class="faults"><thead><tr><th class="bot">bot</th>{head}'
        f"{first}</tr></thead><tbody>{body}</tbody></table></div>"
    )


def _first_faults(
    faults: Sequence[Mapping[str, str]], in_page: Collection[str], folder: str
) -> str:
    """A cell listing a bot's first faults: game, kind and detail, each escaped; the game
    a link to it in the viewer where its replay is in the page, else the command that
    shows it."""
    items = "".join(
        f"<li>{_fault_game(fault['game'], in_page, folder)}: {escape(fault['kind'])}"
        + (f": {escape(fault['detail'])}" if fault["detail"] else "")
        + "</li>"
        for fault in faults
    )
    return f'<td class="details"><ul>{items}</ul></td>' if items else "<td>-</td>"


#: What JavaScript's ``encodeURIComponent`` leaves as it is, beyond letters, digits and
#: ``_.-~`` (which ``quote`` leaves too): a link then reads as the games list's address.
URI_COMPONENT_SAFE = "!'()*"


def _fault_game(game: str, in_page: Collection[str], folder: str) -> str:
    """A first fault's game: a link that opens it in the report's viewer, written as the
    games list writes its address (JavaScript's ``encodeURIComponent``), or, for a game
    whose replay the page does not carry, its id and the command that shows it."""
    if game in in_page:
        return (
            f'<a class="game" href="#game={quote(game, safe=URI_COMPONENT_SAFE)}" '
            f'data-game="{escape(game)}" title="watch this game">{escape(game)}</a>'
        )
    command = f"arena replay {shlex.quote(folder)} --game {shlex.quote(game)} --html"
    return (
        f'<span class="game">{escape(game)}</span> (its replay is not in this page: '
        f"<code>{escape(command)}</code>)"
    )
