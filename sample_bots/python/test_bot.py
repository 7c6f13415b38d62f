"""The session loop: it answers hello and every request, legally, with nothing else on
stdout, and a strategy's failure costs a move, never the game."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
import unittest
from pathlib import Path
from typing import Any
from unittest import mock

import bot
from cards import Card, Move, Word
from messages import Decision, Request, State
from strategy import Strategy

HERE = Path(__file__).resolve().parent
LIMITS = {"startup_ms": 10000, "move_ms": 1000, "bank_ms": 10000}
RULES = {
    "players": 2, "dog_life": "standard", "dog_first_hand_only": False, "blind_dog": False,
    "upside_dog": False, "rainbow": False, "no_picture": False, "trumps_broken": False,
    "eliminated_deals": False, "sweep_wins": False, "tie_break": "cut",
}  # fmt: skip


def request(id_: int, legal: list[str], cards: list[str], **state: Any) -> dict[str, Any]:
    """A request to seat 0 of a 2-seat game, on hand 7 (one card each), spades trumps."""
    fields: dict[str, Any] = {
        "seat": 0, "hand": 7, "hand_size": 1, "dealer": 1, "trump": "S", "cards": cards,
        "leader": 0, "trick": [], "played": [], "tricks": [0, 0],
        "statuses": ["active", "active"], "turn_up": None, "history": [], "blind": [],
    }  # fmt: skip
    fields.update(state)
    return {
        "type": "request", "id": id_, "action": "play", "legal": legal, "state": fields,
        "time": {"move_ms": 1000, "bank_ms": 10000},
    }  # fmt: skip


#: A short session: the last hand of a game, news of every kind, a message of a later
#: protocol version, two requests, then bye (and a line after it that must not be read).
SESSION: list[dict[str, Any]] = [
    {"type": "hello", "protocol": 1, "limits": LIMITS},
    {"type": "game_start", "game": "g1-1", "seat": 0, "players": ["me", "you"], "rules": RULES},
    {"type": "hand_start", "hand": 7, "dealer": 1, "cards": ["AS"], "hand_size": 1,
     "turn_up": None, "statuses": ["active", "active"]},
    {"type": "event", "event": "trump", "suit": "S", "seat": 0},
    {"type": "chat", "text": "a message type protocol v1 does not have"},
    request(1, ["AS"], ["AS"]),
    {"type": "event", "event": "play", "seat": 0, "card": "AS"},
    {"type": "event", "event": "play", "seat": 1, "card": "2S"},
    {"type": "event", "event": "trick", "winner": 0, "cards": [[0, "AS"], [1, "2S"]]},
    {"type": "hand_end", "hand": 7, "tricks": [1, 0], "statuses": ["active", "out"],
     "chooser": None},
    {"type": "game_end", "game": "g1-1", "placements": [1, 2], "winner": 0, "faults": {}},
    {"type": "game_start", "game": "g1-2", "seat": 1, "players": ["you", "me"], "rules": RULES},
    request(2, ["2C", "KD"], ["2C", "KD"], seat=1, leader=0, trick=[[0, "QD"]],
            played=[[0, "QD"]]),
    {"type": "bye"},
    request(3, ["2C"], ["2C"]),
]  # fmt: skip


def lines(messages: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(message) + "\n" for message in messages]


def played(strategy: Strategy, messages: list[dict[str, Any]]) -> tuple[list[Any], str]:
    """The replies to ``messages`` (parsed), and what was logged."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        bot.play(strategy, lines(messages), out)
    return [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


class Fixed(Strategy):
    """A strategy that returns (or raises) what it is given, and remembers what it saw."""

    def __init__(self, answer: Move | Decision | Exception) -> None:
        super().__init__()
        self.answer = answer
        self.seen: list[str] = []

    def observe(self, message: Any) -> None:
        self.seen.append(type(message).__name__)
        super().observe(message)

    def choose(self, state: State, legal: tuple[Move, ...], request: Request) -> Decision:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer if isinstance(self.answer, Decision) else Decision(self.answer)


class SessionTest(unittest.TestCase):
    def test_a_session_gets_ready_and_a_legal_move_per_request_and_nothing_else(self) -> None:
        strategy = Strategy()
        replies, log = played(strategy, SESSION)
        self.assertEqual(replies, [
            {"type": "ready", "name": bot.NAME, "version": bot.VERSION},
            {"type": "move", "id": 1, "move": "AS", "info": {"rule": "only_move"}},
            {"type": "move", "id": 2, "move": "KD", "info": {"rule": "cheapest_winner"}},
        ])  # fmt: skip
        self.assertIn("ignoring messages I do not know", log)
        assert strategy.game is not None
        self.assertEqual((strategy.game.game, strategy.game.seat), ("g1-2", 1))

    def test_every_message_not_answered_is_observed(self) -> None:
        strategy = Fixed(Word.KNOCK)
        played(strategy, SESSION)
        self.assertEqual(strategy.seen, [
            "GameStart", "HandStart", "TrumpEvent", "PlayEvent", "PlayEvent", "TrickEvent",
            "HandEnd", "GameEnd", "GameStart",
        ])  # fmt: skip

    def test_the_end_of_input_ends_the_session(self) -> None:
        replies, _ = played(Strategy(), SESSION[:6])
        self.assertEqual([reply["type"] for reply in replies], ["ready", "move"])

    def test_a_failing_strategy_plays_the_first_legal_move(self) -> None:
        ask = [request(5, ["2C", "KD"], ["2C", "KD"])]
        cases: list[tuple[Move | Exception, str]] = [
            (RuntimeError("a bug"), "choose() raised; playing 2C"),
            (Word.KNOCK, "choose() returned <Word.KNOCK: 'knock'>, not in ['2C', 'KD']"),
        ]
        for answer, why in cases:
            with self.subTest(why):
                replies, log = played(Fixed(answer), ask)
                self.assertEqual(replies, [{"type": "move", "id": 5, "move": "2C"}])
                self.assertIn(why, log)

    def test_a_failing_observe_is_logged_and_the_session_plays_on(self) -> None:
        class Forgetful(Strategy):
            def observe(self, message: Any) -> None:
                raise KeyError("a bug")

        replies, log = played(Forgetful(), SESSION)
        self.assertEqual([reply["type"] for reply in replies], ["ready", "move", "move"])
        self.assertIn("observe() raised on GameStart", log)
        self.assertIn("KeyError: 'a bug'", log)

    def test_info_is_sent_when_there_is_one_and_is_json(self) -> None:
        ask = [request(5, ["2C", "KD"], ["2C", "KD"])]
        kd = Card.parse("KD")
        cases: list[tuple[Move | Decision, dict[str, Any], str]] = [
            (kd, {}, ""),
            (Decision(kd), {}, ""),
            (
                Decision(kd, {"value": 0.6, "line": ["KD"]}),
                {"info": {"value": 0.6, "line": ["KD"]}},
                "",
            ),
            (Decision(kd, float("nan")), {}, "info is not JSON"),
            (Decision(kd, "x" * 5000), {"info": "x" * 5000}, "the arena keeps only its size"),
        ]
        for answer, info, logged in cases:
            with self.subTest(answer=str(answer)[:40]):
                replies, log = played(Fixed(answer), ask)
                self.assertEqual(replies, [{"type": "move", "id": 5, "move": "KD", **info}])
                if logged:
                    self.assertIn(logged, log)
                else:
                    self.assertEqual(log, "")

    def test_a_request_the_model_cannot_read_is_still_answered(self) -> None:
        broken = request(9, ["knock", "7D"], ["7D"])
        broken["state"]["cards"] = ["7D", "1X"]
        replies, log = played(Strategy(), [broken])
        self.assertEqual(replies, [{"type": "move", "id": 9, "move": "knock"}])
        self.assertIn('request.state.cards[1]: expected a card like "TD", got "1X"', log)
        replies, _ = played(Strategy(), [{"type": "hello", "protocol": 1}])
        self.assertEqual(replies, [{"type": "ready", "name": bot.NAME, "version": bot.VERSION}])
        replies, log = played(Strategy(), [{"type": "game_start"}])
        self.assertEqual(replies, [])
        self.assertIn("ignoring a message I cannot read", log)


class ProgramTest(unittest.TestCase):
    def test_a_stray_print_goes_to_stderr(self) -> None:
        class Chatty(Strategy):
            def choose(self, state: State, legal: tuple[Move, ...], request: Request) -> Decision:
                print("thinking out loud")
                return super().choose(state, legal, request)

        stdin, stdout, stderr = io.StringIO("".join(lines(SESSION))), io.StringIO(), io.StringIO()
        with (
            mock.patch.object(bot, "Strategy", Chatty),
            mock.patch.object(sys, "stdin", stdin),
            mock.patch.object(sys, "stdout", stdout),
            contextlib.redirect_stderr(stderr),
        ):
            self.assertEqual(bot.main([]), 0)
        self.assertEqual([json.loads(line)["type"] for line in stdout.getvalue().splitlines()],
                         ["ready", "move", "move"])  # fmt: skip
        self.assertEqual(stderr.getvalue().count("thinking out loud"), 2)

    def run_bot(self, *args: str, text: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(HERE / "bot.py"), *args], input=text, capture_output=True,
            text=True, timeout=60, check=False, cwd="/",
        )  # fmt: skip

    def test_the_program_plays_from_any_folder_and_exits_0_on_bye(self) -> None:
        done = self.run_bot("--eps", "0.5", text="".join(lines(SESSION)))
        self.assertEqual(done.returncode, 0, done.stderr)
        replies = [json.loads(line) for line in done.stdout.splitlines()]
        self.assertEqual([reply.get("id") for reply in replies], [None, 1, 2])

    def test_roundtrip_prints_each_line_back_and_stops_at_one_it_cannot_read(self) -> None:
        known = [message for message in SESSION if message["type"] != "chat"]
        done = self.run_bot("--roundtrip", text="".join(lines(known)))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual([json.loads(line) for line in done.stdout.splitlines()], known)
        done = self.run_bot("--roundtrip", text='{"type": "bye"}\n{"type": "move", "id": 1}\n')
        self.assertEqual((done.returncode, done.stdout), (1, '{"type":"bye"}\n'))
        self.assertEqual(done.stderr, "--roundtrip: line 2: move: missing field 'move'\n")

    def test_eps_must_be_a_share(self) -> None:
        done = self.run_bot("--eps", "1.5")
        self.assertEqual(done.returncode, 2)
        self.assertIn("--eps takes a share from 0 to 1, not 1.5", done.stderr)


if __name__ == "__main__":
    unittest.main()
