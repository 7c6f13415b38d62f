"""HTML pages in a real browser: Debian's chromium, driven by Playwright, offline.

Every request the page makes is refused unless it is the page's own file,
and recorded: a page that needed the network would show here. Screenshots
go to each test's own folder (pytest's tmp_path), to look at after a run.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, Page, Route, sync_playwright

from arena.game import Rules
from arena.human.web import POLL_S
from arena.players import RandomPlayer, ScriptedPlayer
from arena.referee import play_game, read_replay
from arena.report.html import page as page_html
from arena.report.html import rating_chart
from arena.report.replay_view import viewer_page
from arena.results.store import open_existing
from tests.system import E2E, needs
from tests.test_tournament import C_BOT, run_cli

CHROMIUM = shutil.which("chromium")
ROOT = Path(__file__).resolve().parent.parent
JSON = dict[str, Any]
# Where chromium cannot be installed these tests say plainly they were not run (and
# fail under CI=true); make test installs it as root.
pytestmark = [E2E, needs({"chromium": "Debian's chromium"}, "the HTML pages in a browser were")]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        # --no-sandbox: chromium's own sandbox refuses to run as root, as tests here do.
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


def offline(
    browser: Browser,
    path: Path,
    requests: list[str],
    fragment: str = "",
    errors: list[str] | None = None,
    *,
    width: int = 1100,
    scheme: Literal["light", "dark"] = "light",
) -> Page:
    """A page showing the file at ``path``, with every other request refused and recorded
    (and, given ``errors``, every script error and console error recorded there), in a
    window ``width`` pixels wide, the browser set to the light or dark ``scheme``."""
    page = browser.new_page(viewport={"width": width, "height": 700}, color_scheme=scheme)
    if errors is not None:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "console",
            lambda message: errors.append(message.text) if message.type == "error" else None,
        )
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


SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
FALLBACK = " (the arena's move: this seat has faulted)"


def card_text(card: str) -> str:
    """How the viewer shows a card: ``"TD"`` is ``10♦``."""
    return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]


def held(card: str) -> tuple[int, int]:
    """Where a card sits in a hand as the viewer shows it: by suit, the colours alternating
    (spades, hearts, clubs, diamonds), then by rank, high first."""
    return "SHCD".index(card[1]), "AKQJT98765432".index(card[0])


def counted(n: int, noun: str) -> str:
    """``1 trick``, ``2 tricks``: the viewer's counts."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


def expected_tables(records: list[JSON]) -> list[JSON]:
    """What the table shows after each line the viewer shows (all but the moves, except a
    declaration's pass, which no event follows), from the first deal on: what came before
    it is told in the first deal's caption.

    Worked out here from the replay, independently of the viewer's script:
    hands (each sorted by suit, then rank), trick, statuses, tricks, trump,
    turn-up, faulted seats, the dealer, the seat leading the trick (the
    first card on the table, or else the next card played in the hand), the
    hand's tricks already off the table, the placements, and how the caption
    starts and ends. It checks the replay as it goes too: a played card was
    in its hand, the tricks counted match each hand_end.
    """
    names = {player["seat"]: str(player["name"]) for player in records[0]["players"]}
    seats = range(len(names))
    hands: list[list[str]] = [[] for _ in seats]
    table: JSON = {"statuses": ["active" for _ in seats], "tricks": [0 for _ in seats],
                   "trump": None, "turn_up": None, "dealer": None, "placements": None}  # fmt: skip
    trick: list[list[Any]] = []
    complete = False
    knocked: list[int] = []
    history: list[JSON] = []
    faulted: set[int] = set()
    moves: dict[int, JSON] = {}
    header = records[0]
    tables: list[JSON] = []
    opening: list[str] = []  # the captions before the first deal
    index = 0

    def leader() -> int | None:
        if trick:
            return int(trick[0][0])
        for later in records[index + 1 :]:
            if later["type"] in ("deal", "hand_end", "game_end"):
                return None
            if later.get("event") == "play":
                return int(later["seat"])
        return None

    def shown(caption: str, ends: str = "", has: str = "") -> None:
        if table["dealer"] is None and table["placements"] is None:  # no deal yet
            opening.append(caption)
            return
        tables.append({**copy.deepcopy(table), "hands": [list(hand) for hand in hands],
                       "trick": [card for _, card in trick], "faulted": set(faulted),
                       "leader": leader(), "history": copy.deepcopy(history),
                       "caption": caption, "ends": ends, "has": has})  # fmt: skip

    def off_table() -> None:
        nonlocal trick, complete, knocked
        if complete:
            history.append({"cards": trick, "winner": table["winner"], "knocked": knocked})
        trick, complete, knocked = [], False, []

    for index, record in enumerate(records):
        if index == 0:
            continue
        kind, event = record["type"], record.get("event")
        seat: Any = record.get("seat")  # an int on the lines that name a seat
        if kind == "move":
            if record.get("fallback"):
                faulted.add(seat)
            if record["action"] in ("rainbow", "no_picture") and record["move"] == "pass":
                ends = FALLBACK if record.get("fallback") else f" in {record['ms']} ms"
                shown(f"{names[seat]} does not declare ", ends)  # no event follows a pass
            else:
                moves[seat] = record
            continue
        ends = ""
        if kind == "deal":
            first = not tables
            hands = [sorted(hand, key=held) for hand in record["hands"]]
            table.update(statuses=list(record["statuses"]), tricks=[0 for _ in seats],
                         trump=None, turn_up=record["turn_up"],
                         dealer=record["dealer"])  # fmt: skip
            trick, complete, knocked, history, moves = [], False, [], [], {}
            dealer = names[record["dealer"]]
            said = f"Hand {record['hand']}: {dealer} deals {counted(record['hand_size'], 'card')}"
            if first:  # the game and its cut for the dealer come first in the caption
                before = ". ".join([f"Game {header['game']}, seed {header['seed']}", *opening])
                shown(before, has=f". {said} each")
            else:
                shown(f"{said} each")
            continue
        if kind == "event":
            move = moves.pop(seat, None)
            if move is not None:
                ends = FALLBACK if move.get("fallback") else f" in {move['ms']} ms"
            if event in ("play", "knock") and complete:  # the next trick begins
                off_table()
            if event == "play":
                assert record["card"] in hands[seat], "the replay plays a card its seat holds"
                hands[seat].remove(record["card"])
                trick.append([seat, record["card"]])
                shown(f"{names[seat]} plays {card_text(record['card'])}", ends)
            elif event == "trick":
                table["tricks"][record["winner"]] += 1
                trick, complete = [list(pair) for pair in record["cards"]], True
                table["winner"] = record["winner"]
                shown(f"{names[record['winner']]} wins the trick")
            elif event == "trump":
                table["trump"] = record["suit"]
                who = "Trumps" if seat is None else f"{names[seat]} names trumps"
                shown(f"{who}: {SUITS[record['suit']]}", ends)
            elif event == "knock":
                knocked.append(seat)
                shown(f"{names[seat]} knocks", ends)
            elif event == "declare":
                shown(f"{names[seat]} declares ", ends)
            else:
                assert event == "cut", record
                shown(f"Cut for {record['purpose']}: ")
        elif kind == "hand_end":
            assert table["tricks"] == record["tricks"], "the tricks counted match the replay's"
            table["statuses"] = list(record["statuses"])
            off_table()
            took = [
                f"{names[s]} {counted(n, 'trick')}" for s, n in enumerate(record["tricks"]) if n
            ]
            shown(f"Hand {record['hand']} over: {', '.join(took) or 'no trick taken'}")
            tables[-1]["ends"] = tables[-1]["caption"]  # the whole caption
        else:
            assert kind == "game_end", record
            off_table()
            table.update(dealer=None, placements=list(record["placements"]))
            faulted |= {int(seat) for seat in record["faults"]}
            kinds = [
                f"{names[int(s)]} faulted ({f['kind']}"
                + (f": {f['detail']})" if f.get("detail") else ")")
                for s, f in record["faults"].items()
            ]  # the detail says why
            shown(
                f"Game over: {names[record['winner']]} wins",
                "; " + ", ".join(kinds) if kinds else "",
            )
    return tables


def ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``: a place as the viewer names it (7 seats at most)."""
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")


#: In the page: the seats marked dealer and leader, the hand's earlier tricks as listed
#: (each seat's card or knock, the seat marked as leading it, the one marked as winning)
#: and the placements listed, as the viewer draws them.
MARKS_JS = """
() => {
  const seats = (selector) => [...document.querySelectorAll(selector)]
    .map((node) => Number(node.closest(".seat").dataset.seat));
  const tricks = document.getElementById("tricks");
  const rows = tricks.hidden ? [] : [...tricks.querySelectorAll("tbody tr")];
  const placements = document.getElementById("placements");
  const of = (row, selector) => [...row.querySelectorAll(selector)]
    .map((cell) => Number(cell.dataset.seat));
  return {
    dealer: seats("#seats .mark.dealer"),
    leader: seats("#seats .mark.leader"),
    history: rows.map((row) => ({
      played: [...row.querySelectorAll("td[data-seat]")]
        .filter((cell) => cell.textContent.trim())
        .map((cell) => [Number(cell.dataset.seat),
          cell.querySelector(".card") ? cell.querySelector(".card").dataset.card : "knock"]),
      led: of(row, "td.led"),
      won: of(row, "td.won"),
    })),
    placements: placements.hidden ? [] : [...placements.querySelectorAll("li")]
      .map((item) => item.textContent),
  };
}
"""


def expected_marks(table: JSON, names: dict[int, str]) -> JSON:
    """What :data:`MARKS_JS` should find when the viewer shows ``table``."""
    places = table["placements"] or []
    return {
        "dealer": [] if table["dealer"] is None else [table["dealer"]],
        "leader": [] if table["leader"] is None else [table["leader"]],
        "history": [
            {
                "played": sorted(
                    [*trick["cards"], *([seat, "knock"] for seat in trick["knocked"])]
                ),
                "led": [trick["cards"][0][0]],
                "won": [trick["winner"]],
            }
            for trick in table["history"]
        ],
        "placements": [
            f"{ordinal(place)} "
            + ", ".join(names[seat] for seat, at in enumerate(places) if at == place)
            for place in sorted(set(places))
        ],
    }


def check_caption(caption: str, table: JSON) -> None:
    assert caption.startswith(table["caption"]), (caption, table["caption"])
    assert caption.endswith(table["ends"]), (caption, table["ends"])
    assert table["has"] in caption, (caption, table["has"])
    if not table["ends"]:
        assert FALLBACK not in caption and not caption.endswith(" ms"), caption


def step_through(page: Page, records: list[JSON], shots: Path | None = None) -> None:
    """Press the right arrow through a whole game, checking the table at every step."""
    tables = expected_tables(records)
    names = {player["seat"]: str(player["name"]) for player in records[0]["players"]}
    for index, table in enumerate(tables):
        step = page.locator("#step").inner_text()
        assert step == f"{index + 1} / {len(tables)}"
        assert shown_seats(page) == table["hands"], f"at step {step}"
        assert shown_trick(page) == table["trick"], f"at step {step}"
        check_caption(page.locator("#caption").inner_text(), table)
        titles = page.locator("#seats .seat .name").all_inner_texts()
        for seat, title in enumerate(titles):
            status, tricks = table["statuses"][seat], table["tricks"][seat]
            said = f"{tricks} trick" + ("" if tricks == 1 else "s")  # "1 trick", "2 tricks"
            assert title.startswith(f"{names[seat]} ({status}, {said}"), title
        marked = page.locator("#seats .seat.faulted").evaluate_all(
            "nodes => nodes.map(n => Number(n.dataset.seat))"
        )
        assert set(marked) == table["faulted"], f"at step {step}"
        trump = page.locator("#trump").inner_text()
        assert trump.startswith(
            f"trumps {SUITS[table['trump']]}" if table["trump"] else "trumps: -"
        )
        if table["turn_up"]:
            assert trump.endswith(f"(turned up: {card_text(table['turn_up'])})"), trump
        assert page.evaluate(MARKS_JS) == expected_marks(table, names), f"at step {step}"
        if shots is not None and index == len(tables) // 2:
            page.screenshot(path=str(shots / "replay-middle.png"), full_page=True)
        page.keyboard.press("ArrowRight")
    end = records[-1]
    assert page.locator("#step").inner_text() == f"{len(tables)} / {len(tables)}", "it stops"
    places = page.locator("#seats .seat .name").all_inner_texts()
    assert [text.rsplit("place ", 1)[1] for text in places] == [str(p) for p in end["placements"]]
    assert page.locator("#placements").is_visible(), "the last frame lists the placements"


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
    caption = page.locator("#caption").inner_text()
    assert caption.startswith(f"Game {records[0]['game']}, seed 11. Cut for dealer: "), caption
    assert "Hand 1: " in caption and "deals 7 cards each" in caption, "it opens on the deal"
    step_through(page, records, shots=tmp_path)
    page.screenshot(path=str(tmp_path / "replay-end.png"), full_page=True)
    page.locator("#prev").click()
    assert page.locator("#caption").inner_text().startswith("Hand ")
    page.keyboard.press("Space")
    assert page.locator("#play").inner_text() == "pause", "space after a click plays"
    page.keyboard.press("Space")
    assert page.locator("#play").inner_text() == "play"
    page.select_option("#jump", "2")
    assert page.locator("#caption").inner_text().startswith("Hand 2: ")
    page.locator("#seats").click()
    page.keyboard.press("Home")
    assert page.locator("#step").inner_text().startswith("1 / ")
    page.keyboard.press("Alt+ArrowRight")
    assert page.locator("#step").inner_text().startswith("1 / "), "Alt+arrow is the browser's"
    assert requests == [], "the page loads nothing"


def faulty(name: str, at: int) -> ScriptedPlayer:
    """A player that answers at random, then with a card no deck has at its request ``at``."""
    rng = random.Random(name)
    asked = 0

    def choose(request: JSON) -> str:
        nonlocal asked
        asked += 1
        legal: list[str] = request["legal"]
        return "ZZ" if asked == at else rng.choice(legal)

    return ScriptedPlayer(name, choose)


VARIANTS = [
    Rules(players=3),
    Rules(players=5, dog_life="expanded"),
    Rules(players=4, rainbow=True, no_picture=True, blind_dog=True, tie_break="random"),
    Rules(players=6, upside_dog=True, trumps_broken=True, sweep_wins=True),
    Rules(players=4, dog_life="none", eliminated_deals=True),
    Rules(players=5, dog_first_hand_only=True, rainbow=True, blind_dog=True),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda rules: f"{rules.players}-seats")
def test_the_viewers_frames_follow_every_card(
    browser: Browser, rules: Rules, tmp_path: Path
) -> None:
    games = []
    for seed in range(1, 13):
        seats: list[ScriptedPlayer] = [RandomPlayer(f"p{n}") for n in range(rules.players - 1)]
        seats.insert(
            seed % rules.players, faulty("f", seed // 3 + 1) if seed % 3 == 0 else RandomPlayer("r")
        )
        games.append(play_game(seats, rules, seed=seed, game_id=f"g{seed}").replay)
    assert sum(1 for records in games if records[-1]["faults"]) == 4, "a third of the games"
    if rules.players == 3:  # a dog due to lead knocks: the last trick leaves the table
        dog = [RandomPlayer(f"p{n}") for n in range(3)]
        games.append(play_game(dog, rules, seed=194, game_id="k194").replay)
        lines = [line for line in games[-1] if line["type"] != "move"]
        assert any(
            (a.get("event"), b.get("event")) == ("trick", "knock")
            for a, b in itertools.pairwise(lines)
        )
    page_file = tmp_path / "viewer.html"
    page_file.write_text(viewer_page(games[0]))
    page = offline(browser, page_file, [])
    passed = 0
    for records in games:
        shown = page.evaluate("records => ArenaViewer.framesOf(records)", records)
        tables = expected_tables(records)
        assert len(shown) == len(tables), "a frame for each line but the moves (and passes)"
        for frame, table in zip(shown, tables, strict=True):
            check_caption(frame["caption"], table)
            assert [seat["cards"] for seat in frame["seats"]] == table["hands"], frame["caption"]
            assert [card for _, card in frame["trick"]] == table["trick"], frame["caption"]
            assert [seat["status"] for seat in frame["seats"]] == table["statuses"]
            assert [seat["tricks"] for seat in frame["seats"]] == table["tricks"]
            assert (frame["trump"], frame["turn_up"]) == (table["trump"], table["turn_up"])
            assert (frame["dealer"], frame["leader"]) == (table["dealer"], table["leader"])
            assert frame["history"] == table["history"], frame["caption"]
            assert frame["placements"] == table["placements"], frame["caption"]
            faulted = {index for index, seat in enumerate(frame["seats"]) if seat["faulted"]}
            assert faulted == table["faulted"], frame["caption"]
        assert shown[-1]["placements"] == records[-1]["placements"]
        passes = [i for i, r in enumerate(records) if r.get("action") == "rainbow"
                  and r.get("move") == "pass"]  # fmt: skip
        if passes:  # what a bot thought as it passed shows on the pass's own frame
            passed += 1
            thought = [dict(r) for r in records]
            thought[passes[0]].update(info={"why": "weak"}, log=["no rainbow"])
            frames = page.evaluate("records => ArenaViewer.framesOf(records)", thought)
            name = {p["seat"]: p["name"] for p in records[0]["players"]}[records[passes[0]]["seat"]]
            assert [f["thought"] for f in frames if f["thought"]] == [
                {"who": name, "info": {"why": "weak"}, "log": ["no rainbow"]}
            ]
    assert passed or not rules.rainbow, "passes on a rainbow were shown"
    reordered = [{**games[0][0], "players": games[0][0]["players"][::-1]}, *games[0][1:]]
    names = page.evaluate(
        "records => ArenaViewer.framesOf(records)[0].seats.map(s => s.name)", reordered
    )
    assert names == [player["name"] for player in games[0][0]["players"]], "seats by seat number"
    no_size = [
        {key: value for key, value in line.items() if key != "hand_size"} for line in games[0]
    ]
    frames = page.evaluate("records => ArenaViewer.framesOf(records)", no_size)
    first_deal = next(line for line in games[0] if line["type"] == "deal")
    size = counted(first_deal["hand_size"], "card")
    assert any(f"deals {size} each" in frame["caption"] for frame in frames)


def test_the_viewer_opens_on_the_deal_and_keeps_the_hands_tricks_in_view(
    browser: Browser, tmp_path: Path
) -> None:
    """It opens on the first deal, every hand shown and sorted by suit, the dealer and the
    leader marked; in a hand, the tricks already played stay listed (who played what, who
    led, who won); it ends on the placements, a shared place named once."""
    seats = [RandomPlayer(f"p{n}") for n in range(4)]
    records = play_game(seats, Rules(players=4), seed=4, game_id="g4").replay
    deal = next(record for record in records if record["type"] == "deal")
    plays = [record for record in records if record.get("event") == "play"]
    tricks = [record for record in records if record.get("event") == "trick"]
    assert tricks[0]["winner"] != tricks[1]["winner"] and sorted(records[-1]["placements"]) == [
        1, 2, 2, 4
    ], "two winners of one trick each, and a shared place"  # fmt: skip
    page_file = tmp_path / "game.html"
    page_file.write_text(viewer_page(records))
    errors: list[str] = []
    page = offline(browser, page_file, [], errors=errors)
    opened(page)
    hands = shown_seats(page)
    assert [sorted(hand) for hand in hands] == [sorted(hand) for hand in deal["hands"]]
    assert [len(hand) for hand in hands] == [7, 7, 7, 7], "every hand, whole, at once"
    for hand in hands:
        suits = [card[1] for card in hand]
        assert suits == sorted(suits, key="SHCD".index), f"{hand}: by suit"
        assert hand == sorted(hand, key=held), f"{hand}: then by rank, high first"
    marks = page.evaluate(MARKS_JS)
    assert (marks["dealer"], marks["leader"]) == ([deal["dealer"]], [plays[0]["seat"]])
    assert page.locator("#tricks").is_hidden(), "no trick played yet"
    for _ in range(40):  # on to the first card of the hand's third trick
        page.keyboard.press("ArrowRight")
        if page.locator("#tricks tbody tr").count() == 2:
            break
    assert shown_trick(page) == [plays[8]["card"]], "the third trick's first card"
    marks = page.evaluate(MARKS_JS)
    assert marks["leader"] == [plays[8]["seat"]], "who leads the trick on the table"
    assert marks["history"] == [
        {"played": sorted(trick["cards"]), "led": [trick["cards"][0][0]],
         "won": [trick["winner"]]}
        for trick in tricks[:2]
    ]  # fmt: skip
    assert page.locator("#tricks .label").inner_text().startswith("Tricks played in hand 1")
    names = page.locator("#seats .seat .name").all_inner_texts()
    for trick in tricks[:2]:  # one trick each: "1 trick"
        assert names[trick["winner"]] == f"p{trick['winner']} (active, 1 trick)"
    page.keyboard.press("End")
    assert page.locator("#trick").is_hidden(), "the game is over: no trick on the table"
    assert page.evaluate(MARKS_JS)["placements"] == [
        f"{ordinal(place)} " + ", ".join(f"p{seat}" for seat, at in
                                         enumerate(records[-1]["placements"]) if at == place)
        for place in (1, 2, 4)
    ]  # fmt: skip
    assert errors == []


def test_the_rating_chart_shows_how_sure_each_rating_is(browser: Browser, tmp_path: Path) -> None:
    """Each bot's mu over the games with its band of mu +/- 3 sigma, and at the right its
    rating now as a bar: on screen, each bar spans the leaderboard's mu +/- 3 sigma. Four
    bots' bands all show; of a dozen, only the band of the bot pointed at."""
    bots = [arg for name in ("a", "b", "c", "d") for arg in ("--bot", f"{name}={C_BOT}")]
    club = tmp_path / "club"
    code, output = run_cli("tournament", *bots, "--players", "3", "--deals", "2", "--seed", "5",
                           "--out", str(club), "--quiet")  # fmt: skip
    assert code == 0, output
    assert run_cli("report", str(club))[0] == 0
    store = open_existing(club)
    try:
        rows = store.standings()
    finally:
        store.close()
    errors: list[str] = []
    page = offline(browser, club / "report.html", [], errors=errors)
    # Value -> pixels, read from the axis as a reader would: two labelled grid lines.
    ticks = page.evaluate(
        """() => [...document.querySelectorAll("svg.history text.tick[text-anchor=end]")]
        .map((label) => [Number(label.textContent), label.previousElementSibling
          .getBoundingClientRect().top])"""
    )
    (v0, y0), (v1, y1) = ticks[0], ticks[-1]

    def y(value: float) -> float:
        return float(y0 + (value - v0) * (y1 - y0) / (v1 - v0))

    legend = page.locator("ul.legend li").all_inner_texts()
    assert legend == [row["bot"] for row in rows], "the legend in rank order"
    for row in rows:
        bar = page.locator(f'g.now[data-bot="{row["bot"]}"] line.range').bounding_box()
        assert bar is not None
        high, low = row["mu"] + 3 * row["sigma"], row["mu"] - 3 * row["sigma"]
        # The round line cap adds half the stroke (1.5 px) at each end.
        assert bar["y"] + 1.5 == pytest.approx(y(high), abs=0.6), row
        assert bar["y"] + bar["height"] - 1.5 == pytest.approx(y(low), abs=0.6), row
        band = page.locator(f'polygon.band[data-bot="{row["bot"]}"]')
        assert float(band.evaluate("(b) => getComputedStyle(b).fillOpacity")) > 0.05
    page.locator('ul.legend li[data-bot="b"]').hover()
    assert page.locator('polygon.band[data-bot="b"]').get_attribute("class") == "band on"
    assert page.locator("p.chart-hover").inner_text().startswith("b: mu ")

    many = {f"bot{i:02d}": [(1, 25.0, 8.0), (30, 18.0 + i, 1.0 + i / 10)] for i in range(12)}
    dozen = tmp_path / "dozen.html"
    dozen.write_text(page_html("A dozen", rating_chart(many)))
    page = offline(browser, dozen, [], errors=errors)

    def shown() -> list[str]:
        return [
            str(band.get_attribute("data-bot"))
            for band in page.locator("polygon.band").all()
            if float(band.evaluate("(b) => getComputedStyle(b).fillOpacity")) > 0.05
        ]

    assert shown() == [], "a dozen bands at rest would read as one grey"
    page.locator('g.now[data-bot="bot07"]').hover()
    assert shown() == ["bot07"], "pointing at a bar shows its band"
    page.locator('ul.legend li[data-bot="bot03"]').hover()
    assert shown() == ["bot03"], "and pointing at a name"
    assert errors == []


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
        "Leaderboard", "Ratings over the games", "Who places above whom", "Faults",
        "Sandbox layers", "Games",
    ]  # fmt: skip
    for bot in ("a", "b", "c", "illegal"):
        box = page.locator(f'polyline.line[data-bot="{bot}"]').bounding_box()
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
    step_through(page, read_replay(club / watched["replay"]))  # opening gave the viewer the keys
    caption = page.locator("#caption").inner_text()
    assert "illegal faulted (illegal: " in caption, caption
    faulted = page.locator("#seats .seat.faulted .name").all_inner_texts()
    assert len(faulted) == 1 and faulted[0].startswith("illegal (")
    page.screenshot(path=str(tmp_path / "report-replay.png"), full_page=False)
    page.keyboard.press("Home")
    assert page.locator("#step").inner_text().startswith("1 / ")
    assert page.evaluate("window.scrollY") > 1000, "Home went to the first step, not the top"
    page.keyboard.press("Space")
    assert page.locator("#play").inner_text() == "pause"
    page.keyboard.press("Space")
    assert page.locator("#play").inner_text() == "play"
    page.locator("#game-filter").focus()
    page.keyboard.press("ArrowRight")
    assert page.locator("#step").inner_text().startswith("1 / "), "the text box keeps its keys"
    page.go_back()
    assert page.locator("#viewer").is_hidden(), "Back to no game closes the viewer"
    assert page.locator("#viewer-title").inner_text() == ""
    page.go_forward()
    opened(page)
    assert page.locator("#viewer-title").inner_text() == f"Game {watched['id']}"
    for wrong in ("nope", "%E0%A4%A", "constructor"):
        page.evaluate("hash => { window.location.hash = hash; }", f"#game={wrong}")
        page.wait_for_function("document.getElementById('step').textContent === ''")
        caption = page.locator("#caption").inner_text()
        assert caption.startswith("This tournament has no finished game "), caption
        assert ("the address is not valid: URI malformed" in caption) == ("%" in wrong), caption
    page.fill("#game-filter", "")
    page.locator("#game-next").click()
    page.check("#game-faults")
    assert page.locator("#game-page").inner_text() == "page 1 of 1", "a new filter: page 1"

    other = games[7]
    linked = offline(browser, report, requests, fragment=f"#game={other['id']}")
    opened(linked)
    header = read_replay(club / other["replay"])[0]
    caption = linked.locator("#caption").inner_text()
    assert caption.startswith(f"Game {other['id']}, seed {header['seed']}. "), caption
    assert requests == [], "the page loads nothing"

    code, output = run_cli("report", str(club), "-o", str(report), "--max-replays", "1")
    assert code == 0, output
    capped = offline(browser, report, requests, fragment=f"#game={games[0]['id']}")
    capped.wait_for_function("document.getElementById('caption').textContent !== ''")
    assert "is not in this page" in capped.locator("#caption").inner_text()
    assert requests == [], "the page loads nothing"


