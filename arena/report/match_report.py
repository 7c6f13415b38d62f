"""``arena report`` on a match's folder: why the new version won or lost.

The page shows the test's result and figures, the LLR over the games with
its bounds, the score difference with its 95% interval, and the deal sets
by unit, best and worst first: each game of a unit opens in the replay
viewer, and with a field each seat's pair (NEW's game and BASE's, the same
deal, seat and opponents) opens side by side in two viewers. The list of
every game follows, as in a tournament's report.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from arena.match.result import MatchResult, match_result
from arena.match.schedule import MatchDesign, sent_id
from arena.report.html import history_chart, page
from arena.report.replay_view import VIEWER_HTML
from arena.report.tournament_report import MAX_REPLAYS, Report, games_section
from arena.results.store import Store

#: Deal sets listed at each end of the units (best first, worst first).
UNITS_SHOWN = 10

PAIR_CSS = """
.pair { display: grid; grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr)); gap: 1rem; }
.pair > div > h3 { margin: 0.2rem 0; }
table.units td.games { text-align: left; }
table.units button { font: inherit; color: var(--accent); background: none; border: none;
  padding: 0 0.2rem; cursor: pointer; text-decoration: underline; }
.interval { display: inline-block; position: relative; width: 320px; height: 14px;
  background: var(--line); border-radius: 3px; vertical-align: middle; }
