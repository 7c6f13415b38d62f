"""``arena report``: a tournament's results folder as one offline HTML page.

It gathers what the store already holds (nothing is re-rated): the
leaderboard with rating bars, each bot's rating over the games, who places
above whom, faults by kind, the sandbox the bots ran in, and the list of
games, each opening in the replay viewer. The replays travel inside the page
(packed, about 2.5 KB a 4-seat game), so the page still opens offline when it is
mailed alone; past ``max_replays`` games, the games of each bot's first faults
come first (the faults table links to them), then the others with a fault, and
the rest are spread evenly over the schedule.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from typing import Any

import orjson

from arena.report.html import faults_table, leaderboard_table, page, pairwise_table, rating_chart
from arena.report.leaderboard import played
from arena.report.replay_view import asset, json_script, pack, viewer_parts
from arena.results.store import Store

#: How many replays a report embeds unless told: about 27 MB of page at 4 seats.
MAX_REPLAYS = 10_000
#: Characters of the bots' stderr lines (kept with their moves) one report carries, all
#: games together; later games' replays are embedded without them.
REPORT_LOG_CHARS = 2_000_000
#: Games a report lists, at most (or ``max_replays``, where more): a million games' list
#: made a page of 146 MB in 42 s. Past it, the list holds a sample (:meth:`Store.sample`).
LISTED_GAMES = 20_000
#: Bots in the score chart (the leaderboard's top): more lines than this are a tangle.
CHART_TOP = 12
#: Bots in the who-places-above-whom heat map (the leaderboard's top).
HEAT_MAP_TOP = 30

GAMES_CSS = """
table.games th[data-key] { cursor: pointer; user-select: none; }
/* The sort arrow sits on the far side of the heading's text: a number column's heading
   stays flush right over its numbers, a name column's flush left. */
table.games th[aria-sort="ascending"]::before { content: "\\25B2 "; }
table.games th[aria-sort="descending"]::before { content: "\\25BC "; }
table.games th.bot[aria-sort="ascending"]::before,
table.games th.faults[aria-sort="ascending"]::before,
table.games th.bot[aria-sort="descending"]::before,
table.games th.faults[aria-sort="descending"]::before { content: none; }
table.games th.bot[aria-sort="ascending"]::after,
table.games th.faults[aria-sort="ascending"]::after { content: " \\25B2"; }
table.games th.bot[aria-sort="descending"]::after,
table.games th.faults[aria-sort="descending"]::after { content: " \\25BC"; }
table.games td.seats { text-align: left; }
button.open { font: inherit; font-weight: 600; color: var(--accent); background: none;
  border: none; padding: 0; cursor: pointer; text-decoration: underline; white-space: nowrap; }
button.open.absent { color: var(--muted); text-decoration: none; }
"""

GAMES_HTML = """
<div class="controls"><input id="game-filter" type="search" placeholder="game or bot"
 aria-label="filter the games by game or bot"><select id="game-bot" aria-label="games of one bot">
<option value="">every bot</option></select><label><input type="checkbox" id="game-faults">
 with a fault</label><span id="game-count"></span><button id="game-prev">&larr;</button>
