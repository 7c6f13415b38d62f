"""HTML pages: the leaderboard table with its rating bars, the pairwise heat map, offline pages.

The pages are parsed back with the standard library's HTML parser, so the
checks read what a browser would: the rows, their cells, the bars' geometry.
"""

from __future__ import annotations

import base64
import json
import re
import sqlite3
import zlib
from collections.abc import Callable
from contextlib import closing
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from arena.game import Rules
from arena.players import RandomPlayer
from arena.referee import play_game, read_replay
from arena.report import tournament_report
from arena.report.html import (
    BANDS_AT_REST,
    BAR_WIDTH,
    SPREAD,
    history_chart,
    leaderboard_table,
    page,
    pairwise_table,
    rating_chart,
)
from arena.report.replay_view import inline_json, viewer_page
from arena.report.tournament_report import chosen
from arena.results.store import open_existing
from tests.test_tournament import C_BOT, run_cli


class Tables(HTMLParser):
    """Every table's rows (lists of cell texts), every element with its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def parse(text: str) -> Tables:
    parser = Tables()
    parser.feed(text)
    return parser


def row(bot: str, mu: float, sigma: float, rank: int) -> dict[str, Any]:
    return {
        "rank": rank,
        "tier": 1 if rank < 3 else 2,
        "bot": bot,
        "mu": mu,
        "sigma": sigma,
        "score": round(mu - 3 * sigma, 3),
        "games": 10,
        "wins": 4,
        "win_pct": 40.0,
        "avg_place": 1.5,
        "faults": {"timeout": 2} if bot == "slow" else {},
    }


def test_the_leaderboard_table_has_a_row_and_a_bar_per_bot() -> None:
    rows = [row("alice", 30.0, 1.0, 1), row("slow", 25.0, 2.0, 2), row("<b>x</b>", 20.0, 3.0, 3)]
    parsed = parse(leaderboard_table(rows))
    header, *cells = parsed.tables[0]
    assert header[:3] == ["rank", "tier", "bot"] and header[4:6] == ["score", "mu"]
    # The rating heading holds the bars' scale: round values, labelled, on the bars' own x.
    assert header[3].startswith("rating (mu \u00b1 3 sigma)")
    ticks = [
        (float(attrs["x1"] or 0))
        for tag, attrs in parsed.elements
        if tag == "line" and attrs.get("class") is None and attrs.get("y1") == "16"
    ]
    assert len(ticks) >= 3 and ticks == sorted(ticks)
    assert header[3].removeprefix("rating (mu \u00b1 3 sigma)") == "15202530"  # 11 to 33
    assert [[line[0], line[2]] for line in cells] == [
        ["1", "alice"],
        ["2", "slow"],
        ["3", "<b>x</b>"],
    ]
    assert [line[1] for line in cells] == ["1", "1", "2"], "tiers"
    assert cells[0][4:7] == ["27.00", "30.00", "1.00"]
    assert cells[1][-1] == "timeout:2" and cells[0][-1] == "-"
    circles = [float(attrs["cx"] or 0) for tag, attrs in parsed.elements if tag == "circle"]
    ranges = [
        (float(attrs["x1"] or 0), float(attrs["x2"] or 0))
        for tag, attrs in parsed.elements
        if tag == "line" and attrs.get("class") == "range"
    ]
    assert circles == sorted(circles, reverse=True), "a higher mu sits further right"
    assert all(x1 < cx < x2 for (x1, x2), cx in zip(ranges, circles, strict=True))
    assert min(x1 for x1, _ in ranges) == 8 and max(x2 for _, x2 in ranges) == BAR_WIDTH - 8
    assert "<b>" not in leaderboard_table(rows), "names are escaped"


def test_the_pairwise_heat_map_colours_who_places_above_whom() -> None:
    pairs = {("a", "b"): (9, 10), ("b", "a"): (1, 10)}
    parsed = parse(pairwise_table(["a", "b"], pairs))
    assert parsed.tables[0] == [
        ["placed above \u2192", "a", "b"],
        ["a", "-", "90%"],
        ["b", "10%", "-"],
    ]
    styles = [
        attrs["style"] for tag, attrs in parsed.elements if tag == "td" and attrs.get("style")
    ]
    # Blue above, red below, as strong as the share is far from half; the lightness follows
    # the page's scheme (--heat), so the cell's text stays legible in light and dark.
    assert styles == [
        "background: hsl(220 80% var(--heat) / 0.64)",
        "background: hsl(0 80% var(--heat) / 0.64)",
    ]


def test_a_page_needs_nothing_from_the_network() -> None:
    text = page("Leaderboard: <club>", "<p>hi</p>", subtitle="3 games")
    assert text.startswith("<!DOCTYPE html>")
    assert "<title>Leaderboard: &lt;club&gt;</title>" in text
    assert not re.search(r"(src|href)\s*=", text), "no file or address is loaded"


def test_leaderboard_format_html_of_a_tournament(tmp_path: Path) -> None:
    bots = [arg for name in "abc" for arg in ("--bot", f"{name}={C_BOT}")]
    code, output = run_cli("tournament", *bots, "--players", "3", "--deals", "2",
                           "--out", str(tmp_path / "club"), "--quiet")  # fmt: skip
    assert code == 0, output
    code, text = run_cli("leaderboard", str(tmp_path / "club"), "--format", "html", "--pairwise")
    assert code == 0, text
    parsed = parse(text)
    board, heat = parsed.tables
    assert sorted(line[2] for line in board[1:]) == ["a", "b", "c"]
    assert [line[0] for line in board[1:]] == ["1", "2", "3"]
    assert all(line[7] == "6" for line in board[1:]), "each bot played 6 games"
    assert [line[0] for line in heat[1:]] == [line[2] for line in board[1:]]
    assert "<title>Leaderboard: club</title>" in text and "6 games" in text
    assert not re.search(r"(src|href)\s*=", text)


def embedded(text: str, element_id: str) -> Any:
    """The JSON a page carries in its script element ``element_id``."""
    found = re.search(f'<script type="application/json" id="{element_id}">(.*?)</script>', text)
    assert found is not None, f"no {element_id} in the page"
    return json.loads(found.group(1).replace("<\\/", "</"))


def unpacked(packed: str) -> list[dict[str, Any]]:
    """A replay as the viewer's unpack() reads it."""
    text = zlib.decompress(base64.b64decode(packed)).decode()
    return [json.loads(line) for line in text.splitlines()]


