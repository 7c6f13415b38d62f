"""A person at the table: entries understood, the seat's view, whole games, bad input.

The terminal itself is tested in tests/test_terminal.py (tmux) and the page
in tests/test_browser.py (chromium); here the person is a scripted front
behind the real :class:`HumanPlayer`, against the real referee.
"""

from __future__ import annotations

import http.client
import io
import json
import random
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena.bots.spec import parse_bot
from arena.errors import BotError, FaultKind
from arena.execute.game import play_one
from arena.game import Rules
from arena.human.entry import choices, understand
from arena.human.player import LEFT, CtrlC, HumanPlayer, PersonLeft
from arena.human.seats import HumanSeat, check_people, parse_seats
from arena.human.terminal import TerminalFront
from arena.human.view import SeatView
from arena.human.web import TableServer, WebFront
from arena.players import RandomPlayer
from arena.protocol import Limits
from arena.referee import play_game, read_replay, write_replay
from arena.results.games import ScheduledGame
from arena.results.ratings import Environment
from arena.results.replays import replay_path
from arena.results.store import BotRecord, Finished, Store
from tests.engine_digest import RULE_SETS
from tests.test_report_html import embedded, parse
from tests.test_tournament import C_BOT, run_cli

JSON = dict[str, Any]
ROOT = Path(__file__).resolve().parent.parent


def request(legal: list[str], *, action: str = "play", **state: Any) -> JSON:
    """A request with a state holding what the entry's explanations read."""
    base: JSON = {
        "seat": 0,
        "cards": ["7H", "TH", "2S", "KC"],
        "trick": [],
        "trump": "S",
        "statuses": ["active", "active", "dog"],
        "blind": [],
    }
    base.update(state)
    return {"type": "request", "id": 1, "action": action, "legal": legal, "state": base}


PLAY = request(["7H", "TH", "2S", "KC"])
FOLLOW = request(["7H", "TH"], trick=[[2, "3H"]])


@pytest.mark.parametrize(
    ("entry", "asked", "move"),
    [
        ("7h", PLAY, "7H"),
        ("7H", PLAY, "7H"),
        (" 10h ", PLAY, "TH"),
        ("th", PLAY, "TH"),
        ("h10", PLAY, "TH"),
        ("10 of hearts", PLAY, "TH"),
        ("\u2665 7", PLAY, "7H"),
        ("KC", PLAY, "KC"),
        ("1", PLAY, "2S"),  # the list is shown by suit: spades, hearts, clubs, diamonds
        ("2", PLAY, "TH"),
        ("4", PLAY, "KC"),
        ("knock", request(["knock", "5D"], statuses=["dog"], cards=["5D"]), "knock"),
        ("BLIND", request(["knock", "blind"], statuses=["dog"], cards=[], blind=[0]), "blind"),
        ("hearts", request(["C", "H", "D", "S"], action="trump"), "H"),
        ("s", request(["C", "H", "D", "S"], action="trump"), "S"),
        ("\u2666", request(["C", "H", "D", "S"], action="trump"), "D"),
        ("declare", request(["pass", "declare"], action="rainbow"), "declare"),
        ("2", request(["pass", "declare"], action="rainbow"), "declare"),
    ],
)
def test_an_entry_is_read_as_people_write_moves(entry: str, asked: JSON, move: str) -> None:
    assert understand(entry, asked).move == move


@pytest.mark.parametrize(
    ("entry", "asked", "problem"),
    [
        ("", PLAY, "type a move: a card such as 7h or 10s, or a number from the list"),
        ("zz", PLAY, "'zz' is not a move: a card such as 7h or 10s, or a number from the list"),
        ("9", PLAY, "there is no move 9: choose 1 to 4"),
        ("0", PLAY, "there is no move 0: choose 1 to 4"),
        ("AS", PLAY, "AS is not legal: it is not in your hand"),
        ("2s", FOLLOW, "2S is not legal: you must follow hearts"),
        ("knock", PLAY, "knock is not legal: only a dog may knock"),
        ("7h", request(["C", "H", "D", "S"], action="trump"), "7H is not legal: name trumps"),
        (
            "xyz",
            request(["C", "H", "D", "S"], action="trump"),
            "'xyz' is not a move: a suit (s, h, d, c or its name), or a number from the list",
        ),
        (
            "hearts",
            request(["pass", "declare"], action="rainbow"),
            "'hearts' is not a move: a number from the list, or pass or declare",
        ),
        ("7h", request(["pass", "declare"], action="rainbow"), "7H is not legal: answer rainbow"),
        (
            "zz",
            request(["knock", "5D"], statuses=["dog"], cards=["5D"]),
            "'zz' is not a move: a card such as 7h or 10s, a number from the list, or knock",
        ),
    ],
)
def test_a_wrong_entry_is_explained(entry: str, asked: JSON, problem: str) -> None:
    understood = understand(entry, asked)
    assert understood.move is None
    assert understood.problem is not None and understood.problem.startswith(problem)