.interval span { position: absolute; top: 0; bottom: 0; background: var(--accent); }
.interval i { position: absolute; top: -3px; bottom: -3px; width: 2px; background: var(--fg); }
"""

#: Opens ``#pair=NEW_ID,BASE_ID`` in the two viewers of the pair section.
PAIR_JS = """
(() => {
  const section = document.getElementById("pair");
  const sides = [...section.querySelectorAll("[data-id=viewer]")];
  const viewers = sides.map((within) => ArenaViewer.mount({ scoped: true, within }));
  function follow() {
    const match = /^#pair=([^,]*),(.*)$/.exec(window.location.hash);
    if (!match) { section.hidden = true; return; }
    const ids = [decodeURIComponent(match[1]), decodeURIComponent(match[2])];
    section.hidden = false;
    ids.forEach((id, index) => {
      section.querySelectorAll("h3")[index].textContent = id;
      ArenaViewer.open(viewers[index], id);
    });
    section.scrollIntoView();
  }
  document.addEventListener("click", (e) => {
    const button = e.target.closest("button[data-open]");
    if (!button) return;
    const hash = `#${button.dataset.open}`;
    if (window.location.hash === hash) follow(); else window.location.hash = hash;
  });
  window.addEventListener("hashchange", follow);
  follow();
})();
"""


def match_page(
    store: Store,
    folder: Path,
    title: str,
    design: MatchDesign,
    players: int,
    *,
    max_replays: int = MAX_REPLAYS,
) -> Report:
    """The report of the match in ``store`` (see the module)."""
    made = match_result(store, design, players, keep_units=True)
    games = store.games()
    ids = {game["ordinal"]: str(game["id"]) for game in games}
    listing, notices = games_section(games, folder, max_replays)
    sections = [
        ("Result", _figures(made)),
        ("LLR over the games", _llr_chart(made)),
        ("Deal sets, best and worst", _units(made, ids)),
        ("Games", listing),
    ]
    body = "\n".join(
        f'<h2 id="{escape(name.split()[0].lower())}">{escape(name)}</h2>\n{html}'
        for name, html in sections
    )
    side = "\n".join(
        f"<div><h3></h3>{VIEWER_HTML.replace(' id=', ' data-id=')}</div>" for _ in range(2)
    )
    body += (
        f'\n<style>{PAIR_CSS}</style>\n<section id="pair" hidden><h2>{escape(design.new)} and '
        f"{escape(design.base)}: the same deal and seat</h2>"
        f'<div class="pair">{side}</div></section>\n<script>{PAIR_JS}</script>'
    )
    test = made.test
    subtitle = (
        f"{design.new} vs {design.base}: {made.result}, {test.running.n} deal sets, "
        f"{test.games} games used ({made.played} played)"
    )
    return Report(page(title, body, subtitle=subtitle), notices)


def _figures(made: MatchResult) -> str:
    """The result's lines, and the score difference's interval drawn around 0."""
    lines = "\n".join(escape(line) for line in made.lines())
    estimate = made.estimate()
    low, high = estimate.ci95
    reach = min(max(abs(low), abs(high), 0.05), 1.0)  # an infinite end: the whole range

    def x(value: float) -> float:
        return max(0.0, min(100.0, 50.0 + 50.0 * value / reach))

    bar = (
        f"<p>Score difference {estimate.mean:+.4f}, 95% interval [{low:+.4f}, {high:+.4f}] "
        f"(the scale runs from {-reach:+.3f} to {reach:+.3f}; the line is 0): "
        f'<span class="interval" role="img" aria-label="95% interval of the score difference">'
        f'<span style="left: {x(low):.1f}%; width: {max(x(high) - x(low), 0.5):.1f}%"></span>'
        f'<i style="left: 50%"></i></span></p>'
    )
    return f"<pre>{lines}</pre>\n{bar}"


def _llr_chart(made: MatchResult) -> str:
    """The LLR after each round of the test, and its two bounds."""
    path = made.test.llr_path
    if not path:
        return "<p>No round is finished yet.</p>"
    lower, upper = made.test.sprt.bounds
    last = path[-1][0]
    return history_chart(
        {
            "LLR": [(0, 0.0), *path],
            f"H1 bound ({upper:+.2f})": [(0, upper), (last, upper)],
            f"H0 bound ({lower:+.2f})": [(0, lower), (last, lower)],
        },
        label="LLR over the games",
        y_label="LLR",
        x_label="games played",
    )


def _units(made: MatchResult, ids: dict[int, str]) -> str:
    """The best and the worst deal sets by unit, each game (or pair) a button to open."""
    units = made.test.units
    if not units:
        return "<p>No deal set is complete yet.</p>"
    paired = made.test.design.paired
    ranked = sorted(units, key=lambda unit: (-unit.value, unit.deal_set))
    best = ranked[:UNITS_SHOWN]
    worst = sorted(ranked[UNITS_SHOWN:], key=lambda unit: (unit.value, unit.deal_set))
    worst = worst[:UNITS_SHOWN]

    def row(unit_index: int, value: float, deal_set: int, games: tuple[int, ...]) -> str:
        names = [ids[ordinal] for ordinal in games]
        if paired:  # each rotation's two games, NEW's and BASE's, side by side
            news = sorted(name for name in names if name.endswith("~new"))
            bases = sorted(name for name in names if name.endswith("~base"))
            buttons = [
                f'<button data-open="pair={escape(new)},{escape(base)}">'
                f"{escape(sent_id(new))}</button>"
                for new, base in zip(news, bases, strict=True)
            ]
        else:
            buttons = [
                f'<button data-open="game={escape(name)}">{escape(name)}</button>' for name in names
            ]
        return (
            f"<tr><td>{unit_index}</td><td>{deal_set}</td><td>{value:+.4f}</td>"
            f'<td class="games">{" ".join(buttons)}</td></tr>'
        )

    head = (
        '<table class="units"><thead><tr><th>#</th><th>deal set</th><th>unit</th>'
        f'<th class="games">{"pairs (NEW | BASE)" if paired else "games"}</th></tr></thead><tbody>'
    )
    parts = []
    for name, chosen in (("Best", best), ("Worst", worst)):
        if not chosen:
            continue
        rows = "".join(
            row(rank, unit.value, unit.deal_set, unit.games)
            for rank, unit in enumerate(chosen, start=1)
        )
        parts.append(f"<h3>{name} first</h3>{head}{rows}</tbody></table>")
    what = (
        "NEW's mean score minus BASE's on the same deals, seats and opponents"
        if paired
        else "NEW's mean score over the deal set's rotations minus 1/2"
    )
    return f"<p>A deal set's unit: {escape(what)}.</p>\n" + "\n".join(parts)
