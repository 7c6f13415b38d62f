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