def test_a_first_fault_in_the_report_opens_its_game(browser: Browser, tmp_path: Path) -> None:
    """Each of a bot's first faults links to its game: a click opens it in the viewer (a
    second click, after stepping on, shows it from its start again); a game whose replay
    the page does not carry names the command that shows it instead."""
    illegal = f"illegal=python3 {ROOT / 'tests/bots/misbehave.py'} illegal first-faults"
    bots = [arg for bot in (f"a={C_BOT}", f"b={C_BOT}", illegal) for arg in ("--bot", bot)]
    club = tmp_path / "club"
    code, output = run_cli("tournament", *bots, "--players", "2", "--deals", "2", "--seed", "8",
                           "--out", str(club), "--quiet", "--no-sandbox")  # fmt: skip
    assert code == 0, output
    code, output = run_cli("leaderboard", str(club), "--format", "json")
    details = {row["bot"]: row["fault_details"] for row in json.loads(output)}["illegal"]
    assert len(details) == 3 and {fault["kind"] for fault in details} == {"illegal"}
    report = tmp_path / "report.html"
    assert run_cli("report", str(club), "-o", str(report))[0] == 0
    requests: list[str] = []
    errors: list[str] = []
    page = offline(browser, report, requests, errors=errors)
    links = page.locator("table.faults td.details a")
    assert links.all_inner_texts() == [fault["game"] for fault in details]
    watched = details[1]["game"]  # not the first: the link opens its own game
    links.nth(1).click()
    opened(page)
    assert page.locator("#viewer-title").inner_text() == f"Game {watched}"
    assert page.evaluate("window.location.hash") == f"#game={watched}"
    seed = read_replay(club / "replays" / f"{watched}.jsonl")[0]["seed"]
    assert page.locator("#caption").inner_text().startswith(f"Game {watched}, seed {seed}")
    page.keyboard.press("End")
    caption = page.locator("#caption").inner_text()
    assert "illegal faulted (illegal: " in caption, caption
    links.nth(1).click()  # the open game's link: the game again, from its start
    opened(page)
    assert page.locator("#caption").inner_text().startswith(f"Game {watched}, seed {seed}")
    assert errors == [] and requests == [], "the page loads nothing"

    assert run_cli("report", str(club), "-o", str(report), "--max-replays", "1")[0] == 0
    capped = offline(browser, report, requests, errors=errors)
    cell = capped.locator("table.faults td.details")
    assert cell.locator("a").all_inner_texts() == [details[0]["game"]], "the first goes in first"
    for fault in details[1:]:
        command = f"arena replay {club} --game {fault['game']} --html"
        assert command in cell.locator("code").all_inner_texts()
    cell.locator("a").click()
    opened(capped)
    assert capped.locator("#viewer-title").inner_text() == f"Game {details[0]['game']}"
    assert errors == [] and requests == [], "the page loads nothing"


