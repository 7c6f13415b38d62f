"""HTML pages in a real browser: Debian's chromium, driven by Playwright, offline.

Every request the page makes is refused unless it is the page's own file,
and recorded: a page that needed the network would show here. Screenshots
go to each test's own folder (pytest's tmp_path), to look at after a run.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, sync_playwright

from arena.referee import read_replay
from arena.report.replay_view import card_text, frames
from tests.test_tournament import C_BOT, run_cli

CHROMIUM = shutil.which("chromium")
# Justified skip: issue 9 asks that, where chromium cannot be installed, these
# tests say plainly they were not run and why; make test installs it as root.
pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not installed here (make test installs Debian's chromium when run "
    "as root with apt-get): the HTML pages were NOT tested in a browser",
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        # --no-sandbox: chromium's own sandbox refuses to run as root, as tests here do.
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


def offline(browser: Browser, path: Path, requests: list[str]) -> Page:
    """A page showing the file at ``path``, with every other request refused and recorded."""
    page = browser.new_page(viewport={"width": 1100, "height": 700})
    own = path.resolve().as_uri()

    def guard(route: Route) -> None:
        if route.request.url == own:
            route.continue_()
        else:
            requests.append(route.request.url)
            route.abort()

    page.route("**/*", guard)
    page.goto(own)
    return page


def test_the_html_leaderboard_in_a_browser(browser: Browser, tmp_path: Path) -> None:
    bots = [arg for name in ("a", "b", "c", "d") for arg in ("--bot", f"{name}={C_BOT}")]
    code, output = run_cli("tournament", *bots, "--players", "3", "--deals", "2", "--seed", "3",
                           "--out", str(tmp_path / "club"), "--quiet")  # fmt: skip
    assert code == 0, output
    code, text = run_cli("leaderboard", str(tmp_path / "club"), "--format", "html", "--pairwise")
    assert code == 0, text
    code, json_text = run_cli("leaderboard", str(tmp_path / "club"), "--format", "json")
    expected = [line for line in json_text.splitlines() if '"bot"' in line]
    html_file = tmp_path / "leaderboard.html"
    html_file.write_text(text)
    requests: list[str] = []
    page = offline(browser, html_file, requests)
    rows = page.locator("table.leaderboard tbody tr")
    assert rows.count() == 4
    names = page.locator("table.leaderboard tbody td.bot").all_inner_texts()
    assert [f'    "bot": "{name}",' for name in names] == expected, "the json's order"
    for index in range(4):
        bar = rows.nth(index).locator("svg.rating line.range").bounding_box()
        assert bar is not None and bar["width"] > 10, "each bot's rating bar is drawn"
    heat = page.locator("table.pairwise tbody tr")
    assert heat.count() == 4
    assert page.title() == "Leaderboard: club"
    page.screenshot(path=str(tmp_path / "leaderboard.png"), full_page=True)
    assert (tmp_path / "leaderboard.png").stat().st_size > 10_000
    assert requests == [], "the page loads nothing"


def shown_seats(page: Page) -> list[list[str]]:
    """The cards each seat shows."""
    seats = page.locator("#seats .seat")
    return [
        seats.nth(index).locator(".card").evaluate_all("nodes => nodes.map(n => n.dataset.card)")
        for index in range(seats.count())
    ]


def test_the_replay_viewer_steps_through_a_whole_game(browser: Browser, tmp_path: Path) -> None:
    replay = tmp_path / "game.jsonl"
    code, output = run_cli(
        "play", f"a={C_BOT}", f"b={C_BOT}", f"c={C_BOT}", "--seed", "11",
        "--replay", str(replay), "--quiet",
    )  # fmt: skip
    assert code == 0, output
    page_file = tmp_path / "game.html"
    code, output = run_cli("replay", str(replay), "--html", str(page_file))
    assert code == 0, output
    expected = frames(read_replay(replay))
    requests: list[str] = []
    page = offline(browser, page_file, requests)
    for index, frame in enumerate(expected):
        assert page.locator("#step").inner_text() == f"{index + 1} / {len(expected)}"
        assert page.locator("#caption").inner_text() == frame["caption"]
        assert shown_seats(page) == [seat["cards"] for seat in frame["seats"]], frame["caption"]
        trick = page.locator("#trick .card").evaluate_all("ns => ns.map(n => n.dataset.card)")
        assert trick == [card for _, card in frame["trick"]]
        if frame["turn_up"]:
            assert card_text(frame["turn_up"]) in page.locator("#trump").inner_text()
        if index == len(expected) // 2:
            page.screenshot(path=str(tmp_path / "replay-middle.png"), full_page=True)
        page.keyboard.press("ArrowRight")
    final = expected[-1]
    assert final["placements"] is not None
    names = page.locator("#seats .seat .name").all_inner_texts()
    assert [name.rsplit("place ", 1)[1] for name in names] == [
        str(place) for place in final["placements"]
    ]
    page.screenshot(path=str(tmp_path / "replay-end.png"), full_page=True)
    page.locator("#prev").click()
    assert page.locator("#caption").inner_text() == expected[-2]["caption"]
    page.select_option("#jump", "2")
    first_of_hand_2 = next(i for i, f in enumerate(expected) if f["hand"] == 2)
    assert page.locator("#step").inner_text() == f"{first_of_hand_2 + 1} / {len(expected)}"
    assert page.locator("#caption").inner_text().startswith("Hand 2: ")
    assert requests == [], "the page loads nothing"


def test_the_report_in_a_browser(browser: Browser, tmp_path: Path) -> None:
    bots = [arg for name in ("a", "b", "c") for arg in ("--bot", f"{name}={C_BOT}")]
    code, output = run_cli("tournament", *bots, "--players", "3", "--deals", "4",
                           "--out", str(tmp_path / "club"), "--quiet")  # fmt: skip
    assert code == 0, output
    code, output = run_cli("report", str(tmp_path / "club"), "-o", str(tmp_path / "report.html"))
    assert code == 0, output
    requests: list[str] = []
    page = offline(browser, tmp_path / "report.html", requests)
    assert page.locator("table.leaderboard tbody tr").count() == 3
    assert page.locator("h2").all_inner_texts() == [
        "Leaderboard", "Score over the games", "Who places above whom", "Faults", "Sandbox layers",
    ]  # fmt: skip
    for bot in ("a", "b", "c"):
        box = page.locator(f'polyline[data-bot="{bot}"]').bounding_box()
        assert box is not None and box["width"] > 100, f"{bot}'s score line is drawn"
    page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
    assert requests == [], "the page loads nothing"