def test_choices_list_words_then_suits_then_cards_by_suit_from_the_top() -> None:
    assert choices(request(["knock", "2C", "7H", "TH", "AS", "3D"])) == [
        "knock", "AS", "TH", "7H", "2C", "3D",
    ]  # fmt: skip
    assert choices(request(["C", "H", "D", "S"], action="trump")) == ["S", "H", "C", "D"]


class ScriptedFront:
    """A person who first types something wrong, then a legal move in a random written form."""

    def __init__(self, rng: random.Random, *, leave_after: int | None = None) -> None:
        self.rng = rng
        self.leave_after = leave_after
        self.asked = 0
        self.problems: list[str] = []
        self.shown: list[JSON] = []
        self.views: list[tuple[JSON, JSON]] = []

    def show(self, view: SeatView, message: JSON, lines: list[str]) -> None:
        self.shown.append(message)

    def leaving(self) -> str | None:
        return None

    def ask(self, view: SeatView, request: JSON, problem: str | None) -> str:
        if problem is None:
            self.asked += 1
            self.views.append((view.to_json(), request))
            if self.leave_after is not None and self.asked > self.leave_after:
                raise PersonLeft("eof")
            return "no such move"  # every first entry is wrong: explained, asked again
        self.problems.append(problem)
        shown = choices(request)
        move = self.rng.choice(shown)
        if len(move) == 2 and self.rng.random() < 0.5:
            rank = "10" if move[0] == "T" else move[0]
            return self.rng.choice([rank + move[1].lower(), move[1].lower() + rank])
        return str(shown.index(move) + 1)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: f"{rules.players}p")
def test_a_person_plays_whole_games_of_every_option(rules: Rules) -> None:
    for seed in range(4):
        rng = random.Random(seed)
        seat = seed % rules.players
        front = ScriptedFront(rng)
        person = HumanPlayer("ann", front)
        players: list[Any] = [RandomPlayer(f"r{s}") for s in range(rules.players)]
        players[seat] = person
        result = play_game(players, rules, seed=seed, game_id=f"person-{seed}")
        assert not result.faults
        assert front.asked == len(front.problems) > 0
        assert all(problem.startswith("'no such move' is not a move") for problem in front.problems)
        assert person.view.finished and person.view.placements == list(result.placements)
        for view, asked in front.views:
            state = asked["state"]
            # What the view shows is what the request says, kept from the messages.
            assert view["cards"] == state["cards"]
            assert view["tricks"] == state["tricks"]
            assert view["statuses"] == state["statuses"]
            assert view["trump"] == state["trump"]
            assert [turn for turn in view["trick"] if turn[1] != "knock"] == state["trick"]
            assert [turn[0] for turn in view["trick"] if turn[1] == "knock"] == state["knocked"]


def test_a_person_who_leaves_faults_and_the_game_plays_out() -> None:
    front = ScriptedFront(random.Random(1), leave_after=3)
    person = HumanPlayer("ann", front)
    result = play_game(
        [person, RandomPlayer("b"), RandomPlayer("c")], Rules(players=3), seed=5, game_id="g"
    )
    fault = result.faults[0]
    assert (fault.kind, fault.detail) == (FaultKind.CRASH, "the person left")
    assert person.left == "eof"
    assert result.placements[0] == 3 and result.replay[-1]["type"] == "game_end"
    assert person.view.stopped == "the person left"


class LeavingFront(ScriptedFront):
    """A person who leaves between turns (Ctrl-C while a bot thinks) on a message ``when``
    picks."""

    def __init__(self, when: Callable[[JSON], bool]) -> None:
        super().__init__(random.Random(2))
        self.when = when
        self.gone = False

    def show(self, view: SeatView, message: JSON, lines: list[str]) -> None:
        super().show(view, message, lines)
        self.gone = self.gone or self.when(message)

    def leaving(self) -> str | None:
        return "interrupt" if self.gone else None