def test_the_viewer_page_carries_its_replay_and_loads_nothing() -> None:
    records = play_game(
        [RandomPlayer("a"), RandomPlayer("</script>")], Rules(players=2), seed=4, game_id="x"
    ).replay
    text = viewer_page(records)
    assert not re.search(r"(src|href)\s*=", text)
    assert text.count("<script") == 3, "the replay, the viewer, the call that opens the game"
    assert unpacked(embedded(text, "replays")["x"]) == records


def test_inline_json_cannot_end_its_script_element() -> None:
    value = {"bots": ["</script>", "<!--<script>", "a&b", "\u2663"]}
    text = inline_json(value)
    assert not {"<", ">", "&"} & set(text)
    assert json.loads(text) == value


def test_a_capped_report_carries_the_faulty_games_then_games_spread_over_the_schedule() -> None:
    faulty = (7, 30)
    games = [
        {"ordinal": n, "id": f"g{n}", "replay": f"r/g{n}",
         "seats": [{"fault": "crash" if n in faulty else None}]}
        for n in range(1, 41)
    ]  # fmt: skip
    assert chosen(games, 100) == games
    picked = [game["ordinal"] for game in chosen(games, 6)]
    assert picked[:2] == [7, 30], "the games with a fault first"
    assert picked[2:] == [1, 11, 21, 31], "then spread over the other 38"
    assert [game["ordinal"] for game in chosen(games, 1)] == [7]
    assert chosen(games, 0) == []


def test_a_capped_report_carries_the_games_of_the_first_faults_before_any_other() -> None:
    """The faults table links each bot's first faults to their games: those go in first."""
    faulty = (3, 7, 30)
    games = [
        {"ordinal": n, "id": f"g{n}", "replay": f"r/g{n}",
         "seats": [{"fault": "crash" if n in faulty else None}]}
        for n in range(1, 41)
    ]  # fmt: skip
    picked = [game["ordinal"] for game in chosen(games, 4, first=["g30", "g7"])]
    assert picked[:2] == [7, 30], "the first faults' games, in schedule order"
    assert picked[2] == 3, "then the other games with a fault"
    assert [game["ordinal"] for game in chosen(games, 1, first=["g30"])] == [30]
    assert len(chosen(games, 40, first=["g30"])) == 40