def renamed(folder: Path, old: str, new: str) -> None:
    """Rename a bot everywhere in a results folder: every text column, every replay."""
    with sqlite3.connect(folder / "results.sqlite") as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:
            for column in db.execute(f"PRAGMA table_info({table})").fetchall():
                if column[2].upper() == "TEXT":
                    db.execute(
                        f"UPDATE {table} SET {column[1]} = replace({column[1]}, ?, ?)", (old, new)
                    )
    for replay in (folder / "replays").glob("*.jsonl"):
        replay.write_text(replay.read_text().replace(f'"{old}', f'"{new}'))


def test_a_bot_name_cannot_break_the_report(browser: Browser, tmp_path: Path) -> None:
    hostile = tmp_path / "<!--<script>"
    hostile.mkdir()
    (hostile / "bot.toml").write_text(f'run = "{C_BOT}"')
    bots = [arg for name in ("a", "b") for arg in ("--bot", f"{name}={C_BOT}")]
    club = tmp_path / "club"
    code, output = run_cli("tournament", *bots, "--bot", str(hostile), "--players", "3",
                           "--deals", "1", "--out", str(club), "--quiet")  # fmt: skip
    assert code == 0, output
    assert "script- " in run_cli("leaderboard", str(club))[1], "the folder's name, fitted"
    # Names now fit a rule without HTML in it; a folder written before the rule, or
    # edited by hand, may still hold one, so the report must escape it.
    renamed(club, "script-", "<!--<script>")
    code, output = run_cli("report", str(club))
    assert code == 0, output
    requests: list[str] = []
    page = offline(browser, club / "report.html", requests)
    assert page.locator("#game-count").inner_text() == "3 of 3 games"
    assert "<!--<script>" in page.locator("#game-rows").inner_text()
    page.locator("#game-rows button.open").first.click()
    opened(page)
    names = page.locator("#seats .seat .name").all_inner_texts()
    assert any(name.startswith("<!--<script> (") for name in names), names
    scripts = page.evaluate("document.scripts.length")
    assert scripts == 5, "the list, replays, the viewer's, the list's and the chart's scripts"
    cut, empty, headless = sorted((club / "replays").glob("*.jsonl"))
    cut.write_text('{"type": "game", "players": [\n')
    empty.write_text("\n")
    headless.write_text('{"type": "deal", "hand": 1}\n')
    code, output = run_cli("report", str(club))
    assert code == 0, output
    assert output.startswith("Notice: 3 of the 3 replays could not be read"), output
    why = {
        cut: "line 1 is not JSON",
        empty: "empty",
        headless: "its first line is not a game header",
    }
    for replay, problem in why.items():
        errors: list[str] = []
        fragment = f"#game={replay.stem}"
        broken = offline(browser, club / "report.html", requests, fragment, errors)
        broken.wait_for_function("document.getElementById('caption').textContent !== ''")
        assert broken.locator("#caption").inner_text() == (
            f"The replay of game {replay.stem} cannot be shown: its file in the results folder "
            f"could not be read ({problem})."
        )
        button = broken.locator(f'#game-rows button[data-game="{replay.stem}"]')
        assert button.get_attribute("title") == f"its replay file could not be read ({problem})"
        assert button.get_attribute("class") == "open absent"
        assert errors == [], "no script error on the way"
        broken.close()
    assert requests == []