<span id="game-page"></span><button id="game-next">&rarr;</button></div>
<div class="scroll"><table class="games"><thead><tr><th data-key="n">#</th>
<th data-key="id" class="bot">game</th>
<th data-key="deal">deal set</th><th data-key="seats" class="bot">seats (place)</th>
<th data-key="winner" class="bot">winner</th><th data-key="faults" class="faults">faults</th>
<th data-key="decisions">decisions</th><th data-key="ms">time (ms)</th></tr></thead>
<tbody id="game-rows"></tbody></table></div>
<h3 id="viewer-title"></h3>
"""


@dataclass
class Report:
    """The page, and what the user should hear about it."""

    html: str
    notices: list[str]


def report_page(
    store: Store, folder: Path, title: str, *, max_replays: int = MAX_REPLAYS
) -> Report:
    """The report of the tournament in ``store``, whose results folder is ``folder``."""
    rows = store.standings()
    bots = [row["bot"] for row in rows]
    done, total = store.done(), store.planned()
    layers = store.meta("sandbox")
    sandbox = (
        '<ul class="sandbox">'
        + "".join(f"<li>{escape(str(layer))}</li>" for layer in layers)
        + "</ul>"
        if layers
        else "<p>The bots ran unconfined (--no-sandbox).</p>"
    )
    details = store.fault_details()
    listed = max(LISTED_GAMES, max_replays)
    finished = store.games(store.sample(listed) if done > listed else None)
    wanted = chosen(finished, max_replays, first=first_fault_games(details))
    games, notices = games_section(finished, folder, max_replays, wanted=wanted, total=done)
    charted, mapped = bots[:CHART_TOP], bots[:HEAT_MAP_TOP]
    sections = [
        ("Leaderboard", leaderboard_table(rows)),
        (
            "Ratings over the games",
            _top_note(len(charted), len(bots), "lines")
            + rating_chart(_in_order(store.history(bots=set(charted)), charted)),
        ),
        (
            "Who places above whom",
            _top_note(len(mapped), len(bots), "rows and columns")
            + pairwise_table(mapped, store.pairwise(set(mapped))),
        ),
        (
            "Faults",
            faults_table(
                rows, details, in_page={game["id"] for game in wanted}, folder=str(folder)
            ),
        ),
        ("Sandbox layers", sandbox),
        ("Games", games),
    ]
    body = "\n".join(
        f'<h2 id="{escape(name.split()[0].lower())}">{escape(name)}</h2>\n{html}'
        for name, html in sections
    )
    endless = store.endless()
    subtitle = f"{played(done, total, endless=endless)}; TrueSkill, score = mu - 3 sigma"
    if done < total or endless:  # a tournament still running (or stopped): a snapshot
        taken = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        what = "a league that never ends" if endless else "a tournament not finished"
        games_in = f"{done} games" if endless else f"{done} of {total} games"
        body = (
            f'<p class="snapshot"><strong>A snapshot</strong>, taken {taken}, of {what}: '
            f"{games_in} were in. Run arena report again for a newer one.</p>\n" + body
        )
        subtitle = f"Snapshot of {taken}: {subtitle}"
    return Report(page(title, body, subtitle=subtitle), notices)


def _top_note(shown: int, bots: int, what: str) -> str:
    if shown == bots:
        return ""
    return (
        f"<p>The top {shown} of the {bots} bots ({what}); "
        "<code>arena leaderboard DIR --pairwise --top N</code> gives more.</p>\n"
    )


def log_chars(text: str) -> int:
    """Characters of the stderr lines kept with the moves of a replay's text."""
    return sum(
        len(line)
        for record in map(orjson.loads, filter(None, text.splitlines()))
        for line in record.get("log", ())
    )


def without_logs(text: str) -> str:
    """A replay's text with the stderr lines of its moves left out (their info kept)."""
    records = [orjson.loads(line) for line in text.splitlines() if line.strip()]
    for record in records:
        record.pop("log", None)
    return "".join(orjson.dumps(record).decode() + "\n" for record in records)