def test_arena_report_of_a_tournament_with_a_faulty_bot(tmp_path: Path) -> None:
    crash = f"crash=python3 {Path(__file__).parent / 'bots/misbehave.py'} crash report-test"
    bots = [arg for name in "ab" for arg in ("--bot", f"{name}={C_BOT}")]
    code, output = run_cli("tournament", *bots, "--bot", crash, "--players", "3", "--deals", "3",
                           "--out", str(tmp_path / "club"), "--quiet")  # fmt: skip
    assert code == 0, output
    code, output = run_cli("report", str(tmp_path / "club"))
    assert code == 0, output
    assert output.strip() == f"Report written to {tmp_path / 'club' / 'report.html'}"
    text = (tmp_path / "club" / "report.html").read_text()
    parsed = parse(text)
    headings = re.findall(r"<h2[^>]*>([^<]+)</h2>", text)
    assert headings == [
        "Leaderboard", "Ratings over the games", "Who places above whom", "Faults",
        "Sandbox layers", "Games",
    ]  # fmt: skip
    board, heat, faults, games = parsed.tables
    assert games[0][:3] == ["#", "game", "deal set"] and len(games) == 1, "the script fills it"
    assert sorted(line[2] for line in board[1:]) == ["a", "b", "crash"]
    assert [line[0] for line in heat[1:]] == [line[2] for line in board[1:]]
    legend = re.findall(r'<li data-bot="([^"]+)" data-say=', text)
    assert legend == [line[2] for line in board[1:]], "the chart's legend in rank order"
    assert faults[0] == ["bot", "crash", "first faults"]
    crashed = {line[0]: line for line in faults[1:]}["crash"]
    assert crashed[2].count(": crash: ") == 3, "its first 3 faults, each with why"
    assert "exited with status 3" in crashed[2] or "closed its output" in crashed[2], crashed
    code, board_json = run_cli("leaderboard", str(tmp_path / "club"), "--format", "json")
    rows = {row["bot"]: row for row in json.loads(board_json)}
    assert rows["a"]["fault_details"] == []
    details = rows["crash"]["fault_details"]
    assert len(details) == 3 and {d["kind"] for d in details} == {"crash"}
    assert all(d["game"] and d["detail"] for d in details), details
    links = [attrs for tag, attrs in parsed.elements if tag == "a"]
    assert [(a["href"], a["data-game"]) for a in links] == [
        (f"#game={d['game']}", d["game"]) for d in details
    ], "each first fault links to its game in the viewer, the games list's address"
    assert {line[0]: line[1] for line in faults[1:]}["crash"] == "9", "it crashed in all 9 games"
    lines = {str(attrs["data-bot"]): attrs["points"] for tag, attrs in parsed.elements
             if tag == "polyline"}  # fmt: skip
    assert sorted(lines) == ["a", "b", "crash"]
    assert all(len((points or "").split()) == 9 for points in lines.values()), "a point a game"
    assert not re.search(r"src\s*=|href\s*=\s*\"(?!#)", text), "nothing to load, links in-page"
    listed = embedded(text, "game-list")
    assert sorted(listed["bots"]) == ["a", "b", "crash"]
    assert len(listed["games"]) == 9
    crash = listed["bots"].index("crash")
    store = open_existing(tmp_path / "club")
    try:
        stored = store.games()
    finally:
        store.close()
    for game, row in zip(listed["games"], stored, strict=True):
        assert game["id"] == row["id"] and game["n"] == row["ordinal"]
        assert game["places"] == [seat["placement"] for seat in row["seats"]]
        assert [listed["bots"][bot] for bot in game["seats"]] == [s["bot"] for s in row["seats"]]
        assert game["faults"] == [("crash" if bot == crash else None) for bot in game["seats"]]
    replays = embedded(text, "replays")
    assert sorted(replays) == sorted(game["id"] for game in stored), "every replay is in the page"
    for game in stored:
        assert unpacked(replays[game["id"]]) == read_replay(tmp_path / "club" / game["replay"])
    code, output = run_cli("report", str(tmp_path / "club"), "--max-replays", "4")
    assert code == 0, output
    text = (tmp_path / "club" / "report.html").read_text()
    assert len(embedded(text, "replays")) == 4 and "the replays of 4 of the 9" in text
    assert {d["game"] for d in details} <= set(embedded(text, "replays")), "first faults in"
    code, output = run_cli("report", str(tmp_path / "club"), "--max-replays", "0")
    assert code == 0, output
    text = (tmp_path / "club" / "report.html").read_text()
    crashed = {line[0]: line for line in parse(text).tables[2][1:]}["crash"]
    for detail in details:  # no replay in the page: the command that shows the game
        command = f"arena replay {tmp_path / 'club'} --game {detail['game']} --html"
        assert f"{detail['game']} (its replay is not in this page: {command}): crash" in crashed[2]
    assert "<a " not in text
    assert len(embedded(text, "game-list")["games"]) == 9, "every game is still listed"
    (tmp_path / "club" / stored[0]["replay"]).unlink()
    (tmp_path / "club" / stored[1]["replay"]).write_text('{"type": "game", "pla\n')
    (tmp_path / "club" / stored[2]["replay"]).write_text("")
    code, output = run_cli("report", str(tmp_path / "club"))
    assert code == 0, output
    assert output.splitlines()[0] == (
        "Notice: 3 of the 9 replays could not be read (the viewer says so for each): "
        f"{stored[0]['id']} (missing), {stored[1]['id']} (line 1 is not JSON), "
        f"{stored[2]['id']} (empty)"
    )
    text = (tmp_path / "club" / "report.html").read_text()
    assert sorted(embedded(text, "replays")) == sorted(game["id"] for game in stored[3:])
    assert embedded(text, "damaged") == {
        stored[0]["id"]: "missing",
        stored[1]["id"]: "line 1 is not JSON",
        stored[2]["id"]: "empty",
    }
    assert "the replays of 6 of the 9 (3 could not be read) finished games" in text
    code, output = run_cli("report", str(tmp_path / "nowhere"))
    assert code == 2 and "does not exist" in output
    code, output = run_cli("report", str(tmp_path / "club"), "-o", "/nonexistent/r.html")
    assert code == 1
    error = "Error: cannot write /nonexistent/r.html: No such file or directory"
    assert output.splitlines()[-1] == error