def test_a_person_who_leaves_between_turns_faults_at_once() -> None:
    """At the next message, not at their next turn (which may never come): every move of
    the seat after it is the referee's fallback."""

    def first_card_of_another_seat(message: JSON) -> bool:
        return message.get("event") == "play" and message["seat"] != 0

    front = LeavingFront(first_card_of_another_seat)
    person = HumanPlayer("ann", front)
    players: list[Any] = [person, RandomPlayer("b"), RandomPlayer("c")]
    result = play_game(players, Rules(players=3), seed=5, game_id="g")
    fault = result.faults[0]
    assert (fault.kind, fault.detail, person.left) == (FaultKind.CRASH, LEFT, "interrupt")
    left_at = next(i for i, r in enumerate(result.replay) if first_card_of_another_seat(r))
    after = [r for r in result.replay[left_at:] if r["type"] == "move" and r["seat"] == 0]
    assert after and all(move.get("fallback") for move in after)
    assert person.view.stopped == LEFT


def test_a_person_who_leaves_as_the_game_ends_changes_nothing() -> None:
    """Once the game is decided the seat cannot fault: the person is only let go."""
    front = LeavingFront(lambda message: message.get("type") == "game_end")
    person = HumanPlayer("ann", front)
    players: list[Any] = [person, RandomPlayer("b"), RandomPlayer("c")]
    result = play_game(players, Rules(players=3), seed=5, game_id="g")
    assert result.faults == {} and person.left == "interrupt"
    assert result.replay[-1]["type"] == "game_end" and person.view.stopped == LEFT


def test_a_person_knocked_out_who_leaves_keeps_their_place() -> None:
    """Out of the game, watching: leaving changes nothing (no decision was left to lose)."""

    def out(message: JSON) -> bool:
        return message.get("type") == "hand_end" and message["statuses"][0] == "out"

    for seed in range(40):
        players: list[Any] = [HumanPlayer("ann", LeavingFront(lambda _: False)),
                              *(RandomPlayer(name) for name in "bcd")]  # fmt: skip
        stayed = play_game(players, Rules(players=4), seed=seed, game_id="g")
        ends = [record for record in stayed.replay if record["type"] == "hand_end"]
        if any(out(end) for end in ends[:-1]):  # out, with the game going on after
            break
    else:
        raise AssertionError("no game of these seeds knocks the person out before its end")
    person = HumanPlayer("ann", LeavingFront(out))
    players = [person, *(RandomPlayer(name) for name in "bcd")]
    result = play_game(players, Rules(players=4), seed=seed, game_id="g")
    assert person.left == "interrupt" and person.view.stopped == LEFT, seed
    assert (result.faults, result.placements) == ({}, stayed.placements)


def test_a_seat_view_holds_nothing_its_messages_did_not() -> None:
    """Every card in the view was in a message the seat was sent: its own, or public."""
    front = ScriptedFront(random.Random(2))
    person = HumanPlayer("ann", front)
    play_game(
        [RandomPlayer("a"), person, RandomPlayer("c"), RandomPlayer("d")],
        Rules(upside_dog=True),
        seed=9,
        game_id="g",
    )
    seen: set[str] = set()
    cards = re.compile(r'"([2-9TJQKA][SHDC])"')
    for message in front.shown:
        seen |= set(cards.findall(str(message).replace("'", '"')))
    for view, asked in front.views:
        seen |= set(cards.findall(str(asked).replace("'", '"')))
        assert set(cards.findall(str(view).replace("'", '"'))) <= seen


def test_human_seats_and_their_names() -> None:
    seats = parse_seats(["human", f"{C_BOT}", "human:ann", "human"])
    assert [seat.name for seat in seats] == ["human", "random_bot", "ann", "human-2"]
    assert isinstance(seats[0], HumanSeat) and isinstance(seats[2], HumanSeat)
    with pytest.raises(BotError, match=r"two seats are named 'ann': .* human:NAME for a person"):
        parse_seats(["human:ann", f"ann={C_BOT}"])
    with pytest.raises(BotError, match="write human:NAME with a name"):
        parse_seats(["human:", C_BOT])
    assert len(check_people(seats, web=True)) == 3


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["play", "human", "human", C_BOT], 2, "2 people at one terminal"),
        (["play", C_BOT, C_BOT, "--web"], 2, "--web shows a person's table"),
        (["play", "human:", C_BOT], 1, "write human:NAME with a name"),
        (["play", "human:a b", C_BOT], 1, "a b"),
        (
            ["tournament", "--bot", "human", "--bot", C_BOT, "--bot", C_BOT, "--players", "3"],
            1,
            "'human' seats a person, which only `arena play` does",
        ),
        (["match", "human", C_BOT], 1, "'human' seats a person, which only `arena play` does"),
        (["check-bot", "human:ann"], 1, "'human:ann' seats a person"),
        (["play", "human", C_BOT, "--port", "8000"], 2, "--port is for the pages of --web"),
        (["play", "human", C_BOT, "--no-open"], 2, "--open/--no-open is for the pages of --web"),
        (["play", "human:ann", "human:ann", C_BOT, "--web"], 1, "two seats are named 'ann'"),
    ],
)
def test_bad_input_about_people_is_one_line(args: list[str], status: int, message: str) -> None:
    code, output = run_cli(*args)
    assert code == status, output
    lines = [line for line in output.splitlines() if line.strip()]
    assert message in lines[-1] and "Traceback" not in output, output


