"""``arena report``: a tournament's results folder as one offline HTML page.

It gathers what the store already holds (nothing is re-rated): the
leaderboard with rating bars, each bot's score over the games, who places
above whom, faults by kind and the sandbox the bots ran in.
"""

from __future__ import annotations

from html import escape

from arena.report.html import faults_table, history_chart, leaderboard_table, page, pairwise_table
from arena.tournament.store import Store


def report_page(store: Store, title: str) -> str:
    """The report of the tournament in ``store``."""
    rows = store.standings()
    bots = [row["bot"] for row in rows]
    done, total = store.done(), store.total()
    layers = store.meta("sandbox")
    sandbox = (
        '<ul class="sandbox">'
        + "".join(f"<li>{escape(str(layer))}</li>" for layer in layers)
        + "</ul>"
        if layers
        else "<p>The bots ran unconfined (--no-sandbox).</p>"
    )
    sections = [
        ("Leaderboard", leaderboard_table(rows)),
        ("Score over the games", history_chart(store.history())),
        ("Who places above whom", pairwise_table(bots, store.pairwise())),
        ("Faults", faults_table(rows)),
        ("Sandbox layers", sandbox),
    ]
    body = "\n".join(
        f'<h2 id="{escape(name.split()[0].lower())}">{escape(name)}</h2>\n{html}'
        for name, html in sections
    )
    played = f"{done} of {total} games played" if done < total else f"{total} games"
    return page(title, body, subtitle=f"{played}; TrueSkill, score = mu - 3 sigma")