def test_a_match_report_opens_news_and_bases_game_side_by_side(
    browser: Browser, tmp_path: Path
) -> None:
    folder = tmp_path / "m"
    code, output = run_cli(
        "match", f"n={C_BOT}", f"b={C_BOT}", "--field", C_BOT, "--players", "3", "--deals", "2",
        "--max-games", "48", "--seed", "4", "--out", str(folder), "--quiet",
    )  # fmt: skip
    assert code == 0, output
    report = tmp_path / "report.html"
    code, output = run_cli("report", str(folder), "-o", str(report))
    assert code == 0, output
    requests: list[str] = []
    errors: list[str] = []
    page = offline(browser, report, requests, errors=errors)
    assert page.locator("h2:visible").all_inner_texts() == [
        "Result", "LLR over the games", "Deal sets, best and worst", "Games",
    ]  # fmt: skip
    assert "Result: " in page.locator("pre").inner_text()
    chart = page.locator('svg[aria-label="LLR over the games"]')
    assert chart.locator("polyline.line").count() == 3, "the LLR and its two bounds"
    units = [float(text) for text in page.locator("table.units td:nth-child(3)").all_inner_texts()]
    assert len(units) == 8 and units[:4] == sorted(units[:4], reverse=True), "best first"
    assert units[4:] == sorted(units[4:]), "then worst first"
    first = page.locator("table.units button").first
    sent = first.inner_text()
    first.click()
    pair = page.locator("#pair")
    pair.locator(".seat").first.wait_for()
    assert pair.locator("h3").all_inner_texts() == [f"{sent}~new", f"{sent}~base"]
    captions = pair.locator('[data-id="caption"]').all_inner_texts()
    assert len(captions) == 2 and all(f"Game {sent}" in caption for caption in captions)
    names = [
        box.locator(".seat .name").all_inner_texts() for box in pair.locator(".pair > div").all()
    ]
    news, bases = ([name.split(" (")[0] for name in side] for side in names)
    assert [name.replace("n", "b", 1) if name == "n" else name for name in news] == bases
    pair.screenshot(path=str(tmp_path / "pair.png"))
    assert requests == [] and errors == []