def test_a_report_of_more_games_than_it_lists_lists_faults_first_then_a_spread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A million games' list made a page of 146 MB: past LISTED_GAMES (or --max-replays)
    the list holds a sample, says so, and stays what the store holds for those games."""
    monkeypatch.setattr(tournament_report, "LISTED_GAMES", 5)
    bots = [arg for name in "abc" for arg in ("--bot", f"{name}={C_BOT}")]
    code, output = run_cli("tournament", *bots, "--players", "3", "--deals", "6",
                           "--out", str(tmp_path / "big"), "--quiet")  # fmt: skip
    assert code == 0, output
    code, output = run_cli("report", str(tmp_path / "big"), "--max-replays", "2")
    assert code == 0, output
    text = (tmp_path / "big" / "report.html").read_text()
    listed = embedded(text, "game-list")["games"]
    assert [game["n"] for game in listed] == [0, 4, 8, 12, 16], "spread over the 18"
    assert "This list holds 5 of the 18 finished games" in text
    assert len(embedded(text, "replays")) == 2 and "the replays of 2 of the 5" in text
    store = open_existing(tmp_path / "big")
    try:
        whole = {game["ordinal"]: game for game in store.games()}
        assert store.games([4, 8]) == [whole[4], whole[8]]
        with closing(sqlite3.connect(tmp_path / "big" / "results.sqlite")) as db:
            db.execute("UPDATE seats SET fault_kind = 'timeout' WHERE game IN (7, 9)")
            db.commit()
        assert store.sample(5) == [0, 6, 7, 9, 12], "the faulted games, then 3 spread"
        assert store.sample(2) == [7, 9], "with no room left, the faulted ones alone"
    finally:
        store.close()
    code, output = run_cli("report", str(tmp_path / "big"), "--max-replays", "20")
    assert code == 0, output
    text = (tmp_path / "big" / "report.html").read_text()
    assert len(embedded(text, "game-list")["games"]) == 18, "--max-replays past it: all"
    assert "This list holds" not in text


def test_history_keeps_at_most_the_points_asked_and_the_last(tmp_path: Path) -> None:
    bots = [arg for name in "abc" for arg in ("--bot", f"{name}={C_BOT}")]
    code, output = run_cli("tournament", *bots, "--players", "3", "--deals", "10",
                           "--out", str(tmp_path), "--quiet")  # fmt: skip
    assert code == 0, output
    store = open_existing(tmp_path)
    try:
        whole, short = store.history(), store.history(points=7)
        final = {row["bot"]: row["score"] for row in store.standings()}
        rated = {row["bot"]: (row["mu"], row["sigma"]) for row in store.standings()}
    finally:
        store.close()
    assert {bot: len(line) for bot, line in whole.items()} == {"a": 30, "b": 30, "c": 30}
    assert all(len(line) == 7 for line in short.values())
    for bot, line in short.items():
        assert line[-1] == whole[bot][-1]
        _, mu, sigma = line[-1]  # the rating with its uncertainty, the score from both
        assert (mu, sigma) == pytest.approx(rated[bot], abs=0.001)
        assert mu - 3 * sigma == pytest.approx(final[bot], abs=0.002)
        assert [game for game, _, _ in line] == sorted(game for game, _, _ in line)


def test_no_shipped_script_holds_what_ends_its_script_element() -> None:
    """Each page inlines these scripts: ``</script`` anywhere in one (a comment too) would end
    its element early and break the page."""
    scripts = [*(Path(__file__).resolve().parent.parent / "arena").rglob("*.js")]
    assert len(scripts) >= 3
    for script in scripts:
        text = script.read_text(encoding="utf-8").lower()
        assert "</script" not in text and "<!--" not in text, script


@pytest.mark.parametrize("ratings", [False, True], ids=["lines", "ratings"])
def test_every_line_of_a_chart_has_a_colour_of_its_own(ratings: bool) -> None:
    """A class of 12: the 9th bot took the 1st bot's colour, and two lines read as one."""
    series = {f"bot{index}": [(1, float(index)), (2, float(index))] for index in range(12)}
    chart = (
        rating_chart({bot: [(g, v, 1.0) for g, v in line] for bot, line in series.items()})
        if ratings
        else history_chart(series)
    )
    strokes = re.findall(r'<polyline class="line" data-bot="[^"]+" stroke="([^"]+)"', chart)
    assert len(strokes) == 12 and len(set(strokes)) == 12, strokes
    assert re.findall(r'<li data-bot="([^"]+)"', chart) == list(series), "the lines' order"


