"""HTML pages in a real browser: Debian's chromium, driven by Playwright, offline.

Every request the page makes is refused unless it is the page's own file,
and recorded: a page that needed the network would show here. Screenshots
go to each test's own folder (pytest's tmp_path), to look at after a run.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, sync_playwright

from arena.game import Rules
from arena.players import RandomPlayer
from arena.referee import play_game, read_replay
from arena.report.replay_view import viewer_page
from arena.tournament.store import open_existing
from tests.test_tournament import C_BOT, run_cli

CHROMIUM = shutil.which("chromium")
JSON = dict[str, Any]
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


def offline(browser: Browser, path: Path, requests: list[str], fragment: str = "") -> Page:
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
    page.goto(own + fragment)
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


def shown_trick(page: Page) -> list[str]:
    """The cards of the trick on the table."""
    cards: list[str] = page.locator("#trick .card").evaluate_all(
        "nodes => nodes.map(n => n.dataset.card)"
    )
    return cards


def opened(page: Page) -> None:
    """Wait until the viewer has unpacked its game and drawn the first frame."""
    page.wait_for_function("document.getElementById('step').textContent.startsWith('1 / ')")


def table_after_each_line(records: list[JSON]) -> list[tuple[list[list[str]], list[str]]]:
    """The hands and the trick after each line the viewer shows (all but the moves).

    Worked out here from the replay, independently of the viewer's script.
    """
    hands: list[list[str]] = [[] for _ in records[0]["players"]]
    trick: list[str] = []
    complete = False
    tables = [([list(h) for h in hands], list(trick))]
    for record in records[1:]:
        kind, event = record["type"], record.get("event")
        if kind == "move":
            continue
        if kind == "deal":
            hands, trick, complete = [list(h) for h in record["hands"]], [], False
        elif event == "play":
            if complete:
                trick, complete = [], False
            if record["card"] in hands[record["seat"]]:
                hands[record["seat"]].remove(record["card"])
            trick.append(record["card"])
        elif event == "trick":
            trick, complete = [card for _, card in record["cards"]], True
        elif kind in ("hand_end", "game_end"):
            trick, complete = [], False
        tables.append(([list(h) for h in hands], list(trick)))
    return tables


def step_through(page: Page, records: list[JSON], shots: Path | None = None) -> None:
    """Press the right arrow through a whole game, checking the table at every step."""
    tables = table_after_each_line(records)
    names = [str(player["name"]) for player in records[0]["players"]]
    plays = iter(r for r in records if r["type"] == "event" and r["event"] == "play")
    lines = [r for r in records[1:] if r["type"] != "move"]
    for index, (hands, trick) in enumerate(tables):
        step = page.locator("#step").inner_text()
        assert step == f"{index + 1} / {len(tables)}"
        assert shown_seats(page) == hands, f"at step {step}"
        assert shown_trick(page) == trick, f"at step {step}"
        caption = page.locator("#caption").inner_text()
        if index and lines[index - 1].get("event") == "play":
            play = next(plays)
            played = page.evaluate("card => ArenaViewer.cardText(card)", play["card"])
            assert caption.startswith(f"{names[play['seat']]} plays {played}"), caption
        if index and lines[index - 1]["type"] == "deal":
            assert caption.startswith(f"Hand {lines[index - 1]['hand']}: ")
        if shots is not None and index == len(tables) // 2:
            page.screenshot(path=str(shots / "replay-middle.png"), full_page=True)
        page.keyboard.press("ArrowRight")
    end = records[-1]
    assert page.locator("#step").inner_text() == f"{len(tables)} / {len(tables)}", "it stops"
    assert page.locator("#caption").inner_text().startswith(f"Game over: {names[end['winner']]}")
    places = page.locator("#seats .seat .name").all_inner_texts()
    assert [text.rsplit("place ", 1)[1] for text in places] == [str(p) for p in end["placements"]]


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
    records = read_replay(replay)
    requests: list[str] = []
    page = offline(browser, page_file, requests)
    opened(page)
    assert page.locator("#caption").inner_text() == f"Game {records[0]['game']}, seed 11"
    step_through(page, records, shots=tmp_path)
    page.screenshot(path=str(tmp_path / "replay-end.png"), full_page=True)
    page.locator("#prev").click()
    assert page.locator("#caption").inner_text().startswith("Hand ")
    page.select_option("#jump", "2")
    assert page.locator("#caption").inner_text().startswith("Hand 2: ")
    turn_up = next(r for r in records if r["type"] == "deal" and r["hand"] == 2)["turn_up"]
    if turn_up:
        shown = page.evaluate("card => ArenaViewer.cardText(card)", turn_up)
        assert f"turned up: {shown}" in page.locator("#trump").inner_text()
    page.keyboard.press("Home")
    assert page.locator("#step").inner_text().startswith("1 / ")
    assert requests == [], "the page loads nothing"


VARIANTS = [
    Rules(players=3),
    Rules(players=5, dog_life="expanded"),
    Rules(players=4, rainbow=True, no_picture=True, blind_dog=True, tie_break="random"),
    Rules(players=6, upside_dog=True, trumps_broken=True, sweep_wins=True),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda rules: f"{rules.players}-seats")
def test_the_viewers_frames_follow_every_card(
    browser: Browser, rules: Rules, tmp_path: Path
) -> None:
    games = [
        play_game([RandomPlayer(f"p{n}") for n in range(rules.players)], rules, seed=seed,
                  game_id=f"g{seed}").replay
        for seed in range(1, 9)
    ]  # fmt: skip
    page_file = tmp_path / "viewer.html"
    page_file.write_text(viewer_page(games[0]))
    page = offline(browser, page_file, [])
    for records in games:
        shown = page.evaluate("records => ArenaViewer.framesOf(records)", records)
        tables = table_after_each_line(records)
        assert len(shown) == len(tables), "a frame for each line but the moves"
        for frame, (hands, trick) in zip(shown, tables, strict=True):
            assert [seat["cards"] for seat in frame["seats"]] == hands, frame["caption"]
            assert [card for _, card in frame["trick"]] == trick, frame["caption"]
            assert len(frame["trick"]) <= rules.players
        lines = [record for record in records[1:] if record["type"] != "move"]
        for before, line in zip(shown, lines, strict=False):
            if line["type"] == "hand_end":
                assert [seat["tricks"] for seat in before["seats"]] == line["tricks"]
        assert shown[-1]["placements"] == records[-1]["placements"]
        assert shown[-1]["caption"].startswith("Game over: ")


def test_the_report_in_a_browser(browser: Browser, tmp_path: Path) -> None:
    illegal = f"illegal=python3 {Path(__file__).parent / 'bots/misbehave.py'} illegal report"
    bots = [arg for name in ("a", "b", "c") for arg in ("--bot", f"{name}={C_BOT}")]
    club = tmp_path / "club"
    code, output = run_cli("tournament", *bots, "--bot", illegal, "--players", "3",
                           "--deals", "5", "--out", str(club), "--quiet")  # fmt: skip
    assert code == 0, output
    report = tmp_path / "report.html"
    code, output = run_cli("report", str(club), "-o", str(report))
    assert code == 0, output
    store = open_existing(club)
    try:
        games = store.games()
    finally:
        store.close()
    assert len(games) == 60
    requests: list[str] = []
    page = offline(browser, report, requests)
    assert page.locator("table.leaderboard tbody tr").count() == 4
    assert page.locator("h2").all_inner_texts() == [
        "Leaderboard", "Score over the games", "Who places above whom", "Faults", "Sandbox layers",
        "Games",
    ]  # fmt: skip
    for bot in ("a", "b", "c", "illegal"):
        box = page.locator(f'polyline[data-bot="{bot}"]').bounding_box()
        assert box is not None and box["width"] > 100, f"{bot}'s score line is drawn"
    page.screenshot(path=str(tmp_path / "report.png"), full_page=True)

    def listed() -> list[str]:
        return page.locator("#game-rows button.open").all_inner_texts()

    assert page.locator("#game-count").inner_text() == "60 of 60 games"
    assert listed() == [game["id"] for game in games[:50]], "schedule order, 50 a page"
    page.locator("#game-next").click()
    assert listed() == [game["id"] for game in games[50:]]
    assert page.locator("#game-page").inner_text() == "page 2 of 2"
    page.locator('table.games th[data-key="ms"]').click()
    by_time = sorted(games, key=lambda game: (round(game["duration_ms"]), game["ordinal"]))
    assert listed() == [game["id"] for game in by_time[:50]], "sorting starts again on page 1"
    page.locator('table.games th[data-key="ms"]').click()
    assert page.locator('table.games th[data-key="ms"]').get_attribute("aria-sort") == "descending"
    assert listed()[0] == max(games, key=lambda game: round(game["duration_ms"]))["id"]
    page.locator('table.games th[data-key="decisions"]').focus()
    page.keyboard.press("Enter")
    by_decisions = sorted(games, key=lambda game: (game["decisions"], game["ordinal"]))
    assert listed() == [game["id"] for game in by_decisions[:50]], "Enter on a heading sorts"
    page.locator('table.games th[data-key="n"]').click()
    page.check("#game-faults")
    faulty = [g["id"] for g in games if any(seat["fault"] for seat in g["seats"])]
    with_illegal = [g["id"] for g in games if any(s["bot"] == "illegal" for s in g["seats"])]
    assert faulty == with_illegal and len(faulty) == 45
    assert page.locator("#game-count").inner_text() == "45 of 60 games"
    assert listed() == faulty[:50]
    page.uncheck("#game-faults")
    page.select_option("#game-bot", label="a")
    assert listed() == [g["id"] for g in games if any(s["bot"] == "a" for s in g["seats"])]
    page.select_option("#game-bot", label="every bot")
    page.fill("#game-filter", "illegal b")
    both = [g["id"] for g in games if {"b", "illegal"} <= {s["bot"] for s in g["seats"]}]
    assert listed() == both and len(both) == 30, "games that match every word"
    deal_set = faulty[-1].split("-")[0] + "-"
    page.fill("#game-filter", f"{deal_set} illegal")
    matching = [g for g in games if g["id"].startswith(deal_set) and g["id"] in faulty]
    assert listed() == [g["id"] for g in matching] and matching, "every word must match"

    watched = matching[0]
    page.locator(f'#game-rows button.open[data-game="{watched["id"]}"]').click()
    opened(page)
    assert page.locator("#viewer-title").inner_text() == f"Game {watched['id']}"
    page.locator("#viewer-title").focus()
    step_through(page, read_replay(club / watched["replay"]))
    caption = page.locator("#caption").inner_text()
    assert "illegal faulted (illegal)" in caption, caption
    faulted = page.locator("#seats .seat.faulted .name").all_inner_texts()
    assert len(faulted) == 1 and faulted[0].startswith("illegal (")
    page.screenshot(path=str(tmp_path / "report-replay.png"), full_page=False)

    other = games[7]
    linked = offline(browser, report, requests, fragment=f"#game={other['id']}")
    opened(linked)
    header = read_replay(club / other["replay"])[0]
    assert linked.locator("#caption").inner_text() == f"Game {other['id']}, seed {header['seed']}"
    assert requests == [], "the page loads nothing"

    code, output = run_cli("report", str(club), "-o", str(report), "--max-replays", "1")
    assert code == 0, output
    capped = offline(browser, report, requests, fragment=f"#game={games[0]['id']}")
    capped.wait_for_function("document.getElementById('caption').textContent !== ''")
    assert "is not in this page" in capped.locator("#caption").inner_text()
    assert requests == [], "the page loads nothing"