CARD = re.compile(r'"([2-9TJQKA][SHDC])"')


def allowed_cards(records: list[JSON], seat: int, view: JSON) -> set[str]:
    """Every card ``seat`` may have seen when its page showed ``view``.

    Its own cards as dealt (not a blind dog's), turned-up and face-up dog
    cards, cuts and declarations, every card of the hands before, and of the
    hand ``view`` shows only the tricks completed in it and the cards on the
    table: what the game had made public by then, no more.
    """
    hand = view.get("hand", 0)
    done = sum(view.get("tricks") or [])
    on_table = len([turn for turn in view.get("trick", []) if turn[1] != "knock"])
    seen: set[str] = set()
    dealt = tricks = plays = 0
    for record in records:
        if record["type"] == "deal":
            dealt = record["hand"]
            if dealt > hand:
                break
            tricks = plays = 0
            if seat not in record.get("blind", []):
                seen |= set(record["hands"][seat])
            seen |= set(record.get("dog_cards", {}).values())
            seen |= {record["turn_up"]} if record["turn_up"] else set()
        elif record["type"] == "event":
            event = record["event"]
            if dealt < hand or event not in ("play", "trick"):
                seen |= set(CARD.findall(json.dumps(record)))
            elif event == "trick":
                tricks, plays = tricks + 1, 0
            elif tricks < done or (tricks == done and plays < on_table):
                seen.add(record["card"])
                plays += 1
    return seen


#: Six people and a bot: more pages than a browser opens connections to one host and port.
PEOPLE = ("ann", "bob", "cy", "di", "ed", "flo")