def replay_problem(text: str) -> str | None:
    """What makes a replay's text unreadable (None: every line is JSON, the first a header)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return "empty"
    for number, line in enumerate(lines, start=1):
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            return f"line {number} is not JSON"
        if number == 1 and (not isinstance(record, dict) or record.get("type") != "game"):
            return "its first line is not a game header"
    return None


def games_section(
    games: Sequence[dict[str, Any]],
    folder: Path,
    max_replays: int,
    *,
    wanted: list[dict[str, Any]] | None = None,
    total: int | None = None,
) -> tuple[str, list[str]]:
    """The sortable, filterable list of ``games`` and the viewer their replays open in,
    and a notice for replays that could not be read. ``wanted``: the games whose replays
    go in the page, where the caller chose them (default: :func:`chosen`'s
    ``max_replays``); ``total``: the finished games, where ``games`` is a sample."""
    if not games:
        return "<p>No game has finished yet.</p>", []
    sampled = ""
    if total is not None and total > len(games):
        sampled = (
            f"<p>This list holds {len(games):,} of the {total:,} finished games: those with "
            "a fault first, then games spread evenly over the schedule. <code>arena replay "
            "DIR --game ID</code> shows any game.</p>\n"
        )
    bots = sorted({seat["bot"] for game in games for seat in game["seats"]})
    if wanted is None:
        wanted = chosen(games, max_replays)
    replays, damaged, stripped = _load_replays(wanted, folder)
    notices = _replay_notices(damaged, len(wanted), stripped)
    why_fewer = [
        *(["arena report --max-replays sets how many"] if len(wanted) < len(games) else []),
        *([f"{len(damaged)} could not be read"] if damaged else []),
    ]
    count = (
        f"{len(replays)} of the {len(games)} ({'; '.join(why_fewer)})"
        if why_fewer
        else f"all {len(games)}"
    )
    intro = sampled + (
        f"<p>Choose a game to watch it below; the replays of {count} finished games are "
        "in this page. Click a column's heading to sort by it.</p>"
    )
    data = _game_list(games, bots)
    html = (
        f"<style>{GAMES_CSS}</style>\n{intro}\n{GAMES_HTML}\n{viewer_parts(replays, damaged)}\n"
        f"{json_script('game-list', data)}\n<script>{asset('games.js')}</script>"
    )
    return html, notices


def _load_replays(
    wanted: list[dict[str, Any]], folder: Path
) -> tuple[dict[str, str], dict[str, str], int]:
    """The packed replays of ``wanted`` by game id, why each unreadable one could not be
    read (by game id), and in how many the bots' stderr lines were left out.

    The stderr lines kept with the moves go in while the report's share of
    :data:`REPORT_LOG_CHARS` lasts; later games' replays go in without them.
    """
    replays: dict[str, str] = {}
    damaged: dict[str, str] = {}
    inside = folder.resolve()
    logs_left = REPORT_LOG_CHARS
    stripped = 0
    for game in wanted:
        text, problem = _read_replay(folder, inside, game["replay"])
        if problem:  # the viewer says in words why it cannot show the game
            damaged[game["id"]] = problem
            continue
        if '"log":' in text:  # stderr lines kept with moves: within the report's share
            size = log_chars(text)
            if size > logs_left:
                text = without_logs(text)
                stripped += 1
            else:
                logs_left -= size
        replays[game["id"]] = pack(text)
    return replays, damaged, stripped


def _read_replay(folder: Path, inside: Path, name: str) -> tuple[str, str | None]:
    """The text of the replay file ``name`` of the results ``folder`` (``inside``: the
    folder resolved) and what makes it unreadable, None when nothing does (the text is
    empty when the file could not be read)."""
    path = (inside / name).resolve()
    try:
        if not path.is_relative_to(inside):  # only a damaged store could say so
            raise ValueError(f"{name} is not in {folder}")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return "", "missing"
    except (OSError, ValueError) as error:
        return "", str(error)
    return text, replay_problem(text)


def _replay_notices(damaged: dict[str, str], wanted: int, stripped: int) -> list[str]:
    """The notices for the report's top: the replays (of ``wanted``) that could not be
    read, and the ``stripped`` ones whose bots' stderr lines were left out."""
    unreadable = [f"{game} ({problem})" for game, problem in damaged.items()]
    notices = (
        [
            f"{len(unreadable)} of the {wanted} replays could not be read (the viewer "
            f"says so for each): {', '.join(unreadable[:3])}"
            + (f" and {len(unreadable) - 3} more" if len(unreadable) > 3 else "")
        ]
        if unreadable
        else []
    )
    if stripped:
        notices.append(
            f"The bots' stderr lines are left out of {stripped} games' replays here: a report "
            f"keeps at most {REPORT_LOG_CHARS:,} characters of them (each replay file keeps "
            "its own: arena replay FOLDER --game ID --html shows them)"
        )
    return notices


def _game_list(games: Sequence[dict[str, Any]], bots: list[str]) -> dict[str, Any]:
    """The games as the page's script lists them: each seat as its bot's index in ``bots``."""
    number = {bot: index for index, bot in enumerate(bots)}
    return {
        "bots": bots,
        "games": [
            {
                "n": game["ordinal"],
                "id": game["id"],
                "deal": game["deal_set"],
                "seats": [number[seat["bot"]] for seat in game["seats"]],
                "places": [seat["placement"] for seat in game["seats"]],
                "faults": [seat["fault"] for seat in game["seats"]],
                "decisions": game["decisions"],
                "ms": None if game["duration_ms"] is None else round(game["duration_ms"]),
            }
            for game in games
        ],
    }


def first_fault_games(details: Mapping[str, Sequence[Mapping[str, str]]]) -> list[str]:
    """The games of each bot's first faults (:meth:`Store.fault_details`), each once."""
    return list(dict.fromkeys(fault["game"] for faults in details.values() for fault in faults))


def chosen(
    games: Sequence[dict[str, Any]], limit: int, *, first: Collection[str] = ()
) -> list[dict[str, Any]]:
    """The games whose replays go in the page: all, or ``limit`` of them: the games of
    ``first`` (the bots' first faults, which the faults table links to: a few a bot),
    then the other games with a fault, then games spread evenly over the schedule."""
    with_replay = [game for game in games if game["replay"]]
    if len(with_replay) <= limit:
        return with_replay
    linked = set(first)
    faulty = [
        *(g for g in with_replay if g["id"] in linked),
        *(g for g in with_replay if g["id"] not in linked and any(s["fault"] for s in g["seats"])),
    ][:limit]
    taken = {game["ordinal"] for game in faulty}
    rest = [game for game in with_replay if game["ordinal"] not in taken]
    room = limit - len(faulty)
    return faulty + [rest[index * len(rest) // room] for index in range(room)]


def _in_order(series: Mapping[str, Any], bots: Sequence[str]) -> dict[str, Any]:
    """The chart's lines in leaderboard order, so its legend reads as the ranks do."""
    return {bot: series[bot] for bot in bots if bot in series}
