"""HTML for people: pages that open offline (no network, no CDN), one file each.

Every piece here is a function from data to a string of HTML, with every
value escaped; a page inlines its style, so a report can be mailed or put on
any web server as one file. The leaderboard's rating bars are inline SVG:
a browser draws them with nothing to load.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

#: The style every page shares: light and dark, readable without JavaScript.
CSS = """
:root { color-scheme: light dark; --fg: #1d232a; --bg: #fbfbf8; --muted: #6b7280;
  --line: #d8dde3; --accent: #2563eb; --bar: #93b4f5; }
@media (prefers-color-scheme: dark) { :root { --fg: #e5e7eb; --bg: #15181c;
  --muted: #9aa3ad; --line: #343a42; --accent: #7aa2ff; --bar: #34508f; } }
body { font: 15px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg);
  margin: 2rem auto; max-width: 72rem; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin-bottom: 0.2rem; }
p.sub { color: var(--muted); margin-top: 0; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 0.3rem 0.6rem; border-bottom: 1px solid var(--line); text-align: right; }
th { font-weight: 600; }
td.bot, th.bot { text-align: left; font-weight: 600; }
td.faults { text-align: left; color: var(--muted); }
svg.rating line.range { stroke: var(--bar); stroke-width: 8; stroke-linecap: round; }
svg.rating circle { fill: var(--accent); }
svg.rating line.score { stroke: var(--fg); stroke-width: 2; }
svg.history text.axis { fill: var(--muted); font-size: 12px; }
h2 { font-size: 1.15rem; margin-top: 2rem; }
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
        '<tr><th>rank</th><th class="bot">bot</th><th>rating (mu &plusmn; 3 sigma)</th>'
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
        faults = " ".join(f"{kind}: {count}" for kind, count in sorted(row["faults"].items()))
        avg = "-" if row["avg_place"] is None else f"{row['avg_place']:.2f}"
        body.append(
            f'<tr data-bot="{escape(str(row["bot"]))}"><td>{row["rank"]}</td>'
            f'<td class="bot">{escape(str(row["bot"]))}</td><td>{bar}</td>'
            f"<td>{row['score']:.2f}</td><td>{mu:.2f}</td><td>{sigma:.2f}</td>"
            f"<td>{row['games']}</td><td>{row['wins']}</td><td>{row['win_pct']:.1f}</td>"
            f'<td>{avg}</td><td class="faults">{escape(faults) or "-"}</td></tr>'
        )
    return (
        f'<table class="leaderboard">\n<thead>{header}</thead>\n'
        f"<tbody>\n{chr(10).join(body)}\n</tbody>\n</table>"
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
            cells.append(
                f'<td style="background: hsl({hue} 80% 55% / {2 * strength:.2f})" '
                f'title="{escape(tip)}">{100 * share:.0f}%</td>'
            )
        lines.append(f"<tr>{''.join(cells)}</tr>")
    return (
        '<table class="pairwise">\n'
        f'<thead><tr><th class="bot">placed above &rarr;</th>{head}</tr></thead>\n'
        f"<tbody>\n{chr(10).join(lines)}\n</tbody>\n</table>"
    )


#: Line colours of the score chart, told apart in light and dark.
PALETTE = ("#2563eb", "#dc2626", "#16a34a", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#65a30d")


def history_chart(
    series: Mapping[str, Sequence[tuple[int, float]]],
    *,
    width: int = 720,
    height: int = 280,
    label: str = "score over the games",
) -> str:
    """Each bot's score (mu - 3 sigma) over the rated games, as an inline SVG line chart
    (or any other named lines over the games: a match's LLR and its bounds)."""
    points = [point for line in series.values() for point in line]
    if not points:
        return "<p>No game rated yet.</p>"
    first, last = min(g for g, _ in points), max(g for g, _ in points)
    low, high = min(s for _, s in points), max(s for _, s in points)
    pad = 40

    def xy(game: int, score: float) -> str:
        x = pad + (width - 2 * pad) * (game - first) / max(last - first, 1)
        y = height - pad - (height - 2 * pad) * (score - low) / max(high - low, 1e-9)
        return f"{x:.1f},{y:.1f}"

    lines, legend = [], []
    for index, (bot, line) in enumerate(series.items()):
        colour = PALETTE[index % len(PALETTE)]
        path = " ".join(xy(game, score) for game, score in line)
        lines.append(
            f'<polyline class="history" data-bot="{escape(bot)}" fill="none" '
            f'stroke="{colour}" stroke-width="2" points="{path}"><title>{escape(bot)}</title>'
            "</polyline>"
        )
        legend.append(f'<span style="color: {colour}">&#9632; {escape(bot)}</span>')
    axes = (
        f'<text x="{pad}" y="{height - 12}" class="axis">game {first}</text>'
        f'<text x="{width - pad}" y="{height - 12}" text-anchor="end" class="axis">'
        f"game {last}</text>"
        f'<text x="4" y="{pad}" class="axis">{high:.1f}</text>'
        f'<text x="4" y="{height - pad}" class="axis">{low:.1f}</text>'
    )
    return (
        f'<svg class="history" width="{width}" height="{height}" role="img" '
        f'aria-label="{escape(label)}">{axes}{"".join(lines)}</svg>'
        f'<p class="legend">{" ".join(legend)}</p>'
    )


def faults_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """How often each bot faulted, by kind."""
    kinds = sorted({kind for row in rows for kind in row["faults"]})
    if not kinds:
        return "<p>No bot faulted.</p>"
    head = "".join(f"<th>{escape(kind)}</th>" for kind in kinds)
    body = "".join(
        f'<tr><td class="bot">{escape(str(row["bot"]))}</td>'
        + "".join(f"<td>{row['faults'].get(kind, 0)}</td>" for kind in kinds)
        + "</tr>"
        for row in rows
    )
    return (
        f'<table class="faults"><thead><tr><th class="bot">bot</th>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )
