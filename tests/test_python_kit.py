"""The Python starter kit (sample_bots/python), in process: its greedy strategy plays the
moves of arena's Python greedy bot, and its own tests pass.

The kit ports ``arena/samples/greedy_bot.py`` rule for rule; this feeds both the same
requests, recorded from games under random rule options with seats playing greedy and
random moves, and requires the same move every time, each rule of the port among them.
The kit's processes (build, round trip, check-bot, README commands) are tested with the
other kits' in tests/test_kits.py.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from arena.game import Rules
from arena.players import JSON, ScriptedPlayer
from arena.referee import play_game
from arena.samples import greedy_bot

KIT = Path(__file__).resolve().parent.parent / "sample_bots" / "python"
sys.path.insert(0, str(KIT))  # the kit's modules, by the names the kit gives them

import greedy  # noqa: E402
import messages  # noqa: E402 (the kit's, found by the line above)

#: Games recorded: enough for every rule of the greedy bot to decide some move.
GAMES = 80


class Recorder(ScriptedPlayer):
    """A seat that keeps every request as it was sent (its line) and plays the greedy move,
    or a random one three times in ten (so that the games reach odd positions)."""

    def __init__(self, name: str, rng: random.Random, lines: list[bytes]) -> None:
        super().__init__(name, self.move)
        self.rng = rng
        self.lines = lines

    def move(self, request: JSON) -> str:
        legal: list[str] = request["legal"]
        if self.rng.random() < 0.3:
            return self.rng.choice(legal)
        move: str = greedy_bot.choose(request["state"], legal, request)
        return move

    def request(self, message: JSON, line: bytes, timeout_s: float) -> tuple[str, float]:
        self.lines.append(line)
        return super().request(message, line, timeout_s)


def recorded_requests(games: int) -> list[bytes]:
    """The requests of ``games`` seeded games, each under rule options drawn at random."""
    rng = random.Random(7)
    lines: list[bytes] = []
    for game in range(games):
        rules = Rules(
            players=rng.randint(3, 7),
            dog_life=rng.choice(["standard", "expanded", "none"]),
            dog_first_hand_only=rng.random() < 0.2,
            blind_dog=rng.random() < 0.8,
            upside_dog=rng.random() < 0.5,
            rainbow=rng.random() < 0.5,
            no_picture=rng.random() < 0.5,
            trumps_broken=rng.random() < 0.3,
            eliminated_deals=rng.random() < 0.3,
            sweep_wins=rng.random() < 0.2,
            tie_break=rng.choice(["cut", "random"]),
        )
        players = [Recorder(f"p{seat}", rng, lines) for seat in range(rules.players)]
        play_game(players, rules, seed=game, game_id=f"kit{game}")
    return lines


def test_the_kits_strategy_plays_the_python_greedy_bots_moves() -> None:
    differ, rules = [], set()
    lines = recorded_requests(GAMES)
    for line in lines:
        sent = json.loads(line)
        expected = greedy_bot.choose(sent["state"], sent["legal"], sent)
        request = messages.decode_line(line.decode())
        assert isinstance(request, messages.Request)
        move, rule = greedy.greedy(request.state, request.legal, request.action)
        rules.add(rule)
        if str(move) != expected:
            differ.append((expected, str(move), rule, sent))
    assert not differ, f"{len(differ)} of {len(lines)} moves differ, e.g. {differ[0]}"
    assert len(lines) > 5000
    assert rules == {
        "strongest_suit", "weak_hand", "strong_hand", "always_declare", "only_move",
        "cheapest_winner", "follow_low", "ruff", "discard_short_suit", "lead_boss",
        "lead_top_trump", "lead_low_trump", "lead_longest_suit", "dog_must_play",
        "dog_blind_gamble", "dog_knock", "dog_top_trump", "dog_wins_last",
    }, "every rule of the port decided some of the moves compared"  # fmt: skip


def test_the_kits_own_tests_pass_with_the_standard_library_alone() -> None:
    """``python3 -m unittest`` in the kit's folder, with nothing but the standard library
    on the path (-I: no environment, -S: no site-packages, arena's included)."""
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-B", "-m", "unittest"], cwd=KIT, capture_output=True,
        text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr.rstrip().endswith("OK"), done.stderr
    ran = int(done.stderr.split("Ran ", 1)[1].split()[0])
    assert ran >= 30, done.stderr