def chart_scale(chart: str) -> Callable[[float], float]:
    """A chart's value -> y, read back from two of its labelled grid lines."""
    ticks = re.findall(
        r'<line class="grid" x1="[^"]+" y1="([^"]+)"[^>]*/><text class="tick"[^>]*>([^<]+)</text>',
        chart,
    )
    (y0, v0), (y1, v1) = [(float(y), float(v)) for y, v in (ticks[0], ticks[-1])]
    return lambda value: y0 + (value - v0) * (y1 - y0) / (v1 - v0)


def points_of(text: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (point.split(",") for point in text.split())]


def test_the_rating_chart_draws_mu_with_a_band_of_3_sigma_and_the_ratings_now() -> None:
    """Mu as the line, mu +/- 3 sigma as the band around it (its lower edge the score), and
    each bot's rating now as a bar at the right, in the legend's order."""
    ratings = {
        "ann": [(1, 27.0, 7.0), (5, 29.0, 4.0), (9, 30.5, 2.0)],
        "bob": [(2, 24.0, 7.5), (5, 22.0, 5.0), (9, 21.0, 2.5)],
        "cy": [(3, 25.0, 8.0), (9, 25.5, 3.0)],
    }
    chart = rating_chart(ratings)
    y = chart_scale(chart)
    found = Tables()
    found.feed(chart)
    bands = {a["data-bot"]: a for tag, a in found.elements if tag == "polygon"}
    lines = {a["data-bot"]: a for tag, a in found.elements if a.get("class") == "line"}
    ranges = [a for tag, a in found.elements if tag == "line" and a.get("class") == "range"]
    dots = [a for tag, a in found.elements if tag == "circle"]
    assert list(bands) == list(lines) == list(ratings), "a band for each bot's line"
    assert len(ranges) == len(dots) == 3
    for (bot, line), bar, dot in zip(ratings.items(), ranges, dots, strict=True):
        drawn = points_of(str(lines[bot]["points"]))
        outline = points_of(str(bands[bot]["points"]))
        upper, lower = outline[: len(line)], outline[len(line) :][::-1]
        for (_, mu, sigma), (x, at), top, bottom in zip(line, drawn, upper, lower, strict=True):
            assert at == pytest.approx(y(mu), abs=0.1), f"{bot}'s line is its mu"
            assert top == pytest.approx((x, y(mu + SPREAD * sigma)), abs=0.1)
            assert bottom == pytest.approx((x, y(mu - SPREAD * sigma)), abs=0.1), "the score"
        _, mu, sigma = line[-1]
        assert float(str(bar["y1"])) == pytest.approx(y(mu + SPREAD * sigma), abs=0.1)
        assert float(str(bar["y2"])) == pytest.approx(y(mu - SPREAD * sigma), abs=0.1)
        assert float(str(dot["cy"])) == pytest.approx(y(mu), abs=0.1)
        assert bar["stroke"] == lines[bot]["stroke"], "the bar in its line's colour"
    assert [float(str(bar["x1"])) for bar in ranges] == sorted(float(str(b["x1"])) for b in ranges)
    # The axis covers every bar now (within the plot, 12 to 254 px down); the early, wider
    # bands are cut at its edges (the nested svg of the plot).
    ends = [float(str(bar[key])) for bar in ranges for key in ("y1", "y2")]
    assert all(12 - 0.1 <= end <= 254 + 0.1 for end in ends), ends
    assert '<svg class="plot"' in chart and 'class="chart bands"' in chart, "3 bands: all shown"
    assert "rating (mu \u00b1 3 sigma)" in chart


