"""Tiers of bots the games have not told apart, and one text for each figure everywhere."""

from __future__ import annotations

from typing import Any

from arena.report.figures import figure, share
from arena.report.html import leaderboard_table, pairwise_table
from arena.report.leaderboard import render_leaderboard, render_pairwise
from arena.results.ratings import ordered_probability, tiers


def test_a_new_tier_starts_below_a_bot_likely_above_the_next() -> None:
    apart = [(30.0, 1.0), (25.0, 1.0), (20.0, 1.0)]  # 5 mu apart, sigma 1: p ~ 0.9998
    assert tiers(apart) == [1, 2, 3]
    alike = [(25.2, 1.0), (25.1, 1.0), (25.0, 1.0), (24.9, 1.0)]  # same moves, 4 bots
    assert tiers(alike) == [1, 1, 1, 1]
    mixed = [(30.0, 1.0), (29.9, 1.0), (25.0, 1.0), (24.8, 1.0)]
    assert tiers(mixed) == [1, 1, 2, 2]
    assert tiers([]) == []


def test_the_tier_line_is_at_095() -> None:
    # Spread sqrt(0.5 + 0.5) = 1: mu 1.6449 apart is p = 0.95.
    for gap, expected in ((1.66, [1, 2]), (1.63, [1, 1])):
        pair = [(25.0 + gap, 0.5**0.5), (25.0, 0.5**0.5)]
        assert (ordered_probability(*pair) >= 0.95) == (expected == [1, 2])
        assert tiers(pair) == expected


def board_row(**values: Any) -> dict[str, Any]:
    base = {"rank": 1, "tier": 1, "bot": "a", "mu": 25.0, "sigma": 1.0, "score": 22.0,
            "games": 8, "wins": 3, "win_pct": 37.5, "avg_place": 1.625, "faults": {}}  # fmt: skip
    return {**base, **values}


def test_every_display_writes_a_figure_alike() -> None:
    rows = [board_row(), board_row(rank=2, tier=2, bot="b", win_pct=12.5, faults={"crash": 2})]
    table = render_leaderboard(rows, "table")
    assert "37.5" in table and "37.50" not in table, "win % has one decimal, as on the page"
    assert "crash:2" in table
    csv_lines = render_leaderboard(rows, "csv").splitlines()
    assert csv_lines[0].startswith("rank,tier,bot,")
    assert csv_lines[2] == "2,2,b,25.00,1.00,22.00,8,3,12.5,1.62,crash:2"
    page = leaderboard_table(rows)
    for text in ("<td>37.5</td>", "<td>1.62</td>", "crash:2", "<td>2</td>"):
        assert text in page, text
    assert figure("win_pct", 37.5) in table and figure("avg_place", None) == "-"


def test_a_pairwise_share_rounds_alike_in_the_terminal_and_on_the_page() -> None:
    # 100.0 * 23 / 40 is 57.5 while 100 * (23 / 40) is 57.49999999999999: the terminal
    # wrote 58% where the page wrote 57%.
    assert share(23, 40) == "58%" and share(1, 8) == "13%" and share(0, 0) == "-"
    pairs = {("a", "b"): (23, 40), ("b", "a"): (17, 40)}
    terminal = render_pairwise(["a", "b"], pairs, "table")
    page = pairwise_table(["a", "b"], pairs)
    assert "58%" in terminal and ">58%<" in page and "43%" in terminal and ">43%<" in page