def test_web_on_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, output = run_cli(
            "play", "human", C_BOT, "--web", "--no-open", "--port", str(port),
            "--replay", str(tmp_path / "g.jsonl"),
        )  # fmt: skip
    assert code == 1, output
    assert (
        output.strip()
        .splitlines()[-1]
        .startswith(f"Error: cannot serve the table on 127.0.0.1, port {port}: ")
    )
    assert "Traceback" not in output and not (tmp_path / "g.jsonl").exists()


def test_the_end_of_input_ends_the_persons_part_and_exits_0(tmp_path: Path) -> None:
    """Piped input that runs out: the seat faults, the game and its replay are complete."""
    done = subprocess.run(
        [sys.executable, "-m", "arena", "play", "human:ann", C_BOT, C_BOT, "--seed", "4"],
        input="zz\n1\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "'zz' is not a move" in done.stdout
    assert "You left the table" in done.stdout
    assert "ann faulted (crash)" in done.stdout
    replay = (tmp_path / "results" / "play" / "play-4.jsonl").read_text().splitlines()
    assert '"detail":"the person left"' in replay[-1]
    assert sum('"type":"move","seat":0' in line and "fallback" not in line for line in replay) == 1


def fetch(
    port: int, method: str, path: str, headers: dict[str, str], body: bytes = b""
) -> tuple[int, Any]:
    """One request to 127.0.0.1:``port`` (headers as given: ``Host`` too): status, JSON."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
    finally:
        connection.close()
    kind = response.getheader("Content-Type") or ""
    return response.status, json.loads(data) if kind == "application/json" else data


def test_a_page_is_served_to_its_own_link_only_and_one_move_a_turn(capfd: Any) -> None:
    front = WebFront("ann", CtrlC())
    table = TableServer([front])
    table.start()
    port = table.port(front)
    seat = f"/seat/{front.token}/"
    host = {"Host": f"127.0.0.1:{port}"}
    json_type = {**host, "Content-Type": "application/json"}
    answers: list[str] = []
    asking = threading.Thread(target=lambda: answers.append(front.ask(SeatView(), PLAY, None)))
    try:
        assert fetch(port, "GET", seat, {"Host": "evil.example"})[0] == 403  # another name for it
        assert fetch(port, "GET", "/seat/not-the-token/state", host)[0] == 404
        status, page = fetch(port, "GET", seat, host)
        assert status == 200 and b"ArenaViewer" in page
        asking.start()
        status, state = fetch(port, "GET", seat + "state?since=0", host)
        while state["asking"] is None:  # a page (re)loaded mid-game sees the turn
            status, state = fetch(port, "GET", seat + f"state?since={state['version']}", host)
        assert state["asking"]["id"] == 1 and state["asking"]["choices"] == choices(PLAY)
        form = fetch(port, "POST", seat + "move", host, b"entry=1&id=1")
        assert form[0] == 400, "a form from another site cannot send a move"
        stale = fetch(port, "POST", seat + "move", json_type, b'{"entry": "1", "id": 0}')
        assert stale == (409, {"problem": "that turn is over: wait for your next one"})
        assert fetch(port, "POST", seat + "move", json_type, b'{"entry": "2", "id": 1}')[0] == 200
        again = fetch(port, "POST", seat + "move", json_type, b'{"entry": "3", "id": 1}')
        assert again[0] == 409, "a second click is refused, whether or not the turn is over yet"
        asking.join(timeout=10)
        assert answers == ["2"]
        assert fetch(port, "GET", seat + "state?since=%C2%B2", host)[0] == 200
        # A page gone while it waits for news (a reload, a closed tab): nothing is printed.
        with socket.create_connection(("127.0.0.1", port)) as gone:
            version = front.version
            gone.sendall(f"GET {seat}state?since={version} HTTP/1.1\r\nHost: 127.0.0.1:{port}"
                         "\r\n\r\n".encode())  # fmt: skip
        front.show(SeatView(), {"type": "event"}, [])
        time.sleep(0.3)
    finally:
        table.stop()
    assert capfd.readouterr().err == ""


@pytest.mark.parametrize("entry", ["?", "help", " HELP "])
def test_help_at_the_prompt_says_what_to_type_and_how_to_leave(entry: str) -> None:
    understood = understand(entry, PLAY)
    assert understood.move is None and understood.problem is not None
    assert understood.problem.startswith("a card such as 7h or 10s, or a number from the list. ")
    assert "Type quit to leave the table" in understood.problem
    assert understand("h", request(["C", "H", "D", "S"], action="trump")).move == "H"


@pytest.mark.parametrize(("confirm", "left"), [("y", "quit"), ("n", None)])
def test_quit_at_the_prompt_leaves_after_a_confirmation(confirm: str, left: str | None) -> None:
    """The first screen says how to leave; ? helps; quit asks first, and "n" goes back to
    the move (then the person plays the first move listed, to the end)."""
    entries = iter(["?", "quit", confirm])
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(entries, "1")

    out = io.StringIO()
    person = HumanPlayer("ann", TerminalFront(CtrlC(), out=out, read=read))
    result = play_game(
        [person, RandomPlayer("b"), RandomPlayer("c")], Rules(players=3), seed=5, game_id="g"
    )
    said = out.getvalue()
    assert said.count("Type quit to leave the table (the arena plays your seat out)") == 2
    assert prompts[2] == "Leave the table? The arena plays your seat out. [y/N] "
    assert person.left == left
    if left is None:
        assert "You stay: your move." in said and 0 not in result.faults
    else:
        assert result.faults[0].detail == LEFT and result.placements[0] == 3


def test_a_person_who_quits_is_left_in_the_results_and_crash_in_the_replay(
    tmp_path: Path,
) -> None:
    """Protocol v1's fault kinds are a closed set every kit decodes: the replay, and the
    bots at the table in their game_end, say crash, "the person left". The results folder
    counts the seat as left: its store, the leaderboard's json and the report."""
    entries = iter(["quit", "y"])
    front = TerminalFront(CtrlC(), out=io.StringIO(), read=lambda prompt: next(entries))
    person = HumanPlayer("ann", front)
    bots = [parse_bot(f"{name}={C_BOT}") for name in ("bob", "cy")]
    result = play_one([person, *bots], Rules(players=3), seed=5, game_id="g", limits=Limits())
    assert person.left == "quit"
    folder = tmp_path / "club"
    names = ("ann", "bob", "cy")
    store = Store.open(
        folder,
        config={"players": 3},
        bots=[BotRecord(name, name, "h") for name in names],
        environment=Environment.for_table(3),
        sandbox=[],
    )
    try:
        store.schedule_round(1, [names], [ScheduledGame(0, "g", 0, 0, 5, names)])
        write_replay(folder / replay_path("g"), result.lines)
        store.finish(Finished.of(0, result, 1.0, replay_path("g")))
        store.flush()
        faulted = store.db.execute(
            "SELECT seat, bot, fault_kind, fault_detail FROM seats WHERE fault_kind IS NOT NULL"
        ).fetchall()
    finally:
        store.close()
    assert faulted == [(0, "ann", "left", LEFT)]

    replay = read_replay(folder / replay_path("g"))
    assert replay[-1]["type"] == "game_end"
    assert replay[-1]["faults"] == {"0": {"kind": "crash", "detail": LEFT}}

    code, output = run_cli("leaderboard", str(folder), "--format", "json")
    assert code == 0, output
    rows = {row["bot"]: row for row in json.loads(output)}
    assert rows["ann"]["faults"] == {"left": 1}
    assert rows["ann"]["fault_details"] == [{"game": "g", "kind": "left", "detail": LEFT}]
    assert rows["bob"]["faults"] == {} and rows["cy"]["faults"] == {}

    code, output = run_cli("report", str(folder))
    assert code == 0, output
    text = (folder / "report.html").read_text()
    faults = parse(text).tables[2]
    assert faults[0] == ["bot", "left", "first faults"]
    assert {line[0]: line[1:] for line in faults[1:]}["ann"] == ["1", f"g: left: {LEFT}"]
    listed = embedded(text, "game-list")
    assert listed["games"][0]["faults"] == ["left", None, None]