def test_people_play_a_whole_game_in_their_browsers(browser: Browser, tmp_path: Path) -> None:
    """Six people and a bot, a page each in one browser, every move a click; no page is ever
    sent a card its seat could not see yet."""
    replay = tmp_path / "game.jsonl"
    command = [
        sys.executable, "-m", "arena", "play", *(f"human:{name}" for name in PEOPLE), C_BOT,
        "--web", "--no-open", "--seed", "21", "--replay", str(replay),
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    assert process.stdout is not None
    urls: dict[str, str] = {}
    while len(urls) < len(PEOPLE):
        line = process.stdout.readline()
        name, _, url = line.strip().partition(": ")
        if url.startswith("http://127.0.0.1:"):
            urls[name] = url
    states: dict[str, list[JSON]] = {name: [] for name in PEOPLE}
    pages: dict[str, Page] = {}
    errors: list[str] = []
    try:
        for name, url in urls.items():
            page = browser.new_page(viewport={"width": 1100, "height": 800})
            page.on("pageerror", lambda error: errors.append(str(error)))

            def keep(response: Any, name: str = name) -> None:
                if "/state" in response.url:
                    states[name].append(response.json())

            page.on("response", keep)
            page.goto(url)
            pages[name] = page
        clicks = 0
        waits: list[float] = []  # seconds from each click to the answer to its move's POST
        while not all(page.evaluate("document.body.dataset.finished") for page in pages.values()):
            for page in pages.values():
                if page.evaluate("document.body.dataset.turn") != "yes":
                    continue
                asked = page.evaluate("document.body.dataset.ask")
                legal = page.query_selector_all("#hand button.legal")
                buttons = page.query_selector_all("#actions button")
                clicked = time.monotonic()
                with page.expect_response(lambda response: response.request.method == "POST"):
                    (legal or buttons)[0].click()
                waits.append(time.monotonic() - clicked)
                clicks += 1
                page.wait_for_function(f"document.body.dataset.ask !== '{asked}'", timeout=10_000)
            assert clicks < 400
            time.sleep(0.05)
        assert process.wait(timeout=30) == 0
        pages["ann"].screenshot(path=str(tmp_path / "ann-end.png"), full_page=True)
        viewer_shown = pages["ann"].evaluate("!document.getElementById('viewer').hidden")
        result_text = pages["bob"].inner_text("#result")
    finally:
        for page in pages.values():
            page.close()
        if process.poll() is None:
            process.kill()
    assert errors == []
    assert viewer_shown and result_text.startswith("Game over. ")
    records = [json.loads(line) for line in replay.read_text().splitlines()]
    assert records[-1]["type"] == "game_end" and records[-1]["faults"] == {}
    people = [r for r in records if r["type"] == "move" and r["seat"] < len(PEOPLE)]
    assert len(people) == clicks
    # A click queued behind another page's poll waits for it to end, up to POLL_S (15 s).
    # Timed from the click to its POST's answer: the move's own time in the replay also
    # holds this loop's turns at the other five pages, seconds on a loaded machine.
    slowest = max(waits)
    assert slowest < POLL_S / 2, f"a click waited {slowest:.1f} s for its answer: a connection?"
    for seat, name in enumerate(PEOPLE):
        during = [state for state in states[name] if not state["finished"]]
        assert during and all("replay" not in state for state in during)
        for state in during:
            allowed = allowed_cards(records, seat, state["view"])
            hidden = set(CARD.findall(json.dumps(state))) - allowed
            assert not hidden, f"{name}'s page was sent cards it could not see yet: {hidden}"
        assert any(state["finished"] and state["replay"] for state in states[name])


def test_the_viewer_shows_what_a_bot_thought_and_wrote_under_its_move(
    browser: Browser, tmp_path: Path
) -> None:
    thinking = f"thinking={sys.executable} {ROOT / 'tests/bots/thinking.py'} stderr"
    replay = tmp_path / "game.jsonl"
    code, output = run_cli(
        "play", thinking, f"c={C_BOT}", "--seed", "4", "--replay", str(replay), "--quiet"
    )
    assert code == 0, output
    page_file = tmp_path / "game.html"
    assert run_cli("replay", str(replay), "--html", str(page_file))[0] == 0
    requests: list[str] = []
    errors: list[str] = []
    page = offline(browser, page_file, requests, errors=errors)
    opened(page)
    seen = []
    for _ in range(40):
        page.keyboard.press("ArrowRight")
        caption = page.locator("#caption").inner_text()
        if caption.startswith("thinking plays") and page.locator("#thought").is_visible():
            seen.append(page.locator("#thought").inner_text())
        elif caption.startswith("c plays"):
            assert page.locator("#thought").is_hidden(), "the C bot sent nothing"
    page.screenshot(path=str(tmp_path / "thought.png"), full_page=True)
    assert errors == [] and requests == []
    assert any("thinking was thinking:" in text and "n: 6" in text for text in seen), seen
    assert any("request 2: thinking about [" in text for text in seen)
    # The line holding </script><b>2</b> is text on the page, not markup.
    assert any("</script><b>2</b>" in text for text in seen)
    assert page.locator("#thought b").count() == 0


#: In the page: every problem of layout and legibility found, as sentences (see the test).
LEGIBILITY_JS = """
() => {
  const problems = [];
  const rgba = (text) => {
    const parts = text.match(/[\\d.]+/g).map(Number);
    return { r: parts[0], g: parts[1], b: parts[2], a: parts.length > 3 ? parts[3] : 1 };
  };
  const over = (top, under) => ({
    r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a), a: 1,
  });
  const luminance = ({ r, g, b }) => {
    const [R, G, B] = [r, g, b].map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * R + 0.7152 * G + 0.0722 * B;
  };
  const background = (element) => {
    const layers = [];
    let opacity = 1;
    for (let node = element; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      opacity *= Number(style.opacity);
      const colour = rgba(style.backgroundColor);
      if (colour.a > 0) layers.push(colour);
      if (colour.a >= 1) break;
    }
    let base = rgba(getComputedStyle(document.documentElement).backgroundColor);
    if (base.a < 1) base = over(base, matchMedia("(prefers-color-scheme: dark)").matches
      ? { r: 18, g: 18, b: 18, a: 1 } : { r: 255, g: 255, b: 255, a: 1 });
    for (const layer of layers.reverse()) base = over(layer, base);
    return { colour: base, opacity };
  };
  const visible = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== "hidden";
  };
  for (const element of document.querySelectorAll("body *")) {
    if (["SCRIPT", "STYLE", "TITLE"].includes(element.tagName) || !visible(element)) continue;
    if (element.closest(":disabled")) continue; // WCAG exempts controls that are off
    const own = [...element.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const style = getComputedStyle(element);
    const svg = element instanceof SVGElement;
    let fg = rgba(svg ? style.fill : style.color);
    const { colour, opacity } = background(element);
    fg = over({ ...fg, a: fg.a * opacity }, colour);
    const [light, dark] = [luminance(fg), luminance(colour)].sort((x, y) => y - x);
    const ratio = (light + 0.05) / (dark + 0.05);
    if (ratio < 4.5) {
      problems.push(`contrast ${ratio.toFixed(2)} of ${element.tagName}.${element.className
        .baseVal ?? element.className} "${element.textContent.trim().slice(0, 30)}"`);
    }
  }
  const page = document.documentElement;
  if (page.scrollWidth > innerWidth + 1) {
    problems.push(`the page is ${page.scrollWidth} px wide in a ${innerWidth} px window`);
  }
  const textBox = (cell) => {
    const node = [...cell.childNodes].find((n) => n.nodeType === 3 && n.textContent.trim());
    if (!node) return null;
    const range = document.createRange();
    range.selectNodeContents(node);
    return range.getBoundingClientRect();
  };
  for (const table of document.querySelectorAll("table")) {
    const heads = table.tHead ? [...table.tHead.rows].at(-1).cells : [];
    const row = table.tBodies[0] && table.tBodies[0].rows[0];
    if (!row || !visible(table)) continue;
    [...heads].forEach((head, index) => {
      const cell = row.cells[index];
      const [a, b] = [textBox(head), cell && textBox(cell)];
      if (!a || !b) return;
      const align = getComputedStyle(cell).textAlign;
      const gap = align === "right" || align === "end" ? Math.abs(a.right - b.right)
        : align === "center" ? Math.abs((a.left + a.right) / 2 - (b.left + b.right) / 2)
        : Math.abs(a.left - b.left);
      if (gap > 2) {
        problems.push(`heading "${head.textContent.trim().slice(0, 20)}" of table.` +
          `${table.className} is ${gap.toFixed(1)} px off its column`);
      }
    });
  }
  for (const group of ["svg.scale text", "svg.history text.tick"]) {
    for (const svg of document.querySelectorAll(group.split(" ")[0])) {
      const boxes = [...svg.querySelectorAll(group.split(" ").slice(1).join(" "))]
        .map((label) => label.getBoundingClientRect());
      if (boxes.length < 3) problems.push(`${group}: ${boxes.length} tick labels`);
      boxes.forEach((one, i) => boxes.slice(i + 1).forEach((two) => {
        const apart = one.right <= two.left || two.right <= one.left ||
          one.bottom <= two.top || two.bottom <= one.top;
        if (!apart) problems.push(`${group}: tick labels overlap`);
      }));
    }
  }
  return problems;
}
"""


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_report_reads_well_wide_and_narrow_light_and_dark(
    browser: Browser, tmp_path: Path, width: int, scheme: Literal["light", "dark"]
) -> None:
    """Rating bars on a labelled scale, a chart with labelled axes and a legend that names
    each line on hover, headings over their columns, cards drawn as cards, every text at a
    contrast of 4.5:1 or more, and nothing wider than a 390 px phone."""
    folder = tmp_path / "t"
    illegal = f"x={sys.executable} {ROOT / 'tests/bots/misbehave.py'} illegal legibility"
    bots = [arg for bot in (f"a={C_BOT}", f"b={C_BOT}", illegal) for arg in ("--bot", bot)]
    code, output = run_cli("tournament", *bots, "--players", "2", "--deals", "3", "--seed", "4",
                           "--out", str(folder), "--quiet", "--no-sandbox")  # fmt: skip
    assert code == 0, output
    assert run_cli("report", str(folder))[0] == 0
    requests: list[str] = []
    errors: list[str] = []
    page = offline(browser, folder / "report.html", requests, errors=errors, width=width,
                   scheme=scheme)  # fmt: skip
    page.wait_for_selector("#game-rows tr")
    assert page.locator("table.faults").count() == 1, "a bot faulted: the faults table shows"
    problems = page.evaluate(LEGIBILITY_JS)
    assert problems == [], "\n".join(problems)
    assert page.locator("svg.scale text").count() >= 3, "the rating bars' scale is labelled"
    assert page.locator("svg.history text.tick").count() >= 6, "both axes have ticks"
    assert page.locator("polyline.hit").count() == 3, "a line to point at for each bot"
    chart = page.locator("svg.history")
    assert chart.bounding_box()["width"] >= 600  # type: ignore[index]
    titles = page.evaluate(
        "[...document.querySelectorAll('svg.history text.title')].map((t) => t.textContent)"
    )
    assert titles == ["games rated", "rating (mu \u00b1 3 sigma)"]
    assert sorted(page.locator("ul.legend li").all_inner_texts()) == ["a", "b", "x"]
    if width == 1280:  # a pointer on each line names its bot
        for line in page.locator("polyline.hit").all():
            bot = line.get_attribute("data-bot")
            x, y = page.evaluate(
                """(line) => { const points = line.getAttribute('points').split(' ');
                const [px, py] = points[points.length >> 1].split(',').map(Number);
                const box = line.ownerSVGElement.getBoundingClientRect();
                return [box.left + px, box.top + py]; }""",
                line.element_handle(),
            )
            page.mouse.move(x, y)
            assert page.locator("p.chart-hover").inner_text().startswith(f"{bot}: ")
    page.screenshot(path=str(tmp_path / f"report-{width}-{scheme}.png"), full_page=True)
    page.locator("#game-rows button.open").first.click()
    page.wait_for_function("!document.getElementById('viewer').hidden")
    for _ in range(12):
        page.keyboard.press("ArrowRight")
    cards = page.locator("#seats .card")
    assert cards.count() > 0
    box = cards.first.bounding_box()
    assert box is not None and box["height"] > box["width"] * 0.9, "a card is taller than wide"
    problems = page.evaluate(LEGIBILITY_JS)
    assert problems == [], "\n".join(problems)
    page.screenshot(path=str(tmp_path / f"viewer-{width}-{scheme}.png"), full_page=True)
    assert errors == [] and requests == []