def test_a_dozen_ratings_show_their_band_only_when_pointed_at() -> None:
    """Twelve translucent bands overlap into one grey: past a few, bands wait to be pointed at
    (the bars now still show every bot's uncertainty), and the note says so."""
    many = {f"b{i}": [(1, 25.0, 8.0), (9, 20.0 + i, 1.0 + i / 10)] for i in range(12)}
    few = dict(list(many.items())[:BANDS_AT_REST])
    assert 'class="chart bands"' in rating_chart(few)
    chart = rating_chart(many)
    assert 'class="chart"' in chart and 'class="chart bands"' not in chart
    assert chart.count('<polygon class="band"') == 12 and chart.count('<g class="now"') == 12
    assert "Point at a line, a bar or a name to see its band." in chart
    assert "polygon" not in history_chart({"LLR": [(0, 0.0), (5, 1.2)]}), "a plain line chart"


def test_a_schema_1_folder_still_reports_its_ratings_with_their_uncertainty(
    tmp_path: Path,
) -> None:
    """A results folder written before rounds existed keeps mu and sigma for every rated
    game, so its report draws the bands and the bars too."""
    bots = [arg for name in "abc" for arg in ("--bot", f"{name}={C_BOT}")]
    code, output = run_cli("tournament", *bots, "--players", "3", "--deals", "2",
                           "--out", str(tmp_path), "--quiet")  # fmt: skip
    assert code == 0, output
    with sqlite3.connect(tmp_path / "results.sqlite") as db:
        db.executescript(
            "DROP TABLE rounds; DROP TABLE tables; DROP TABLE round_standings;"
            "ALTER TABLE games DROP COLUMN round; ALTER TABLE games DROP COLUMN table_no;"
            "ALTER TABLE bots DROP COLUMN base; ALTER TABLE bots DROP COLUMN retired;"
            "UPDATE meta SET value = '1' WHERE key = 'schema_version';"
        )
    db.close()
    code, output = run_cli("report", str(tmp_path), "-o", str(tmp_path / "r.html"))
    assert code == 0, output
    html = (tmp_path / "r.html").read_text()
    assert html.count('<polygon class="band"') == 3 and html.count('<g class="now"') == 3
