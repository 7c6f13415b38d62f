"""HTML pages: the leaderboard table with its rating bars, the pairwise heat map, offline pages.

The pages are parsed back with the standard library's HTML parser, so the
checks read what a browser would: the rows, their cells, the bars' geometry.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from arena.game import Rules
from arena.players import RandomPlayer
from arena.referee import play_game
from arena.report.html import BAR_WIDTH, leaderboard_table, page, pairwise_table
from arena.report.replay_view import frames, viewer_page
from arena.tournament.store import open_existing
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
    assert header[:5] == ["rank", "bot", "rating (mu \u00b1 3 sigma)", "score", "mu"]
    assert [line[:2] for line in cells] == [["1", "alice"], ["2", "slow"], ["3", "<b>x</b>"]]
    assert cells[0][3:6] == ["27.00", "30.00", "1.00"]
    assert cells[1][-1] == "timeout: 2" and cells[0][-1] == "-"
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
    assert styles == ["background: hsl(220 80% 55% / 0.80)", "background: hsl(0 80% 55% / 0.80)"]


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
    assert sorted(line[1] for line in board[1:]) == ["a", "b", "c"]
    assert [line[0] for line in board[1:]] == ["1", "2", "3"]
    assert all(line[6] == "6" for line in board[1:]), "each bot played 6 games"
    assert [line[0] for line in heat[1:]] == [line[1] for line in board[1:]]
    assert "<title>Leaderboard: club</title>" in text and "6 games" in text
    assert not re.search(r"(src|href)\s*=", text)


@pytest.mark.parametrize(("players", "options"), [(3, {}), (5, {"dog_life": "expanded"})])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_replay_frames_follow_every_card(players: int, options: dict[str, str], seed: int) -> None:
    rules = Rules(players=players, **options)  # type: ignore[arg-type]
    seats = [RandomPlayer(f"p{n}") for n in range(players)]
    records = play_game(seats, rules, seed=seed, game_id=f"g{seed}").replay
    shown = frames(records)
    assert shown[0]["caption"].startswith(f"Game g{seed}")
    steps = [record for record in records[1:] if record["type"] != "move"]
    assert len(shown) == len(steps) + 1, "one frame for each line but the moves"
    dealt: list[list[str]] = []
    for record, frame, before in zip(steps, shown[1:], shown[:-1], strict=True):
        cards = [seat["cards"] for seat in frame["seats"]]
        if record["type"] == "deal":
            dealt = [list(hand) for hand in record["hands"]]
            assert cards == dealt
        if record["type"] == "event" and record["event"] == "play":
            seat = record["seat"]
            assert record["card"] in before["seats"][seat]["cards"]
            assert record["card"] not in cards[seat]
            assert frame["trick"][-1] == [seat, record["card"]]
        if record["type"] == "hand_end":
            assert [seat["tricks"] for seat in before["seats"]] == record["tricks"]
        assert all(set(hand) <= set(deal) for hand, deal in zip(cards, dealt, strict=False))
    assert shown[-1]["placements"] == records[-1]["placements"]
    assert "wins" in shown[-1]["caption"]


def test_the_viewer_page_carries_its_frames_and_loads_nothing() -> None:
    records = play_game(
        [RandomPlayer("a"), RandomPlayer("</script>")], Rules(players=2), seed=4, game_id="x"
    ).replay
    text = viewer_page(records)
    assert not re.search(r"(src|href)\s*=", text)
    assert text.count("</script>") == 2, "a name cannot close the frames' script"


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
        "Leaderboard", "Score over the games", "Who places above whom", "Faults", "Sandbox layers",
    ]  # fmt: skip
    board, heat, faults = parsed.tables
    assert sorted(line[1] for line in board[1:]) == ["a", "b", "crash"]
    assert [line[0] for line in heat[1:]] == [line[1] for line in board[1:]]
    assert faults[0] == ["bot", "crash"]
    assert {line[0]: line[1] for line in faults[1:]}["crash"] == "9", "it crashed in all 9 games"
    lines = {str(attrs["data-bot"]): attrs["points"] for tag, attrs in parsed.elements
             if tag == "polyline"}  # fmt: skip
    assert sorted(lines) == ["a", "b", "crash"]
    assert all(len((points or "").split()) == 9 for points in lines.values()), "a point a game"
    assert not re.search(r"(src|href)\s*=", text)
    code, output = run_cli("report", str(tmp_path / "nowhere"))
    assert code == 2 and "does not exist" in output
    code, output = run_cli("report", str(tmp_path / "club"), "-o", "/nonexistent/r.html")
    assert code == 1
    assert output.strip() == "Error: cannot write /nonexistent/r.html: No such file or directory"


def test_history_keeps_at_most_the_points_asked_and_the_last(tmp_path: Path) -> None:
    bots = [arg for name in "abc" for arg in ("--bot", f"{name}={C_BOT}")]
    code, output = run_cli("tournament", *bots, "--players", "3", "--deals", "10",
                           "--out", str(tmp_path), "--quiet")  # fmt: skip
    assert code == 0, output
    store = open_existing(tmp_path)
    try:
        whole, short = store.history(), store.history(points=7)
        final = {row["bot"]: row["score"] for row in store.standings()}
    finally:
        store.close()
    assert {bot: len(line) for bot, line in whole.items()} == {"a": 30, "b": 30, "c": 30}
    assert all(len(line) == 7 for line in short.values())
    for bot, line in short.items():
        assert line[-1] == whole[bot][-1]
        assert line[-1][1] == pytest.approx(final[bot], abs=0.002)
        assert [game for game, _ in line] == sorted(game for game, _ in line)
